"""The settings keys whose wrong type makes Claude Code skip a whole settings file: its hooks do
not run, its rules do not apply, and `claude -p` says nothing (seen in 2.1.197 and 2.1.332 with
`permissions.allow: "Bash"`, `permissions.defaultMode: "bogus"`, `model: 5`, and a handler's
`timeout: "ten"`, which handlers.py refuses). Unknown keys, a malformed rule (`Bash(`) and a
number among the rules are let through, as there. The reader refuses such a file at the key."""

from __future__ import annotations

from inspector.config.document import Document
from inspector.config.fields import describe
from inspector.hosts.claude.permission_rules import MODES

SKIPPED = "Claude Code skips this whole file (its hooks do not run, and -p says nothing)"
RULE_LISTS = ("allow", "deny", "ask")


def check_settings(doc: Document, data: dict[str, object]) -> None:
    """Raise the ConfigError, at its key, for a value that makes Claude Code skip the file."""
    if "model" in data and not isinstance(data["model"], str):
        raise doc.error(
            ("model",), f"expected a string, got {describe(doc, data['model'])}: {SKIPPED}"
        )
    if "permissions" not in data:
        return
    section = data["permissions"]
    if not isinstance(section, dict):
        message = f"expected an object of rules, got {describe(doc, section)}: {SKIPPED}"
        raise doc.error(("permissions",), message)
    for key in RULE_LISTS:
        if key in section and not isinstance(section[key], list):
            got = describe(doc, section[key])
            message = f"expected a list of rules such as Bash(git *), got {got}: {SKIPPED}"
            raise doc.error(("permissions", key), message)
    mode = section.get("defaultMode")
    if "defaultMode" in section and mode not in MODES:
        message = f"expected one of {', '.join(MODES)}, got {describe(doc, mode)}: {SKIPPED}"
        raise doc.error(("permissions", "defaultMode"), message)
