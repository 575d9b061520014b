"""Where hook-inspector's Claude Code emulation differs from the real CLI (2.1.197, `claude -p`),
as measured by test_claude_real.py against the payloads in data/. The tests assert these
exactly, so each entry is a known, current difference: when the emulation is fixed, the test
fails until the entry here is removed (the list stays true)."""

from __future__ import annotations

# Events the real CLI fires in a `-p` session with one tool call per message, which the turn
# runner never fires. (hook-inspector's settings reader also rejects PostToolBatch as unknown.)
NOT_FIRED = frozenset({"SessionStart", "PostToolBatch", "SessionEnd"})

_SINCE_PROMPT = ("prompt_id",)  # every event after the prompt carries the prompt's id
_TOOL = ("prompt_id", "effort")  # tool events and Stop carry the effort level too

# Payload keys the real CLI sends and the emulation does not; every other key agrees, in value
# and (but for KEY_ORDER_DIFFERS) in order.
MISSING_KEYS: dict[str, tuple[str, ...]] = {
    "UserPromptSubmit": _SINCE_PROMPT,
    "PreToolUse": _TOOL,
    "PostToolUse": (*_TOOL, "duration_ms"),
    "PostToolUseFailure": (*_TOOL, "duration_ms"),
    "Stop": (*_TOOL, "background_tasks", "session_crons"),
}

# The real PostToolUse has tool_response before tool_use_id; the emulation puts it last.
KEY_ORDER_DIFFERS = frozenset({"PostToolUse"})

# Environment variables the real CLI sets for a hook and the emulation does not (it sets only
# CLAUDE_PROJECT_DIR; /bin/sh sets PWD in both).
_EVERY_HOOK = {
    "CLAUDECODE",
    "CLAUDE_CODE_ENTRYPOINT",
    "CLAUDE_CODE_SESSION_ID",
    "CLAUDE_CODE_CHILD_SESSION",
    "AI_AGENT",
    "COREPACK_ENABLE_AUTO_PIN",
    "NoDefaultCurrentDirectoryInExePath",
}
MISSING_ENV: dict[str, set[str]] = {
    "UserPromptSubmit": _EVERY_HOOK,
    "PreToolUse": _EVERY_HOOK | {"CLAUDE_EFFORT"},
    "PostToolUse": _EVERY_HOOK | {"CLAUDE_EFFORT"},
    "PostToolUseFailure": _EVERY_HOOK | {"CLAUDE_EFFORT"},
    "Stop": _EVERY_HOOK | {"CLAUDE_EFFORT"},
}

# The real CLI ends a hook's stdin with a newline; the emulation sends the bare JSON.
STDIN_ENDS_WITH_NEWLINE = False

# PreToolUse exit 2: the real CLI tells the model `PreToolUse:Bash hook error: [COMMAND]: STDERR`
# (stderr as written, newline included); the emulation's feedback is the stripped stderr alone.
FEEDBACK_DIFFERS = frozenset({"exit-2"})
