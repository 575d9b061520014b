"""A plugin folder as a Config holds it (Config.plugin): the one host whose hooks are a plugin
is OpenClaw, whose folder reads it (inspector/hosts/openclaw/config.py). The shape stays here
because the Config every layer passes around is typed with it."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class PluginFolder:
    id: str
    folder: Path
    entry: Path
    name: str = ""
    config: dict[str, Any] = field(default_factory=dict)
    allow_conversation_access: bool = False
    timeouts: tuple[tuple[str, int], ...] = ()  # hooks.timeouts.<hook>: the operator's limits
    files: tuple[Path, ...] = ()  # every file a save of which reloads the plugin

    def timeout_for(self, hook_name: str) -> int | None:
        return dict(self.timeouts).get(hook_name)
