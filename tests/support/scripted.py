"""Real hook processes built from tests/hooks/scripted.py, and configs made of them."""

from __future__ import annotations

import json
import sys
from typing import Any

from inspector.config.model import Config, Defaults, HookSpec
from tests.support.paths import SCRIPTED


def scripted(
    name: str,
    script: dict[str, Any] | None = None,
    *,
    intercept: tuple[str, ...] = (),
    observe: tuple[str, ...] = (),
    priority: int = 0,
    env: dict[str, str] | None = None,
) -> HookSpec:
    return HookSpec(
        name=name,
        command=(sys.executable, str(SCRIPTED), json.dumps(script or {})),
        intercept=intercept,
        observe=observe,
        priority=priority,
        env=tuple(sorted((env or {}).items())),
    )


def config_of(*specs: HookSpec, **timeouts: int) -> Config:
    return Config(hooks=specs, defaults=Defaults(**timeouts))
