"""Where hook-inspector's Claude Code emulation differs from the real CLI (2.1.197, `claude -p`),
as measured by the tests here. The tests assert these exactly, so each entry is a known, current
difference: when the emulation is fixed, a test fails until the entry here is removed (the list
stays true).

Known differences no test here measures (a `claude -p` session cannot show them, or the
emulation has nothing to compare):
- Claude Code runs the Bash calls of one message side by side when it reads their commands as
  read-only (`ls`, `echo`, ...); the emulation runs every Bash call on its own (Read, Glob, Grep,
  WebFetch and WebSearch calls it does run side by side).
- PermissionRequest and Notification fire only in the interactive CLI (a permission dialog, and
  a notification about 6 s after it opens); the turn runner plays `claude -p`, where neither
  fires.
- duration_ms in PostToolUse / PostToolUseFailure is the tool's run time; the runner runs no tool
  and sends 0.
"""

from __future__ import annotations

# Kinds of PreToolUse refusal (hooks/record.py's answers) whose text reaches the model in other
# words in the emulation than in the real CLI.
FEEDBACK_DIFFERS: frozenset[str] = frozenset()
