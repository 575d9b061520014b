"""Whether a Bash command runs another command to make a word (`$(...)`, backticks) or a file
(`<(...)`, `>(...)`) before it runs: Claude Code's permission layer asks for such a command,
which it cannot check. Inside single quotes these are plain text, and the command runs."""

from __future__ import annotations

from enum import Enum


class Substitution(Enum):
    NONE = ""
    COMMAND = "command"  # $(...) or `...`, quoted in "..." or not
    PROCESS = "process"  # <(...) or >(...), unquoted


def substitution_in(command: str) -> Substitution:
    quote = ""  # the quote the scan is inside: "", "'" or '"'
    index = 0
    while index < len(command):
        char = command[index]
        if quote == "'":
            quote = "" if char == "'" else quote
        elif char == "\\":
            index += 1  # the escaped character is plain text
        elif char == '"' or (char == "'" and not quote):
            quote = "" if quote == char else char
        elif char == "`" or command.startswith("$(", index):
            return Substitution.COMMAND
        elif not quote and command.startswith(("<(", ">("), index):
            return Substitution.PROCESS
        index += 1
    return Substitution.NONE
