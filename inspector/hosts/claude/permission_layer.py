"""Claude Code's permission layer under `claude -p`: what decides a tool call no PreToolUse hook
decided, as the real CLI does (measured with 2.1.197 and 2.1.332; their differences are in the
version record).

In the order Claude Code takes them:
1. A tool a deny rule names whole (`Write`) is not offered at all: the model reads
   `No such tool available` and no hook runs. A Read, Edit or Write whose path a deny rule names
   (`Edit(./secrets/**)`) is refused by the tool's input check, before the hooks too.
2. After PreToolUse: a hook's deny ends it (the hooks' words). A hook's allow runs the call,
   unless a deny rule matches it. Otherwise the layer decides:
   a Bash deny rule (on the command or one of its parts) refuses; an ask rule asks; an allow rule
   (the whole command, or every part) allows; bypassPermissions allows; then the tool's own
   check: Bash by bash_permissions.py, Read inside the project allowed, an edit inside the
   project allowed in acceptEdits mode (plan mode: `Cannot write ... while in plan mode`).
3. `-p` has nobody to ask: in dontAsk mode an ask is a deny in its own words; else 2.1.332 first
   fires PermissionRequest, whose hooks may allow or deny, and an ask nobody answered is refused
   with the layer's message.
Each decision names who took it (`PermissionCheck.by`): a rule and its file, the mode, or the
tool's own check."""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from inspector.hosts.claude.bash_permissions import judge, subcommands
from inspector.hosts.claude.permission_rules import (
    ALLOW,
    ASK,
    DENY,
    PermissionSettings,
    Rule,
    command_matches,
    path_matches,
    read_permissions,
)
from inspector.hosts.claude.versions import ClaudeVersion

JSONObject = dict[str, Any]

STAGE = "permission"  # the journal's Decision stage for what the layer decided
EDIT_TOOLS = {"Edit": "file_path", "Write": "file_path", "NotebookEdit": "notebook_path"}
READ_TOOLS = {"Read": "file_path", "Glob": "path", "Grep": "path"}
DONT_ASK_NOTE = (
    "IMPORTANT: You *may* attempt to accomplish this action using other tools that might "
    "naturally be used to accomplish this goal, e.g. using head instead of cat. But you *should "
    "not* attempt to work around this denial in malicious ways, e.g. do not use your ability to "
    "run tests to execute non-test actions. You should only try to work around this restriction "
    "in reasonable ways that do not attempt to bypass the intent behind this denial. If you "
    "believe this capability is essential to complete the user's request, STOP and explain to "
    "the user what you were trying to do and why you need this permission. Let the user decide "
    "how to proceed."
)  # 2.1.197 and 2.1.332 alike
DENIED_PATH = "File is in a directory that is denied by your permission settings."
NO_RULE = "no rule allows it"


@dataclass(frozen=True)
class PermissionCheck:
    behaviour: str  # allow, deny or ask
    by: str  # who decided: a rule, a mode, the tool's own check
    message: str = ""  # what the model reads when the call is refused


def tool_error(text: str) -> str:
    return f"<tool_use_error>{text}</tool_use_error>"


def suggestions(tool: str, tool_input: JSONObject) -> list[JSONObject]:
    """A PermissionRequest's `permission_suggestions`, roughly as Claude Code offers them: for
    an edit, acceptEdits for the session; else an allow rule for this call (the real CLI's are
    finer: folders to add, per-part rules)."""
    if tool in EDIT_TOOLS:
        return [{"type": "setMode", "mode": "acceptEdits", "destination": "session"}]
    content = str(tool_input.get("command", "")) if tool == "Bash" else None
    rule: JSONObject = {"toolName": tool} | ({"ruleContent": content} if content else {})
    return [
        {"type": "addRules", "rules": [rule], "behavior": "allow", "destination": "localSettings"}
    ]


class PermissionLayer:
    """The permission layer of a `claude -p` run in `project_dir` with the settings `files`
    (the user's first), `--permission-mode` `mode` (else the settings' defaultMode) and
    `--allowedTools` `cli_allowed`."""

    def __init__(
        self,
        files: Iterable[Path],
        project_dir: str | Path,
        *,
        mode: str | None = None,
        cli_allowed: Iterable[str] = (),
        home: Path | None = None,
    ) -> None:
        self.files = tuple(files)
        self.project = Path(os.path.abspath(project_dir))
        self.home = home or Path.home()
        self.cli_allowed = tuple(cli_allowed)
        self._mode = mode
        self._settings: dict[str, PermissionSettings] = {}  # by release

    def for_run(self, mode: str | None, allowed: Iterable[str]) -> PermissionLayer:
        """This layer under `--permission-mode` `mode` (one of MODES; None: as it is) with the
        `--allowedTools` rules `allowed` added."""
        return PermissionLayer(
            self.files,
            self.project,
            mode=mode or self._mode,
            cli_allowed=(*self.cli_allowed, *allowed),
            home=self.home,
        )

    def settings(self, version: ClaudeVersion) -> PermissionSettings:
        """The rules in effect for `version` (read once per release: trust rules differ)."""
        if version.name not in self._settings:
            read = read_permissions(
                self.files,
                self.project,
                local_allow_needs_trust=version.local_allow_needs_trust,
                project_bypass_ignored=version.project_bypass_ignored,
                home=self.home,
            )
            self._settings[version.name] = read.with_cli_allowed(self.cli_allowed)
        return self._settings[version.name]

    def mode(self, version: ClaudeVersion) -> str:
        return self._mode or self.settings(version).default_mode or "default"

    # ---- before the hooks ------------------------------------------------------------------

    def before_hooks(
        self, tool: str, tool_input: JSONObject, version: ClaudeVersion
    ) -> PermissionCheck | None:
        """A refusal that comes before PreToolUse (the tool taken away, or a denied path)."""
        settings = self.settings(version)
        whole = _whole(settings.of(DENY, tool))
        if whole is not None:
            note = version.tool_denied_note.format(tool=tool)
            told = tool_error(f"Error: No such tool available: {tool}. {note}")
            return PermissionCheck(DENY, whole.describe(), told)
        path = self._path(tool, tool_input)
        if path is not None:
            rules = settings.of(DENY, tool) + (
                settings.of(DENY, "Edit") if tool in EDIT_TOOLS else []
            )
            if rule := self._path_rule(rules, path):
                return PermissionCheck(DENY, rule.describe(), tool_error(DENIED_PATH))
        return None

    # ---- after the hooks -------------------------------------------------------------------

    def check(self, tool: str, tool_input: JSONObject, version: ClaudeVersion) -> PermissionCheck:
        """What the layer decides for a call no hook decided (ask: what it would ask). When no
        rule allows it but one left out would have, who decided says which and why."""
        check = self._check(tool, tool_input, version)
        if check.by != NO_RULE:
            return check
        for rule, why in self.settings(version).left_out:
            if call_matches(rule, tool, tool_input, self.project, self.home):
                return replace(check, by=f"{NO_RULE} ({rule.describe()} is left out: {why})")
        return check

    def _check(self, tool: str, tool_input: JSONObject, version: ClaudeVersion) -> PermissionCheck:
        settings, mode = self.settings(version), self.mode(version)
        if (rule := _whole(settings.of(ASK, tool))) is not None:
            return PermissionCheck(ASK, rule.describe(), _asks_to_use(tool))
        if tool == "Bash":
            return self._bash(str(tool_input.get("command", "")), settings, mode, version)
        path = self._path(tool, tool_input)
        if tool in EDIT_TOOLS and path is not None:
            return self._edit(tool, path, settings, mode)
        if tool in READ_TOOLS:
            return self._read(tool, path or str(self.project), settings, mode)
        if mode == "bypassPermissions":
            return PermissionCheck(ALLOW, "mode bypassPermissions")
        if (rule := _whole(settings.of(ALLOW, tool))) is not None:
            return PermissionCheck(ALLOW, rule.describe())
        return PermissionCheck(ASK, NO_RULE, _asks_to_use(tool))

    def unasked(self, check: PermissionCheck, tool: str, version: ClaudeVersion) -> PermissionCheck:
        """An ask under -p with nobody to answer it: refused, in dontAsk mode in its words."""
        if check.behaviour != ASK:
            return check
        if self.mode(version) == "dontAsk":
            told = (
                f"Permission to use {tool} has been denied because Claude Code is running in "
                f"don't ask mode. {DONT_ASK_NOTE}"
            )
            return PermissionCheck(DENY, "mode dontAsk", told)
        return PermissionCheck(DENY, f"{check.by}; -p asks nobody", check.message)

    def _bash(
        self, command: str, settings: PermissionSettings, mode: str, version: ClaudeVersion
    ) -> PermissionCheck:
        parts = [command, *subcommands(command)]
        for behaviour in (DENY, ASK):
            for rule in settings.of(behaviour, "Bash"):
                if rule.content is not None and any(command_matches(rule, p) for p in parts):
                    if behaviour == DENY:
                        told = f"Permission to use Bash with command {command} has been denied."
                        return PermissionCheck(DENY, rule.describe(), told)
                    return PermissionCheck(ASK, rule.describe(), _asks_to_use("Bash"))
        allows = settings.of(ALLOW, "Bash")
        if (whole := _whole(allows)) is not None:
            return PermissionCheck(ALLOW, whole.describe())
        by_rule = _command_rule(allows, command)
        if by_rule is None:
            each = [_command_rule(allows, part) for part in subcommands(command)]
            by_rule = each[0] if each and all(each) else None
        if by_rule is not None:
            return PermissionCheck(ALLOW, by_rule.describe())
        if mode == "bypassPermissions":
            return PermissionCheck(ALLOW, "mode bypassPermissions")
        verdict = judge(command, self.project, accept_edits=mode == "acceptEdits", version=version)
        if verdict.runs:
            by = "mode acceptEdits" if verdict.why == "acceptEdits mode" else verdict.why
            return PermissionCheck(ALLOW, by)
        return PermissionCheck(ASK, NO_RULE, verdict.message)

    def _edit(
        self, tool: str, path: str, settings: PermissionSettings, mode: str
    ) -> PermissionCheck:
        asks = settings.of(ASK, tool) + settings.of(ASK, "Edit")
        if rule := self._path_rule(asks, path):
            return PermissionCheck(ASK, rule.describe(), _asks_to_write(path))
        if mode == "bypassPermissions":
            return PermissionCheck(ALLOW, "mode bypassPermissions")
        if mode == "acceptEdits" and self._inside(path):
            return PermissionCheck(ALLOW, "mode acceptEdits")
        if mode == "plan":
            return PermissionCheck(ASK, "mode plan", f"Cannot write to {path} while in plan mode.")
        if (rule := _whole(settings.of(ALLOW, tool))) is not None:
            return PermissionCheck(ALLOW, rule.describe())
        allows = settings.of(ALLOW, tool) + settings.of(ALLOW, "Edit")
        if rule := self._path_rule(allows, path):
            return PermissionCheck(ALLOW, rule.describe())
        return PermissionCheck(ASK, NO_RULE, _asks_to_write(path))

    def _read(
        self, tool: str, path: str, settings: PermissionSettings, mode: str
    ) -> PermissionCheck:
        if rule := self._path_rule(settings.of(ASK, tool), path):
            return PermissionCheck(ASK, rule.describe(), _asks_to_read(path))
        if self._inside(path):
            return PermissionCheck(ALLOW, "the project's folder (reads there need no rule)")
        if mode == "bypassPermissions":
            return PermissionCheck(ALLOW, "mode bypassPermissions")
        if (rule := _whole(settings.of(ALLOW, tool))) is not None:
            return PermissionCheck(ALLOW, rule.describe())
        if rule := self._path_rule(settings.of(ALLOW, tool), path):
            return PermissionCheck(ALLOW, rule.describe())
        return PermissionCheck(ASK, NO_RULE, _asks_to_read(path))

    def _path(self, tool: str, tool_input: JSONObject) -> str | None:
        key = EDIT_TOOLS.get(tool) or READ_TOOLS.get(tool)
        value = tool_input.get(key) if key else None
        if not isinstance(value, str) or not value:
            return None
        return os.path.normpath(os.path.join(self.project, os.path.expanduser(value)))

    def _path_rule(self, rules: list[Rule], path: str) -> Rule | None:
        return next(
            (
                rule
                for rule in rules
                if rule.content is not None and path_matches(rule, path, self.project, self.home)
            ),
            None,
        )

    def _inside(self, path: str) -> bool:
        root = str(self.project)
        return path == root or path.startswith(root + os.sep)


def call_matches(
    rule: Rule, tool: str, tool_input: JSONObject, project: Path, home: Path | None = None
) -> bool:
    """Whether a call of `tool` with `tool_input` matches `rule` as Claude Code matches its
    permission rules (and a handler's `if`): the tool by name, a Bash command or one of its
    parts, a file tool's path."""
    if rule.tool != tool:
        return False
    if rule.content is None:
        return True
    if tool == "Bash":
        command = str(tool_input.get("command", ""))
        return any(command_matches(rule, part) for part in (command, *subcommands(command)))
    key = EDIT_TOOLS.get(tool) or READ_TOOLS.get(tool)
    value = tool_input.get(key) if key else None
    if not isinstance(value, str) or not value:
        return False
    path = os.path.normpath(os.path.join(project, os.path.expanduser(value)))
    return path_matches(rule, path, project, home or Path.home())


def _whole(rules: list[Rule]) -> Rule | None:
    return next((rule for rule in rules if rule.content is None), None)


def _command_rule(rules: list[Rule], command: str) -> Rule | None:
    return next(
        (rule for rule in rules if rule.content is not None and command_matches(rule, command)),
        None,
    )


def _asks_to_use(tool: str) -> str:
    return f"Claude requested permissions to use {tool}, but you haven't granted it yet."


def _asks_to_write(path: str) -> str:
    return f"Claude requested permissions to write to {path}, but you haven't granted it yet."


def _asks_to_read(path: str) -> str:
    return f"Claude requested permissions to read from {path}, but you haven't granted it yet."
