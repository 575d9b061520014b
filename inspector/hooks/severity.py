"""How much an approval prompt should worry the person answering it.

A small heuristic, not a security boundary:

- shell tools (a name that is or holds exec, shell, bash, ...: OpenClaw's exec, Claude Code's
  Bash, Codex's exec_command, Gemini CLI's run_shell_command): `critical` when the command could
  wreck the machine (rm -rf of / or ~, mkfs, dd onto a device, a fork bomb, chmod 777 /, a
  download piped into a shell), `high` for other destructive or privileged commands (sudo,
  rm -r/-f, git push --force, git reset --hard, kill, shutdown, DROP TABLE, ...), `medium`
  otherwise: a shell runs anything;
- tools whose name says they delete: `high`;
- tools whose name says they write, send or start something: `medium`, `high` when an argument
  points at a sensitive path (/etc, ~/.ssh, .env, ...);
- tools whose name says they only read: `low`, `medium` when an argument points at a sensitive path;
- any other tool: `medium`, since nothing is known about it.
"""

from __future__ import annotations

import json
import re
from typing import Any, Literal

Severity = Literal["low", "medium", "high", "critical"]

SHELL_WORDS = frozenset({"exec", "shell", "bash", "sh", "zsh", "terminal"})
SHELL_TOOLS = frozenset({"run_command"})
DELETE_WORDS = frozenset({"delete", "remove", "rm", "unlink", "drop", "destroy", "kill"})
WRITE_WORDS = frozenset(
    {"write", "edit", "append", "create", "update", "patch", "move", "rename", "copy", "save",
     "send", "post", "message", "spawn", "install", "cron"}
)  # fmt: skip
READ_WORDS = frozenset(
    {"read", "list", "get", "search", "fetch", "find", "glob", "grep", "view", "show", "ls",
     "stat"}
)  # fmt: skip

_END = r"(?=$|[\s;&|)])"
CRITICAL_COMMANDS = tuple(
    re.compile(pattern)
    for pattern in (
        rf"\brm\s+(?:-{{1,2}}[\w-]+\s+)*(?:/|/\*|~/?|\$HOME/?){_END}",
        r"\bmkfs(?:\.\w+)?\b",
        r"\bdd\b[^;&|]*\bof=/dev/",
        r">\s*/dev/(?:sd|nvme|hd|disk)",
        r":\(\)\s*\{\s*:\s*\|\s*:\s*&\s*\}\s*;\s*:",
        rf"\bchmod\s+(?:-\w+\s+)*0?777\s+/{_END}",
        r"\b(?:curl|wget)\b[^|;]*\|\s*(?:sudo\s+)?(?:ba|z|da)?sh\b",
    )
)
HIGH_COMMANDS = tuple(
    re.compile(pattern, re.IGNORECASE)
    for pattern in (
        r"\bsudo\b",
        r"\brm\s+(?:-\w*[rf]\w*\b|--recursive|--force)",
        r"\bgit\s+push\b.*(?:--force|\s-f\b)",
        r"\bgit\s+(?:reset\s+--hard|clean\s+-\w*f)",
        r"\b(?:shutdown|reboot|halt|poweroff)\b",
        r"\bkill(?:all)?\b",
        r"\b(?:chmod|chown)\s+-\w*R",
        r"\bdrop\s+(?:table|database)\b",
        r"\btruncate\b",
        r"\bdd\b",
    )
)
SENSITIVE_PATH = re.compile(
    r"(?:^|[\s\"'=])(?:/etc/|/boot/|/dev/|/sys/|~/\.ssh|~/\.aws|~/\.gnupg)|\.env\b|id_rsa"
)


def severity_of(tool: str, arguments: Any) -> Severity:
    words = set(re.split(r"[^a-z0-9]+", tool.lower())) - {""}
    if tool.lower() in SHELL_TOOLS or words & SHELL_WORDS:
        return _shell_severity(_command_text(arguments))
    sensitive = bool(SENSITIVE_PATH.search(_strings(arguments)))
    if words & DELETE_WORDS:
        return "high"
    if words & WRITE_WORDS:
        return "high" if sensitive else "medium"
    if words & READ_WORDS:
        return "medium" if sensitive else "low"
    return "medium"


def _shell_severity(command: str) -> Severity:
    if any(pattern.search(command) for pattern in CRITICAL_COMMANDS):
        return "critical"
    if any(pattern.search(command) for pattern in HIGH_COMMANDS):
        return "high"
    return "medium"


def _command_text(arguments: Any) -> str:
    if not isinstance(arguments, dict):
        return _strings(arguments)
    command = arguments.get("command", arguments.get("cmd"))
    if isinstance(command, list):
        return " ".join(map(str, command))
    return str(command) if command is not None else _strings(arguments)


def _strings(arguments: Any) -> str:
    """Every string in the arguments, so a path anywhere in them is seen."""
    return json.dumps(arguments, ensure_ascii=False, default=str)
