"""j-cli as a host: its hooks folders and hooks.yaml files, its events, and its chain."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

from inspector.config.model import Config
from inspector.hooks.approvals import Approvals
from inspector.hosts.command_runtime import CommandRuntime
from inspector.hosts.host import ABSENT, HookOutput, Relayed, RelayedTurns
from inspector.hosts.jcli import LABEL, NAME
from inspector.hosts.jcli.chain import JcliChain, run_failed
from inspector.hosts.jcli.config import HOOK_FILES, LEGACY_FILE, PROJECT_DIR, read_jcli
from inspector.hosts.jcli.events import EVENTS
from inspector.hosts.jcli.findings import finding
from inspector.hosts.jcli.hookdef import DEFAULT_TIMEOUT_S
from inspector.hosts.jcli.install import INSTALLER
from inspector.hosts.jcli.relay_answer import jcli_output
from inspector.hosts.jcli.runtime import jcli_runtime
from inspector.hosts.recorded_answer import recorded_answer
from inspector.hosts.relayed_turns import PromptTurns
from inspector.hosts.runtime import Runtime
from inspector.journal.journal import Journal
from inspector.journal.records import Exchange, Finding
from inspector.pipeline.gate import Gate

USER_DIR = "agent"  # ~/.jdata/agent holds the user level's hooks.yaml


class JcliHost:
    name = NAME
    label = LABEL
    runs_commands = True
    bridge_plugin = False
    posts_hooks = False
    event_field = "event"
    counts_skips = True  # j-cli's HookMetrics
    default_timeout_ms = DEFAULT_TIMEOUT_S * 1000
    env_prefixes: tuple[str, ...] = ("JCLI_",)
    installer = INSTALLER
    events: tuple[str, ...] = EVENTS

    def recognises(self, path: Path) -> bool:
        if path.is_dir():
            return path.name == PROJECT_DIR or (path / PROJECT_DIR).is_dir() or _holds_hooks(path)
        if path.name in HOOK_FILES:
            return True
        return path.name == LEGACY_FILE and path.parent.name in (PROJECT_DIR, USER_DIR)

    def load(self, path: Path) -> Config:
        jcli = read_jcli(path)
        return replace(jcli.config, warnings=jcli.warnings, files=jcli.files, workdir=jcli.cwd)

    def runtime(
        self,
        config: Config,
        journal: Journal,
        approvals: Approvals,
        gate: Gate,
        *,
        restart_crashed: bool = True,
    ) -> CommandRuntime:
        return jcli_runtime(config, journal, gate)

    def run_failed(self, exchange: Exchange) -> bool:
        return run_failed(exchange)

    def answer_of(self, exchange: Exchange) -> dict[str, Any]:
        return recorded_answer(exchange, shows_stderr=False)

    async def answer_relayed(self, runtime: Runtime | None, relayed: Relayed) -> HookOutput:
        chain = runtime.chain if isinstance(runtime, CommandRuntime) else None
        if not isinstance(chain, JcliChain):
            return ABSENT
        fired = await chain.fire(
            relayed.event,
            relayed.payload,
            source=relayed.source,
            turn=relayed.turn,
            cwd=relayed.cwd,
            env=relayed.env,
            live=True,
        )
        return jcli_output(fired)

    def unanswered(self, relayed: Relayed, reason: str) -> HookOutput:
        return ABSENT

    def relayed_turns(self) -> RelayedTurns:
        # no event names its turn: the chat app's starts with pre_send_message, a one-shot
        # `j chat` (a session of its own) with session_start, which names its model there (the
        # chat app's session_start, before any message, has none)
        field = self.event_field
        return PromptTurns(
            lambda payload: (
                payload.get(field) == "pre_send_message"
                or (payload.get(field) == "session_start" and payload.get("model") is not None)
            )
        )

    def finding(self, code: str, message: str) -> Finding:
        return finding(code, message)


def _holds_hooks(path: Path) -> bool:
    """A hooks folder: subfolders each holding a HOOK.yaml."""
    return any(
        any((child / name).is_file() for name in HOOK_FILES)
        for child in path.iterdir()
        if child.is_dir()
    )


HOST = JcliHost()
