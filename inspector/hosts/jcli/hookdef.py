"""One j-cli hook definition (a HOOK.yaml, or an item of a legacy hooks.yaml list), read the way
serde reads it: wrong types and unknown enum values are errors, unknown keys are ignored (we warn).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass

from inspector.config.checks import did_you_mean
from inspector.config.document import Document, KeyPath
from inspector.config.fields import field, want_int, want_map, want_str
from inspector.config.warning import ConfigWarning
from inspector.hosts.jcli.findings import finding

DEF_KEYS = (
    "type",
    "command",
    "prompt",
    "model",
    "timeout",
    "retry",
    "on_error",
    "filter",
    "runtime",
)
FILTER_KEYS = ("tool_name", "tool_matcher", "model_prefix")
TYPES = ("bash", "shell", "llm")  # shell: a j-agent (G4) alias of bash
ON_ERROR = ("skip", "stop", "abort")
RUNTIMES = ("auto", "bash", "sh", "pwsh", "powershell", "git_bash", "cmd")
DEFAULT_TIMEOUT_S = 10
_MATCHER_PATTERN_CHARS = frozenset("*?^$()[]\\+")


@dataclass(frozen=True, slots=True)
class HookDef:
    kind: str  # bash or llm
    command: str
    timeout_s: int
    retry: int
    on_error: str
    tool_name: str | None = None
    tool_matcher: str | None = None
    model_prefix: str | None = None


def read_hookdef(
    doc: Document,
    path: KeyPath,
    raw: object,
    *,
    hook: str,
    allowed: Collection[str] = DEF_KEYS,
    warnings: list[ConfigWarning],
) -> HookDef:
    """The definition at `path`; warnings for what j-cli would take silently go to `warnings`."""
    entry = want_map(doc, path, raw)
    unknown_keys(doc, path, entry, allowed, hook, warnings)
    kind = _choice(doc, path, entry, "type", TYPES, "bash")
    if kind == "shell":
        message = "type: shell is j-agent's (G4) alias of bash; G3 fails the parse of it"
        warnings.append(
            ConfigWarning.at(doc, (*path, "type"), finding("jcli-version-only", message), hook)
        )
    command = field(doc, path, entry, "command", _optional_str, None)
    if kind != "llm" and command is None:
        raise doc.error(path, "command is required for a bash hook")
    if kind == "llm":
        field(doc, path, entry, "prompt", want_str, "")  # type-checked only: it never runs
    timeout_s = _unsigned(doc, path, entry, "timeout", DEFAULT_TIMEOUT_S)
    if timeout_s == 0 and kind != "llm":
        message = "timeout: 0 gives the hook no time at all"
        warnings.append(
            ConfigWarning.at(doc, (*path, "timeout"), finding("jcli-timeout-zero", message), hook)
        )
    on_error = _choice(doc, path, entry, "on_error", ON_ERROR, "skip")
    if on_error != "skip":
        code = "jcli-on-error-abort" if on_error == "abort" else "jcli-on-error-stop"
        message = f"on_error: {on_error}" + (
            "; write stop for j-agent (G4)" if on_error == "abort" else ""
        )
        warnings.append(ConfigWarning.at(doc, (*path, "on_error"), finding(code, message), hook))
    runtime = _choice(doc, path, entry, "runtime", RUNTIMES, "auto")
    if runtime not in ("auto", "bash"):
        message = f"runtime: {runtime}; the inspector runs the hook with bash -lc (sh -lc)"
        warnings.append(
            ConfigWarning.at(doc, (*path, "runtime"), finding("jcli-runtime", message), hook)
        )
    filters = _filter(doc, path, entry, hook, warnings)
    return HookDef(
        kind="llm" if kind == "llm" else "bash",
        command=command or "",
        timeout_s=timeout_s,
        retry=_unsigned(doc, path, entry, "retry", 0),
        on_error=on_error,
        **filters,
    )


def unknown_keys(
    doc: Document,
    path: KeyPath,
    entry: Mapping[str, object],
    allowed: Collection[str],
    hook: str | None,
    warnings: list[ConfigWarning],
) -> None:
    for key in entry:
        if key not in allowed:
            message = f'unknown key "{key}"{did_you_mean(key, allowed)}: j-cli ignores it'
            warnings.append(
                ConfigWarning.at(
                    doc, (*path, key), finding("jcli-unknown-config-key", message), hook
                )
            )


def _filter(
    doc: Document,
    path: KeyPath,
    entry: Mapping[str, object],
    hook: str,
    warnings: list[ConfigWarning],
) -> dict[str, str | None]:
    if "filter" not in entry or entry["filter"] is None:
        return {}
    where: KeyPath = (*path, "filter")
    filters = want_map(doc, where, entry["filter"])
    unknown_keys(doc, where, filters, FILTER_KEYS, hook, warnings)
    values = {key: field(doc, where, filters, key, _optional_str, None) for key in FILTER_KEYS}
    matcher = values["tool_matcher"]
    if matcher is not None and _MATCHER_PATTERN_CHARS.intersection(matcher):
        message = (
            f"tool_matcher {matcher!r} is read as exact names split on |, not as a pattern: "
            "a piece with * or regex characters matches no tool"
        )
        warnings.append(
            ConfigWarning.at(
                doc, (*where, "tool_matcher"), finding("jcli-filter-never-matches", message), hook
            )
        )
    return values


def _optional_str(doc: Document, path: KeyPath, value: object) -> str | None:
    return None if value is None else want_str(doc, path, value)


def _unsigned(
    doc: Document, path: KeyPath, entry: Mapping[str, object], key: str, default: int
) -> int:
    if entry.get(key) is None:
        return default
    value = want_int(doc, (*path, key), entry[key])
    if value < 0:
        raise doc.error((*path, key), f"must be 0 or more, got {value}")
    return value


def _choice(
    doc: Document,
    path: KeyPath,
    entry: Mapping[str, object],
    key: str,
    choices: tuple[str, ...],
    default: str,
) -> str:
    if entry.get(key) is None:
        return default
    value = want_str(doc, (*path, key), entry[key])
    if value not in choices:
        hint = did_you_mean(value, choices)
        message = f'unknown value "{value}"{hint}; j-cli accepts {", ".join(choices)}'
        raise doc.error((*path, key), message)
    return value
