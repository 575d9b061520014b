"""j-cli's findings: where j-cli reads a hook's run, answer or config differently from what its
author most likely meant. What any command host shares (text around the JSON, stdin never read)
is inspector.findings.command; each finding's host_does holds what j-cli does."""

from __future__ import annotations

import json

from inspector.findings.codes import CodeInfo, coded
from inspector.findings.finding import Finding

_JCLI_FAILS = "j-cli counts the run as a failure: it retries (retry:), then applies on_error."

CODES: dict[str, CodeInfo] = {
    # the answer
    "jcli-not-json": CodeInfo("error", "stdout is not JSON", _JCLI_FAILS),
    "jcli-not-object": CodeInfo("error", "stdout is JSON but not an object", _JCLI_FAILS),
    "jcli-duplicate-key": CodeInfo("error", "the same key twice in the answer", _JCLI_FAILS),
    "jcli-wrong-type": CodeInfo("error", "a HookResult field has the wrong type", _JCLI_FAILS),
    "jcli-bad-action": CodeInfo(
        "error", 'action is not exactly "stop" or "skip"', _JCLI_FAILS + " It never blocks."
    ),
    "jcli-bad-role": CodeInfo(
        "error", "a message role is not user, assistant, tool or system", _JCLI_FAILS
    ),
    "jcli-legacy-abort": CodeInfo(
        "warning",
        'the old "abort" field',
        "Since the folder layout (G3, j-agent G4) HookResult has no abort field: it is ignored "
        'without a word. Write "action": "stop".',
    ),
    "jcli-unknown-key": CodeInfo(
        "info", "keys j-cli does not read", "Ignores them without a word (no deny_unknown_fields)."
    ),
    "jcli-exit-2": CodeInfo(
        "info",
        "exit code 2 is not special in j-cli",
        "Any non-zero exit is a failure (retry, then on_error); stdout is not read and stderr "
        'only reaches j\'s log. Blocking is done with stdout {"action": ...}, not exit 2.',
    ),
    "jcli-path-reset": CodeInfo(
        "error",
        "command not found: the login shell reset PATH",
        "j-cli puts the hook folder first on PATH, then runs `bash -lc`; a login shell sources "
        "/etc/profile, which on Debian and Ubuntu sets PATH afresh and drops the hook folder.",
    ),
    "jcli-command-not-found": CodeInfo(
        "error",
        "the hook's command was not found (exit 127)",
        "Runs the command with `bash -lc` in the user's current directory, not the hook folder, "
        "so a path like ./check.sh is looked up there. The shell's exit 127 is a failure like "
        "any other (retry, then on_error) and its reason only reaches j's log.",
    ),
    # the chain and the call sites
    "jcli-filter-never-matches": CodeInfo(
        "warning",
        "filter can never match on this event",
        "Counts the hook as skipped every time the event fires; it never runs.",
    ),
    "jcli-changes-discarded": CodeInfo(
        "warning",
        "stop/skip discards the changes made before it",
        "Returns only action, retry_feedback and system_message: every earlier hook's changes, "
        "and this hook's other fields, are dropped.",
    ),
    "jcli-chain-budget": CodeInfo(
        "warning",
        "the 30 s chain budget ran out",
        "Checks the budget before each hook and each retry: hooks after it do not run, a retry "
        "that would start counts as a failure.",
    ),
    "jcli-stop-ignored": CodeInfo(
        "warning",
        "stop has no effect at pre_tool_execution in the TUI",
        'The TUI only honours "skip" there: the tool still runs. One-shot mode skips it.',
    ),
    "jcli-field-ignored": CodeInfo(
        "warning",
        "this event's call site does not read the field",
        "Merges it into the chain result, then the call site never looks at it.",
    ),
    "jcli-feedback-loop": CodeInfo(
        "warning",
        "the hook asked for another round every time",
        "Keeps looping for as long as the hook asks; the inspector stops after a few rounds.",
    ),
    # the config
    "jcli-unknown-config-key": CodeInfo(
        "warning", "unknown key in the hook config", "Ignores it without a word."
    ),
    "jcli-on-error-abort": CodeInfo(
        "warning",
        "on_error: abort is not read by j-agent (G4)",
        "G2 (hooks.yaml) and G3 accept skip|abort; G4 accepts skip|stop with no alias, so "
        "abort fails the parse and the whole hook is dropped with only a log line.",
    ),
    "jcli-on-error-stop": CodeInfo(
        "info",
        "on_error: stop is read by j-agent (G4) only",
        "G4 accepts skip|stop; G2 (hooks.yaml) and G3 accept skip|abort and fail the parse of "
        "stop (G2: the whole file, G3: the hook). j-cli's help page still says abort.",
    ),
    "jcli-legacy-layout": CodeInfo(
        "info",
        "single-file hooks.yaml (G1/G2 layout)",
        "Read by j-cli G1/G2 (and described by its help page); the folder layout of G3 and "
        "j-agent G4 reads only hooks/<name>/HOOK.yaml. A malformed entry drops the whole file.",
    ),
    "jcli-llm-hook": CodeInfo(
        "warning",
        "LLM hook not run by the inspector",
        "Sends the prompt to the active provider and parses the reply as a HookResult.",
    ),
    "jcli-folder-order": CodeInfo(
        "info",
        "hooks of one folder share this event: their order is the filesystem's",
        "Runs the folders in fs::read_dir order, which is not sorted; the inspector sorts them "
        "by name.",
    ),
    "jcli-runtime": CodeInfo(
        "warning",
        "runtime: not emulated",
        "G4 resolves the runtime (bash -lc by default, sh -lc as the fallback); on Linux and "
        "macOS it refuses the Windows ones.",
    ),
    "jcli-version-only": CodeInfo(
        "info", "read by some j-cli versions only", "Older versions fail the parse of the hook."
    ),
    "jcli-timeout-zero": CodeInfo(
        "warning", "timeout: 0", "Starts the hook and gives up at once: every run fails."
    ),
}


def finding(code: str, message: str) -> Finding:
    return coded(CODES, code, message)


_ACTION_HINTS = {
    "abort": "stop",
    "block": "skip (pre_tool_execution) or stop",
    "deny": "skip (pre_tool_execution) or stop",
    "allow": "nothing: {} lets it through",
    "continue": "nothing: {} lets it through",
    "Stop": "stop",
    "Skip": "skip",
}
_CLAUDE_KEYS = frozenset({"decision", "continue", "hookSpecificOutput", "permissionDecision"})


def bad_action(value: object) -> Finding:
    hint = _ACTION_HINTS.get(value) if isinstance(value, str) else None
    message = f"action {json.dumps(value)} is not one of stop, skip"
    return finding("jcli-bad-action", message + (f"; did you mean {hint}?" if hint else ""))


def unknown_keys(keys: list[str]) -> list[Finding]:
    findings = []
    if "abort" in keys:
        findings.append(finding("jcli-legacy-abort", '"abort" is not a HookResult field any more'))
        keys = [key for key in keys if key != "abort"]
    if keys:
        message = "ignored keys: " + ", ".join(keys)
        if _CLAUDE_KEYS.intersection(keys):
            message += " (Claude Code's answer format; j-cli reads action, not decision)"
        findings.append(finding("jcli-unknown-key", message))
    return findings


def exit_2() -> list[Finding]:
    return [finding("jcli-exit-2", "the hook exited with status 2")]


def path_reset(program: str, hook_dir: str) -> list[Finding]:
    message = (
        f"{program!r} was not found although {hook_dir} was first on PATH; "
        f'call it by its path: "$JCLI_HOOK_DIR/{program}"'
    )
    return [finding("jcli-path-reset", message)]


def command_not_found(program: str, cwd: str, hook_dir: str) -> list[Finding]:
    """The hook's own program is missing where the shell looked, and how to name it instead."""
    if program.startswith("/"):
        looked, script = "does not exist", program.rsplit("/", 1)[1]
    elif "/" in program:
        looked = (
            f"is not in {cwd}: j-cli runs the command in the user's current directory, "
            f"not in the hook folder {hook_dir or ''}".rstrip()
        )
        script = program.removeprefix("./")
    else:
        looked, script = "is on no folder of PATH", program
    if not hook_dir:  # the single-file layout: JCLI_HOOK_DIR is empty
        return [finding("jcli-command-not-found", f"{program!r} {looked}; write its full path")]
    message = f'{program!r} {looked}; for a script beside HOOK.yaml write "$JCLI_HOOK_DIR/{script}"'
    return [finding("jcli-command-not-found", message)]
