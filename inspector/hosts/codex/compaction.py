"""When `codex exec` compacts its context (codex-cli 0.171.0, seen with the real CLI offline).

Codex compacts mid-turn when the model's reply asked for more (it made tool calls) and the total
token usage that reply reported (response.completed's usage) is at least
`model_auto_compact_token_limit` from config.toml (the user's, then the project's, which wins).
It compacts at the start of a turn too, before UserPromptSubmit, when the last usage reported
(the previous turn's final answer's) reached the limit: seen with `codex exec resume`; a single
`codex exec` ends with its one turn, so there a final answer over the limit compacts nothing.
The compaction: PreCompact (trigger "auto"), the model summarises, PostCompact, then SessionStart
with source "compact"; a continue: false from PreCompact (nothing compacted) or PostCompact ends
the turn there, and Interrupt fires instead of Stop. Exit 2 blocks nothing on either event.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path

from inspector.hosts.codex.config import CODEX_DIR, COMPACT_LIMIT, CONFIG_TOML, codex_home
from inspector.scenario import Round

AUTO = "auto"  # the trigger of a compaction Codex starts itself


def auto_compact_limit(project_dir: str | Path) -> int | None:
    """The limit the config.toml files set, the project's over the user's; None when unset
    (the model's own limit, which the workbench does not know: it then compacts nothing)."""
    limit = None
    for config in (codex_home() / CONFIG_TOML, Path(project_dir) / CODEX_DIR / CONFIG_TOML):
        value = _read(config).get(COMPACT_LIMIT)
        if type(value) is int:
            limit = value
    return limit


@dataclass
class Usage:
    """The token usage Codex last heard of, against its limit: when to compact."""

    limit: int | None
    tokens: int | None = None  # what the last reply reported; None once compacted

    def reached(self) -> bool:
        return self.limit is not None and self.tokens is not None and self.tokens >= self.limit

    def after(self, rnd: Round) -> bool:
        """Take the round's reported usage; whether Codex compacts before the model goes on."""
        if rnd.tokens is not None:
            self.tokens = rnd.tokens
        return bool(rnd.tool_calls) and self.reached()

    def compacted(self) -> None:
        self.tokens = None


def _read(config: Path) -> dict[str, object]:
    try:
        return tomllib.loads(config.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return {}  # the config reader names a broken file; here it sets no limit
