"""The one shape every config format is read into."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from inspector.config.plugin_folder import PluginFolder

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


# How a Claude Code handler is called: a shell command, a POST, or one host mode cannot make
# (an MCP tool's call, a prompt to a model, an agent of its own).
HandlerKind = Literal["command", "http", "mcp_tool", "prompt", "agent"]


@dataclass(frozen=True)
class HttpTarget:
    """Where an http handler POSTs the event's JSON, and the headers it adds. A header value's
    $VAR or ${VAR} is filled in only for the names in `allowed_env_vars` (the handler's own
    list, already narrowed by the settings' httpHookAllowedEnvVars)."""

    url: str
    headers: tuple[tuple[str, str], ...] = ()
    allowed_env_vars: tuple[str, ...] = ()


@dataclass(frozen=True)
class CommandHookSpec:
    """A command hook: one shell process per call, as j-cli and Claude Code run them. Two
    specs that compare equal need no restart on reload."""

    name: str
    host: str  # a host whose hooks are commands (the registry's command_events names them)
    event: str  # the host's event name: pre_tool_execution, PreToolUse, ...
    command: str  # a shell command line, run the way the host runs it
    timeout_ms: int
    dir: str | None = None  # the hook's own folder (j-cli folder layout), if it has one
    level: str = "user"  # j-cli: builtin, user, project, session; Claude Code: user, project, local
    retry: int = 0  # j-cli: extra attempts after a failure
    on_error: str = "skip"  # j-cli: skip, stop (or the older abort)
    matcher: str | None = None  # Claude Code: which tools (exact, a|b list, or a regex)
    tool_name: str | None = None  # j-cli filter: exact tool name
    tool_matcher: str | None = None  # j-cli filter: exact names separated by |
    model_prefix: str | None = None  # j-cli filter: the model name starts with this
    enabled: bool = True
    priority: int = 0  # order within the host's own ordering
    source: str = ""  # the file it was read from
    kind: Literal["command"] = "command"
    handler: HandlerKind = "command"  # Claude Code: how it is called (`command` its target)
    http: HttpTarget | None = None  # an http handler's request
    on_failure: str = "continue"  # Claude Code: "block" makes a failed or timed-out run block
    cannot_run: str = ""  # why host mode cannot run it (no model, no MCP server); "": it runs
    once: bool = False  # Claude Code: runs once in a session, then is removed
    condition: str | None = None  # Claude Code: its `if`, a permission rule the call must match
    sequential: bool = False  # its group asks for the event's hooks one after another
    env: tuple[tuple[str, str], ...] = ()  # variables its own settings add to its environment
    background: bool = False  # the host starts it and goes on without its answer (Codex: async)


@dataclass(frozen=True)
class Config:
    hooks: tuple[HookSpec | CommandHookSpec, ...]
    defaults: Defaults = field(default_factory=Defaults)
    path: Path | None = None
    host: str = "picoclaw"  # whose rules the session follows: a host's name in the registry
    # command-hook hosts: what loading noticed but the host would not refuse (shown as
    # findings), every file read (watched for reload), and where the hooks run
    warnings: tuple[Any, ...] = ()
    files: tuple[Path, ...] = ()
    workdir: Path | None = None
    plugin: PluginFolder | None = None  # an OpenClaw plugin folder run in host mode

    @property
    def enabled_hooks(self) -> tuple[HookSpec, ...]:
        """The JSON-RPC hooks (process and manual) that are switched on."""
        return tuple(spec for spec in self.hooks if isinstance(spec, HookSpec) and spec.enabled)

    @property
    def command_hooks(self) -> tuple[CommandHookSpec, ...]:
        return tuple(
            spec for spec in self.hooks if isinstance(spec, CommandHookSpec) and spec.enabled
        )
