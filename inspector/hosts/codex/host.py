"""Codex as a host: its hook files, its events, and its hooks run in parallel."""

from __future__ import annotations

import tomllib
from dataclasses import replace
from pathlib import Path
from typing import Any

from inspector.config.errors import ConfigError
from inspector.config.files import read_config_text
from inspector.config.model import Config
from inspector.hooks.approvals import Approvals
from inspector.hosts.codex import LABEL, NAME
from inspector.hosts.codex.chain import CodexHooks, run_failed
from inspector.hosts.codex.config import CODEX_DIR, CONFIG_TOML, HOOKS_JSON, read_codex
from inspector.hosts.codex.events import DEFAULT_TIMEOUT_S, EVENTS
from inspector.hosts.codex.findings import finding
from inspector.hosts.codex.install import INSTALLER
from inspector.hosts.codex.outcome import CodexOutcome
from inspector.hosts.codex.relay_answer import EDITED_ON, codex_output
from inspector.hosts.codex.runtime import codex_runtime
from inspector.hosts.command_relay_answer import answer_relayed
from inspector.hosts.command_runtime import CommandRuntime
from inspector.hosts.host import ABSENT, HookOutput, Relayed, RelayedTurns
from inspector.hosts.recorded_answer import recorded_answer
from inspector.hosts.relayed_turns import NamedTurns, text_at
from inspector.hosts.runtime import Runtime
from inspector.journal.journal import Journal
from inspector.journal.records import Exchange, Finding
from inspector.pipeline.gate import Gate


def has_hooks_table(config: Path) -> bool:
    """Whether `config` is a config.toml with a [hooks] table (one that does not read is not)."""
    try:
        data = tomllib.loads(read_config_text(config)) if config.is_file() else {}
    except (ConfigError, tomllib.TOMLDecodeError):
        return False
    return isinstance(data.get("hooks"), dict)


class CodexHost:
    name = NAME
    label = LABEL
    runs_commands = True
    bridge_plugin = False
    posts_hooks = False  # Codex has no HTTP handler type
    default_timeout_ms = DEFAULT_TIMEOUT_S * 1000
    env_prefixes: tuple[str, ...] = ()  # Codex sets no variables of its own for its hooks
    event_field = "hook_event_name"
    counts_skips = False
    installer = INSTALLER
    events: tuple[str, ...] = EVENTS

    def recognises(self, path: Path) -> bool:
        if path.is_dir():
            folder = path / CODEX_DIR
            return (
                path.name == CODEX_DIR
                or (folder / HOOKS_JSON).is_file()
                or has_hooks_table(folder / CONFIG_TOML)
            )
        return path.parent.name == CODEX_DIR and path.name in (HOOKS_JSON, CONFIG_TOML)

    def load(self, path: Path) -> Config:
        files = read_codex(path)
        return replace(
            files.config, warnings=files.warnings, files=files.files, workdir=files.project_dir
        )

    def runtime(
        self,
        config: Config,
        journal: Journal,
        approvals: Approvals,
        gate: Gate,
        *,
        restart_crashed: bool = True,
    ) -> CommandRuntime:
        return codex_runtime(config, journal, approvals, gate)

    def run_failed(self, exchange: Exchange) -> bool:
        return run_failed(exchange)

    def answer_of(self, exchange: Exchange) -> dict[str, Any]:
        return recorded_answer(exchange, shows_stderr=True)

    async def answer_relayed(self, runtime: Runtime | None, relayed: Relayed) -> HookOutput:
        return await answer_relayed(
            runtime,
            relayed,
            chain_type=CodexHooks,
            undecided=CodexOutcome,
            output=codex_output,
            edits_on=EDITED_ON,
        )

    def unanswered(self, relayed: Relayed, reason: str) -> HookOutput:
        return ABSENT  # Codex goes on as if the hook had said nothing

    def relayed_turns(self) -> RelayedTurns:
        # every event but SessionStart and SessionEnd names its turn (turn_id, a UUID)
        return NamedTurns(lambda payload: text_at(payload, "turn_id"))

    def finding(self, code: str, message: str) -> Finding:
        return finding(code, message)


HOST = CodexHost()
