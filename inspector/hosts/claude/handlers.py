"""One handler of a Claude Code settings file, read as Claude Code 2.1.332 reads it (its settings
schema, read from its program): five types, each with its own fields.

- `command`: `command`, and `args` (exec form), `shell` (bash, powershell), `timeout`,
  `onFailure`, `statusMessage`, `if`, `once`, `async`, `asyncRewake`;
- `http`: `url` (the event's JSON is POSTed there), `headers`, `allowedEnvVars`, `timeout`,
  `onFailure`, `statusMessage`, `if`, `once`;
- `mcp_tool`: `server`, `tool`, `input`, `timeout`, `onFailure`, `statusMessage`, `if`, `once`;
- `prompt`: `prompt`, `model`, `continueOnBlock`, `timeout`, `statusMessage`, `if`, `once`;
- `agent`: `prompt`, `model`, `timeout`, `statusMessage`, `if`, `once`.

Host mode runs `command` and `http` handlers. The other three need what it does not have (a
model, an MCP server): they are listed with what Claude Code would do and why host mode cannot.
A value of the wrong type is an error at its key; a key host mode does not apply is a warning."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field, replace
from typing import get_args
from urllib.parse import urlsplit

from inspector.config.checks import did_you_mean
from inspector.config.document import Document, KeyPath
from inspector.config.fields import describe, want_bool, want_map, want_str, want_str_list
from inspector.config.model import CommandHookSpec, HandlerKind, HttpTarget

KINDS: tuple[HandlerKind, ...] = get_args(HandlerKind)
ON_FAILURE = ("continue", "block")
SHELLS = ("bash", "powershell")
DEFAULT_TIMEOUT_S = 600  # command and http handlers (2.1.332: 600000 ms)
AGENT_TIMEOUT_S = 60  # an agent handler's own default
ENV_LIMIT = "httpHookAllowedEnvVars"  # the setting that narrows every http handler's list
URL_LIMIT = "allowedHttpHookUrls"  # the setting whose URL patterns an http handler must match

_COMMON = frozenset({"type", "timeout", "statusMessage", "if", "once"})
KEYS: dict[str, frozenset[str]] = {
    "command": _COMMON | {"command", "args", "shell", "onFailure", "async", "asyncRewake"},
    "http": _COMMON | {"url", "headers", "allowedEnvVars", "onFailure"},
    "mcp_tool": _COMMON | {"server", "tool", "input", "onFailure"},
    "prompt": _COMMON | {"prompt", "model", "continueOnBlock"},
    "agent": _COMMON | {"prompt", "model"},
}
# Read and accepted, not applied in host mode: each gets a warning when set.
NOT_APPLIED = {
    "async": "runs in the foreground here, and its answer counts",
    "asyncRewake": "runs in the foreground here, and its answer counts",
    "args": "the exec form is not applied: `command` runs through the shell",
}

# 2.1.332 never sends an http handler's request on these ("HTTP hooks are not supported for
# SessionStart"), so neither does the inspector.
HTTP_SKIPPED_ON = frozenset({"SessionStart", "Setup"})
HTTP_SKIPPED = "Claude Code skips http handlers on SessionStart and Setup: it never sends this one"

CANNOT_RUN: dict[HandlerKind, str] = {
    "mcp_tool": "Claude Code calls the tool `{target}` of its MCP server with `input` (strings "
    "filled in from the event's JSON) and reads the tool's answer as a hook's JSON output; host "
    "mode has no MCP server to call",
    "prompt": "Claude Code sends the prompt ($ARGUMENTS: the event's JSON) to a model, whose "
    "yes or no (ok, reason) allows or blocks; host mode has no model",
    "agent": "Claude Code starts an agent with tools on the prompt ($ARGUMENTS: the event's "
    "JSON), up to 50 turns, whose yes or no (ok, reason) allows or blocks; host mode has no "
    "model",
}


@dataclass(frozen=True)
class ReadHandler:
    """What one handler entry says, checked."""

    kind: HandlerKind
    target: str  # the command line, or what the handler points at ("http: URL")
    timeout_s: float
    on_failure: str = "continue"
    http: HttpTarget | None = None
    cannot_run: str = ""
    warnings: list[tuple[str, str, str]] = field(default_factory=list)  # (key, code, message)
    once: bool = False  # runs once in a session, then is removed
    condition: str | None = None  # `if`: the permission rule a tool call must match


def read_handler(doc: Document, path: KeyPath, entry: dict[str, object], event: str) -> ReadHandler:
    """The handler at `path`, one of `event`'s; a missing or wrong value is a ConfigError at
    its key."""
    read = _read_kind(doc, path, entry, event)
    fields = _Fields(doc, path, entry)
    return replace(read, once=fields.flag("once"), condition=fields.text("if"))


def _read_kind(doc: Document, path: KeyPath, entry: dict[str, object], event: str) -> ReadHandler:
    """The handler's own fields, by its type."""
    if "type" not in entry:
        raise doc.error((*path, "type"), 'is required ("command", or one of the newer types)')
    kind = want_str(doc, (*path, "type"), entry["type"])
    if kind not in KINDS:
        message = f'unknown handler type "{kind}"{did_you_mean(kind, KINDS)}'
        raise doc.error((*path, "type"), f"{message}; expected {', '.join(KINDS)}")
    reader = _Fields(doc, path, entry)
    default = AGENT_TIMEOUT_S if kind == "agent" else DEFAULT_TIMEOUT_S
    timeout = reader.seconds("timeout", default)
    for key in ("statusMessage", "if"):
        reader.text(key)
    reader.flag("once")
    warnings = [(key, "claude-not-emulated", f"{key}: {why}") for key, why in _set(entry)]
    if kind == "command":
        target = reader.text("command", required=True, nonempty=True) or ""
        reader.flag("async")
        reader.flag("asyncRewake")
        if "args" in entry:
            want_str_list(doc, (*path, "args"), entry["args"])
        shell = reader.choice("shell", SHELLS)
        if shell == "powershell":
            message = "shell: powershell is not run here: the command runs through /bin/sh"
            warnings.append(("shell", "claude-not-emulated", message))
        return ReadHandler(kind, target, timeout, reader.on_failure(), warnings=warnings)
    if kind == "http":
        url = reader.url("url")
        headers = reader.headers("headers")
        allowed = reader.names("allowedEnvVars")
        target = f"http: {url}"
        http = HttpTarget(url, headers, allowed)
        skipped = HTTP_SKIPPED if event in HTTP_SKIPPED_ON else ""
        return ReadHandler(kind, target, timeout, reader.on_failure(), http, skipped, warnings)
    if kind == "mcp_tool":
        server = reader.text("server", required=True) or ""
        tool = reader.text("tool", required=True) or ""
        if "input" in entry:
            want_map(doc, (*path, "input"), entry["input"])
        target = f"{server}/{tool}"
        on_failure = _mcp_on_failure(entry, warnings)
        why = CANNOT_RUN[kind].format(target=tool)
        return ReadHandler(kind, f"mcp_tool: {target}", timeout, on_failure, None, why, warnings)
    prompt = reader.text("prompt", required=True) or ""
    reader.text("model")
    if kind == "prompt":
        reader.flag("continueOnBlock")
    target = f"{kind}: {prompt}"
    return ReadHandler(kind, target, timeout, cannot_run=CANNOT_RUN[kind], warnings=warnings)


def unknown_keys(kind: str, entry: dict[str, object]) -> list[tuple[str, str]]:
    """(key, message) for each key the handler's type does not have."""
    known = KEYS.get(kind, _COMMON)
    return [(key, f"{key}: ignored{did_you_mean(key, known)}") for key in entry if key not in known]


def limit_env_vars(spec: CommandHookSpec, limit: tuple[str, ...] | None) -> CommandHookSpec:
    """An http handler's allowedEnvVars as Claude Code applies them: the intersection with the
    settings' httpHookAllowedEnvVars when some file sets it (an empty list allows none)."""
    if spec.http is None or limit is None:
        return spec
    allowed = tuple(name for name in spec.http.allowed_env_vars if name in limit)
    return replace(spec, http=replace(spec.http, allowed_env_vars=allowed))


def limit_urls(spec: CommandHookSpec, patterns: tuple[str, ...] | None) -> CommandHookSpec:
    """An http handler whose URL matches none of the settings' allowedHttpHookUrls (when some
    file sets it; an empty list allows none): Claude Code never sends it."""
    if spec.http is None or patterns is None or spec.cannot_run:
        return spec
    if any(_url_matches(spec.http.url, pattern) for pattern in patterns):
        return spec
    why = f"its URL matches no pattern of {URL_LIMIT}: Claude Code never sends it"
    return replace(spec, cannot_run=why)


def _url_matches(url: str, pattern: str) -> bool:
    """`*` stands for any run of characters (Claude Code's own matching also reads the URL's
    parts: this is the common case of it)."""
    wildcard = ".*".join(re.escape(part) for part in pattern.split("*"))
    return re.fullmatch(wildcard, url) is not None


def _set(entry: dict[str, object]) -> list[tuple[str, str]]:
    """The keys host mode reads and does not apply, when set to something that matters."""
    return [
        (key, why)
        for key, why in NOT_APPLIED.items()
        if key in entry and entry[key] not in (False, None, "")
    ]


def _mcp_on_failure(entry: dict[str, object], warnings: list[tuple[str, str, str]]) -> str:
    """An mcp_tool handler's onFailure: any value but "continue" reads as "block"."""
    value = entry.get("onFailure", "continue")
    if value not in ON_FAILURE:
        message = f'onFailure: {value!r} reads as "block" (only continue and block are known)'
        warnings.append(("onFailure", "claude-unknown-setting", message))
    return "continue" if value == "continue" else "block"


class _Fields:
    """Typed reads of one handler's keys, each error at its own key."""

    def __init__(self, doc: Document, path: KeyPath, entry: dict[str, object]) -> None:
        self.doc, self.path, self.entry = doc, path, entry

    def at(self, key: str) -> KeyPath:
        return (*self.path, key)

    def text(self, key: str, *, required: bool = False, nonempty: bool = False) -> str | None:
        if key not in self.entry:
            if required:
                raise self.doc.error(self.at(key), "is required")
            return None
        value = want_str(self.doc, self.at(key), self.entry[key])
        if nonempty and not value.strip():
            raise self.doc.error(self.at(key), "must not be empty")
        return value

    def flag(self, key: str) -> bool:
        return key in self.entry and want_bool(self.doc, self.at(key), self.entry[key])

    def seconds(self, key: str, default: float) -> float:
        if key not in self.entry:
            return default
        value = self.entry[key]
        if (
            isinstance(value, bool)
            or not isinstance(value, (int, float))
            or not math.isfinite(value)
            or value <= 0
        ):
            got = describe(self.doc, value)
            raise self.doc.error(self.at(key), f"expected a positive number of seconds, got {got}")
        return value

    def choice(self, key: str, choices: tuple[str, ...]) -> str | None:
        value = self.text(key)
        if value is not None and value not in choices:
            hint = did_you_mean(value, choices)
            expected = " or ".join(f'"{choice}"' for choice in choices)
            raise self.doc.error(self.at(key), f'"{value}"{hint}: expected {expected}')
        return value

    def on_failure(self) -> str:
        return self.choice("onFailure", ON_FAILURE) or "continue"

    def url(self, key: str) -> str:
        url = self.text(key, required=True) or ""
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.netloc:
            message = f"expected an http:// or https:// URL, got {url!r}"
            raise self.doc.error(self.at(key), message)
        return url

    def headers(self, key: str) -> tuple[tuple[str, str], ...]:
        if key not in self.entry:
            return ()
        headers = want_map(self.doc, self.at(key), self.entry[key])
        return tuple(
            (name, want_str(self.doc, (*self.at(key), name), value))
            for name, value in headers.items()
        )

    def names(self, key: str) -> tuple[str, ...]:
        if key not in self.entry:
            return ()
        return want_str_list(self.doc, self.at(key), self.entry[key])
