"""Where hook-inspector's Claude Code emulation differs from each tested release of the real CLI
(`claude -p`), as measured by the tests here: GAPS[version] maps a kind of difference to why it
is one. The tests assert these exactly (the differing keys included), so each entry is a known,
current difference: when the emulation is fixed, a test fails until the entry is removed (the
list stays true). A version added to claude_cli.VERSIONS needs its entry here, empty or not.

Known differences no test here measures (a `claude -p` session cannot show them, or the
emulation has nothing to compare):
- Claude Code runs the Bash calls of one message side by side when it reads their commands as
  read-only (`ls`, `echo`, ...); the emulation runs every Bash call on its own (Read, Glob, Grep,
  WebFetch and WebSearch calls it does run side by side).
- Notification fires only in the interactive CLI (about 6 s after a permission dialog opens).
- Claude Code 2.1.332 adds a system message `Stop hook blocking error from command: "CMD": REASON`
  beside a Stop blocked by JSON; the emulation tells the model only the <system-reminder>.
- duration_ms in PostToolUse / PostToolUseFailure is the tool's run time; the runner runs no tool
  and sends 0.
- The permission layer (test_claude_emulation_permission_layer.py compares rules, modes, trust,
  PermissionRequest) knows the Bash commands of bash_permissions.py's tables; the real CLI knows
  more (it parses the shell, reads flags per command, cd, sandboxing), so a command outside them
  needs approval in the emulation where the CLI may let it run. Not emulated: plan mode's Bash
  calls in 2.1.332 (its auto-mode check runs on Anthropic's server), the safety checks on
  `.claude/`, `.git/` and shell files, `additionalDirectories`, the `auto` mode's classifier, and
  PermissionRequest's `permission_suggestions` beyond a rough likeness.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Gap:
    why: str  # one line: what the real CLI does that the emulation does not
    keys: frozenset[str] = frozenset()  # the payload keys or variables that differ, exactly


# The kinds of difference the tests look for.
DENY_WORDS = "deny-words"  # the words a PreToolUse deny's reason reaches the model in
POST_TOOL_USE_WORDS = "post-tool-use-words"  # where a PostToolUse hook's words reach the model
STOP_WORDS = "stop-words"  # the words a Stop hook's block reaches the model in
PAYLOAD_VALUES = "payload-values"  # stdin values (ids and times aside) that differ
HOOK_ENV = "hook-env"  # variables Claude Code adds to a hook's environment that differ
SCHEMA_CHECK = "schema-check"  # what becomes of an updatedInput the tool's schema refuses
TOOL_INPUT_DEFAULTS = "tool-input-defaults"  # tool_input keys the hooks see that were not sent
LAST_UPDATED_INPUT = "last-updated-input"  # whose update-only updatedInput the tool runs
STOP_BESIDE_DENY = "stop-beside-deny"  # a continue: false from one hook, a deny from another

GAPS: dict[str, dict[str, Gap]] = {
    "2.1.197": {},
    "2.1.332": {
        HOOK_ENV: Gap(
            "hooks also get the CLI's messaging socket and token (for the processes a session "
            "starts to talk to it): the emulation has no such socket to name",
            frozenset({"CLAUDE_CODE_MESSAGING_SOCKET", "CLAUDE_CODE_MESSAGING_TOKEN"}),
        ),
    },
}


def differs(version: str, kind: str) -> bool:
    """Whether the emulation is known to differ from `version` of the CLI in `kind`."""
    return kind in GAPS[version]


def keys(version: str, kind: str) -> frozenset[str]:
    """The payload keys or variables known to differ in `kind` (none when it does not)."""
    gap = GAPS[version].get(kind)
    return gap.keys if gap else frozenset()
