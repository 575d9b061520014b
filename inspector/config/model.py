"""The one shape every config format is read into."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

INTERCEPT_NAMES = ("before_llm", "after_llm", "before_tool", "after_tool", "approve_tool")

HookKind = Literal["process", "manual"]
TimeoutBehaviour = Literal["deny", "allow"]


@dataclass(frozen=True)
class Defaults:
    """Timeouts in milliseconds. PicoClaw has the first three; the handshake one is ours."""

    observer_timeout_ms: int = 500
    interceptor_timeout_ms: int = 5000
    approval_timeout_ms: int = 60000
    handshake_timeout_ms: int = 10000


@dataclass(frozen=True)
class HookSpec:
    """One configured hook. Two specs that compare equal need no restart on reload."""

    name: str
    kind: HookKind = "process"
    command: tuple[str, ...] = ()
    dir: str | None = None
    env: tuple[tuple[str, str], ...] = ()
    priority: int = 0
    intercept: tuple[str, ...] = ()
    observe: tuple[str, ...] = ()
    enabled: bool = True
    # manual hooks only: what happens when the human does not answer in time
    on_timeout: TimeoutBehaviour = "deny"
    source: str = ""

    @property
    def env_dict(self) -> dict[str, str]:
        return dict(self.env)

    def intercepts(self, stage: str) -> bool:
        """PicoClaw turns on both halves of a pair when either is named."""
        wanted = set(self.intercept)
        if stage in ("before_llm", "after_llm"):
            return bool(wanted & {"before_llm", "after_llm"})
        if stage in ("before_tool", "after_tool"):
            return bool(wanted & {"before_tool", "after_tool"})
        return stage in wanted

    @property
    def observes_all(self) -> bool:
        return any(kind in ("", "*", "all") for kind in self.observe)

    @property
    def modes(self) -> list[str]:
        """The `modes` of hook.hello, in PicoClaw's order."""
        modes = []
        if self.observe:
            modes.append("observe")
        if self.intercepts("before_llm"):
            modes.append("llm")
        if self.intercepts("before_tool"):
            modes.append("tool")
        if self.intercepts("approve_tool"):
            modes.append("approve")
        return modes


@dataclass(frozen=True)
class Config:
    hooks: tuple[HookSpec, ...]
    defaults: Defaults = field(default_factory=Defaults)
    path: Path | None = None
    format: Literal["native", "picoclaw"] = "native"

    @property
    def enabled_hooks(self) -> tuple[HookSpec, ...]:
        return tuple(spec for spec in self.hooks if spec.enabled)

    @property
    def base_dir(self) -> Path:
        return self.path.parent if self.path else Path.cwd()
