"""The `permissions` sections of Claude Code's settings files, as `claude -p` applies them: the
`allow`, `deny` and `ask` rules (`Tool` or `Tool(content)`), and `defaultMode`.

Which rules are in effect, as seen in the real CLI (2.1.197 and 2.1.332, `claude -p`): the user's
file and `--allowedTools` always; a project's `.claude/settings.json` gives its deny and ask
rules and its defaultMode always (but bypassPermissions, which 2.1.332 takes from the user's
file alone), and its allow rules only once the project is trusted
(`hasTrustDialogAccepted` for the folder in `~/.claude.json`), and `.claude/settings.local.json`
likewise in 2.1.197, while 2.1.332 takes the local file's as they are (the version record's
`local_allow_needs_trust`). A rule left out for that is kept, with why: the journal names it
when it would have allowed a call.

Matching: a rule without content matches every call of its tool by name (`Write` does not match
Edit). `Bash(CMD)` matches that command exactly, `Bash(PREFIX:*)` the prefix alone or followed by
a space, and a `*` elsewhere any text. A file rule's content is a gitignore-like pattern: `//abs`
from the file system's root, `~/p` from the home folder, `/p` from the settings file's project,
anything else from the project; `**` spans folders, `*` one name."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ALLOW, DENY, ASK = "allow", "deny", "ask"
BEHAVIOURS = (DENY, ASK, ALLOW)
USER, PROJECT, LOCAL, CLI = "user", "project", "local", "cli"
# How Claude Code names where a rule came from.
SOURCE_NAMES = {
    USER: "user settings",
    PROJECT: "project settings",
    LOCAL: "local settings",
    CLI: "--allowedTools",
}
MODES = ("default", "acceptEdits", "bypassPermissions", "plan", "dontAsk", "auto")
_RULE = re.compile(r"^([^()]+)\((.*)\)$", re.DOTALL)


@dataclass(frozen=True)
class Rule:
    tool: str
    content: str | None  # None: the whole tool
    behaviour: str
    level: str  # USER, PROJECT, LOCAL or CLI
    file: str = ""  # the settings file it is in ("" for the command line)

    @property
    def text(self) -> str:
        return self.tool if self.content is None else f"{self.tool}({self.content})"

    def describe(self) -> str:
        """`rule Bash(rm:*) (deny, project settings)`: who decided, for the journal and UI."""
        return f"rule {self.text} ({self.behaviour}, {SOURCE_NAMES[self.level]})"


def parse_rule(text: str, behaviour: str, level: str, file: str = "") -> Rule:
    found = _RULE.match(text.strip())
    if found is None:
        return Rule(text.strip(), None, behaviour, level, file)
    content = found.group(2)
    return Rule(found.group(1), None if content in ("", "*") else content, behaviour, level, file)


@dataclass(frozen=True)
class PermissionSettings:
    """The rules in effect and the settings' defaultMode (None: none set)."""

    rules: tuple[Rule, ...] = ()
    default_mode: str | None = None
    left_out: tuple[tuple[Rule, str], ...] = ()  # rules not in effect, and why

    def of(self, behaviour: str, tool: str) -> list[Rule]:
        return [rule for rule in self.rules if rule.behaviour == behaviour and rule.tool == tool]

    def with_cli_allowed(self, tools: Iterable[str]) -> PermissionSettings:
        """These settings with `--allowedTools` rules added."""
        added = tuple(parse_rule(text, ALLOW, CLI) for text in tools)
        return PermissionSettings((*self.rules, *added), self.default_mode, self.left_out)


@dataclass
class _Collected:
    rules: list[Rule] = field(default_factory=list)
    left_out: list[tuple[Rule, str]] = field(default_factory=list)
    default_mode: str | None = None


def read_permissions(
    files: Iterable[Path],
    project_dir: Path,
    *,
    local_allow_needs_trust: bool,
    project_bypass_ignored: bool = False,
    home: Path | None = None,
) -> PermissionSettings:
    """The permissions of the settings `files` (the user's first, as read_claude reads them)
    for a `claude -p` run in `project_dir`. A file or section that is not what Claude Code reads
    is skipped here: the settings reader reports it."""
    home = home or Path.home()
    user_file = home / ".claude" / "settings.json"
    trusted = is_trusted(project_dir, home)
    collected = _Collected()
    for file in files:
        level = _level(file, user_file)
        needs_trust = level == PROJECT or (level == LOCAL and local_allow_needs_trust)
        untrusted = needs_trust and not trusted
        section = _permissions_of(file)
        for behaviour in BEHAVIOURS:
            for text in _strings(section.get(behaviour)):
                rule = parse_rule(text, behaviour, level, str(file))
                if untrusted and behaviour == ALLOW:
                    why = f"{SOURCE_NAMES[level]} of a project not trusted (~/.claude.json)"
                    collected.left_out.append((rule, why))
                else:
                    collected.rules.append(rule)
        mode = section.get("defaultMode")
        ignored = mode == "bypassPermissions" and level != USER and project_bypass_ignored
        if isinstance(mode, str) and mode in MODES and not ignored:
            collected.default_mode = mode
    return PermissionSettings(
        tuple(collected.rules), collected.default_mode, tuple(collected.left_out)
    )


def is_trusted(project_dir: Path, home: Path) -> bool:
    """Whether `~/.claude.json` marks the project folder (or a folder above it) trusted."""
    try:
        state = json.loads((home / ".claude.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    projects = state.get("projects") if isinstance(state, dict) else None
    if not isinstance(projects, dict):
        return False
    folder = Path(os.path.abspath(project_dir))
    for candidate in (folder, *folder.parents):
        entry = projects.get(str(candidate))
        if isinstance(entry, dict) and entry.get("hasTrustDialogAccepted") is True:
            return True
    return False


def _level(file: Path, user_file: Path) -> str:
    if os.path.abspath(file) == os.path.abspath(user_file):
        return USER
    return LOCAL if file.name == "settings.local.json" else PROJECT


def _permissions_of(file: Path) -> dict[str, Any]:
    try:
        data = json.loads(file.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    section = data.get("permissions") if isinstance(data, dict) else None
    return section if isinstance(section, dict) else {}


def _strings(value: object) -> list[str]:
    return [item for item in value if isinstance(item, str)] if isinstance(value, list) else []


# ---- matching ------------------------------------------------------------------------------


def command_matches(rule: Rule, command: str) -> bool:
    """Whether a Bash rule's content matches `command` (whitespace at the ends aside)."""
    assert rule.content is not None
    command, content = command.strip(), rule.content.strip()
    if content.endswith(":*"):
        prefix = content[:-2]
        return command == prefix or command.startswith(prefix + " ")
    if "*" in content:
        pattern = ".*".join(re.escape(part) for part in content.split("*"))
        return re.fullmatch(pattern, command, re.DOTALL) is not None
    return command == content


def path_matches(rule: Rule, path: str, project_dir: Path, home: Path) -> bool:
    """Whether a file rule's content matches the absolute `path`."""
    assert rule.content is not None
    content = rule.content
    if content.startswith("//"):
        pattern = content[1:]
    elif content.startswith("~/"):
        pattern = str(home) + content[1:]
    elif content.startswith("/"):
        pattern = str(project_dir) + content
    else:
        pattern = str(project_dir / content.removeprefix("./"))
    return _glob(pattern).fullmatch(os.path.normpath(path)) is not None


def _glob(pattern: str) -> re.Pattern[str]:
    """A gitignore-like pattern: `**` any folders, `*` within a name; a folder matches what
    is under it."""
    parts = re.split(r"(\*\*/?|\*|\?)", os.path.normpath(pattern))
    regex = ""
    for part in parts:
        if part in ("**", "**/"):
            regex += ".*"
        elif part == "*":
            regex += "[^/]*"
        elif part == "?":
            regex += "[^/]"
        else:
            regex += re.escape(part)
    return re.compile(regex + "(/.*)?", re.DOTALL)
