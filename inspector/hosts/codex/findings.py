"""Findings for Codex command hooks, in Codex's words: where Codex reads a hook's run otherwise
than its author most likely meant. The messages in quotes are the ones codex-cli 0.171.0 itself
records for the run (its `hook: <Event> Failed` entries)."""

from __future__ import annotations

from inspector.findings.codes import CodeInfo, coded
from inspector.findings.finding import Finding

_GOES_ON = "Codex counts the run as failed and goes on as if the hook had said nothing."

CODES: dict[str, CodeInfo] = {
    "codex-exit-code": CodeInfo(
        "error",
        "an exit code other than 0 or 2",
        "Only exit 2 blocks. " + _GOES_ON + " What the hook refused happens anyway.",
    ),
    "codex-exit-2-silent": CodeInfo(
        "error",
        "exit 2 with nothing on stderr",
        "Exit 2 blocks only with a reason on stderr; without one "
        + _GOES_ON[0].lower()
        + _GOES_ON[1:],
    ),
    "codex-timeout": CodeInfo(
        "error",
        "the hook ran out of time",
        "Codex kills it (`hook timed out after Ns`) and goes on as if it had said nothing.",
    ),
    "codex-not-started": CodeInfo("error", "the command could not be started", _GOES_ON),
    "codex-invalid-json": CodeInfo(
        "error",
        "stdout looks like JSON but is not an answer Codex reads",
        "A stdout that starts with { or [ and does not parse into the event's answer is a "
        "failed run: " + _GOES_ON,
    ),
    "codex-unsupported": CodeInfo(
        "error",
        "an answer Codex does not support on this event",
        "Codex rejects the whole answer (the run fails) and goes on as if the hook had said "
        "nothing: a deny in the same answer does not block.",
    ),
    "codex-plain-stdout": CodeInfo(
        "info",
        "plain text on stdout",
        "Codex ignores stdout that is not JSON on this event (on SessionStart and "
        "UserPromptSubmit it would be context for the model).",
    ),
    # the config
    "codex-unknown-event": CodeInfo(
        "warning",
        "an event Codex does not know",
        "Codex loads the file and never runs these hooks.",
    ),
    "codex-unknown-setting": CodeInfo(
        "warning", "a setting Codex does not read", "Codex ignores it."
    ),
    "codex-matcher-ignored": CodeInfo(
        "info",
        "a matcher on an event that has none",
        "Codex runs every hook of UserPromptSubmit and Stop whatever the matcher.",
    ),
    "codex-handler-not-run": CodeInfo(
        "warning",
        "a handler type Codex does not run",
        "Codex skips prompt and agent handlers with a warning (`not supported yet`).",
    ),
    "codex-two-forms": CodeInfo(
        "info",
        "hooks in both hooks.json and config.toml of one folder",
        "Codex runs both and warns: prefer a single representation for this layer.",
    ),
    "codex-hooks-off": CodeInfo(
        "warning",
        "hooks switched off in config.toml",
        "Codex runs none of the hooks while [features] hooks is false.",
    ),
    "codex-hook-off": CodeInfo(
        "warning", "a hook switched off", "Codex skips a hook whose state says enabled = false."
    ),
    "codex-untrusted": CodeInfo(
        "info",
        "a hook Codex has not trusted",
        "codex exec silently skips a hook that is not trusted (no trusted_hash equal to its "
        "current hash in config.toml); Codex's TUI asks for a review first.",
    ),
    "codex-async": CodeInfo(
        "info",
        "an async hook",
        "Codex starts it and goes on without waiting: its answer never decides the event.",
    ),
}


def finding(code: str, message: str) -> Finding:
    return coded(CODES, code, message)
