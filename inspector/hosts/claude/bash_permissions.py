"""What Claude Code's permission layer makes of a Bash command no rule decided, as far as the
emulation follows it: the command is cut into its simple commands (at `&&`, `||`, `;`, `|`, a
newline), and each must be one Claude Code lets run by itself. A command substitution (`$(...)`,
backticks) or process substitution (`<(...)`, `>(...)`) outside single quotes needs approval
(bash_substitution.py), in the release's words. A command that only reads (`ls`,
`cat`, `git status`, ...) runs when its paths are inside the project; one that writes files
(`touch`, `rm`, `mkdir`, `mv`, `cp`, an output redirection, `git diff --output`, `date -s`)
runs in acceptEdits mode when its paths are inside the project (the last two need approval
always); anything else needs approval. The words are the real CLI's (2.1.197 and 2.1.332, the
command tables as read from their bundles); commands outside these tables, which the real CLI
may know more about, need approval here.
"""

from __future__ import annotations

import os
import shlex
from dataclasses import dataclass
from pathlib import Path

from inspector.hosts.claude.bash_substitution import Substitution, substitution_in
from inspector.hosts.claude.versions import ClaudeVersion

# What a command does to the paths it names, in Claude Code's words ("may only ... the allowed
# working directories"), for the commands it checks paths of.
READERS = {
    "cd": "change directories to",
    "ls": "list files in",
    "find": "search files in",
    "cat": "concatenate files from",
    "head": "read the beginning of files from",
    "tail": "read the end of files from",
    "sort": "sort contents of files from",
    "uniq": "filter duplicate lines from files in",
    "wc": "count lines/words/bytes in files from",
    "cut": "extract columns from files in",
    "diff": "compare files from",
    "file": "examine file types in",
    "stat": "read file stats from",
    "grep": "search for patterns in files from",
    "rg": "search for patterns in files from",
    "nl": "number lines in files from",
}
WRITERS = {
    "touch": "create or modify files in",
    "mkdir": "create directories in",
    "rm": "remove files from",
    "rmdir": "remove directories from",
    "mv": "move files to/from",
    "cp": "copy files to/from",
}
REDIRECT_VERB = "write to files in"
PATHLESS = frozenset({"echo", "pwd", "true", "false", "date", "whoami", "which", "printf"})
GIT_READS = frozenset({"status", "log", "diff", "show", "branch", "rev-parse", "ls-files", "blame"})
GIT_WRITE_OPTION = "--output"  # `git diff --output=FILE` (and log, show) writes FILE
DATE_SETS = ("-s", "--set")  # `date -s TIME` sets the clock, as does `date MMDDhhmm`
DATE_VALUE_OPTIONS = frozenset({"-d", "--date", "-r", "--reference", "-f", "--file"})
FIND_ACTIONS = frozenset({"-exec", "-execdir", "-delete", "-ok", "-okdir", "-fprint"})
REQUIRES_APPROVAL = "This command requires approval"
_SEPARATORS = frozenset({"&&", "||", ";", "|", "&", ";;", "|&", "\n"})
_PUNCTUATION = ";&|<>\n"
_REDIRECTS = frozenset({">", ">>", ">|", "&>", "&>>"})


@dataclass(frozen=True)
class BashVerdict:
    runs: bool  # Claude Code lets it run without asking
    message: str = ""  # why it asks, in Claude Code's words
    why: str = ""  # what let it run (for who decided)


def subcommands(command: str) -> list[str]:
    """The simple commands of `command`, as text, at its separators (quotes respected)."""
    return [shlex.join(part) for part in _parts(command)]


def judge(
    command: str, project: Path, *, accept_edits: bool, version: ClaudeVersion
) -> BashVerdict:
    """Whether `command` runs without approval under no rule: every simple command must."""
    substitution = substitution_in(command)
    if substitution is Substitution.COMMAND:
        return BashVerdict(False, version.command_substitution_words)
    if substitution is Substitution.PROCESS:
        return BashVerdict(False, version.process_substitution_words)
    reasons = []
    for part in _parts(command):
        verdict = _judge_one(part, project, accept_edits, version)
        if not verdict.runs:
            return verdict
        reasons.append(verdict.why)
    why = "acceptEdits mode" if "acceptEdits mode" in reasons else "a read-only command"
    return BashVerdict(True, why=why)


def _judge_one(
    words: list[str], project: Path, accept_edits: bool, version: ClaudeVersion
) -> BashVerdict:
    words, targets = _redirections(words)
    for target in targets:
        path = _absolute(target, project)
        if path == os.devnull:
            continue
        if not (accept_edits and _inside(path, project)):
            return BashVerdict(False, _write_words("Output redirection to", path, project, version))
    if not words:
        return BashVerdict(True, why="a read-only command")
    name, args = words[0], [word for word in words[1:] if not word.startswith("-")]
    if name in WRITERS:
        if not args:
            return BashVerdict(False, REQUIRES_APPROVAL)
        path = _absolute(args[0], project)
        outside = [arg for arg in args if not _inside(_absolute(arg, project), project)]
        if accept_edits and not outside:
            return BashVerdict(True, why="acceptEdits mode")
        where = _absolute(outside[0], project) if outside else path
        return BashVerdict(False, _write_words(f"{name} in", where, project, version, name))
    if name == "sed" and any(word.startswith("-i") for word in words[1:]):
        if accept_edits and all(_inside(_absolute(arg, project), project) for arg in args[1:]):
            return BashVerdict(True, why="acceptEdits mode")
        return BashVerdict(False, REQUIRES_APPROVAL)
    if name == "date" and _date_sets(words[1:]):
        return BashVerdict(False, REQUIRES_APPROVAL)
    if name in PATHLESS:
        return BashVerdict(True, why="a read-only command")
    if name == "git":
        writes = any(word.startswith(GIT_WRITE_OPTION) for word in words[1:])
        reads = bool(args) and args[0] in GIT_READS and not writes
        return BashVerdict(reads, "" if reads else REQUIRES_APPROVAL, "a read-only command")
    if name == "find" and FIND_ACTIONS & set(words):
        return BashVerdict(False, REQUIRES_APPROVAL)
    if name in READERS or name == "sed":
        for arg in args:
            path = _absolute(arg, project)
            if not _inside(path, project):
                verb = READERS.get(name, "edit files in")
                return BashVerdict(False, _blocked(f"{name} in", path, verb, project))
        return BashVerdict(True, why="a read-only command")
    return BashVerdict(False, REQUIRES_APPROVAL)


def _write_words(
    what: str, path: str, project: Path, version: ClaudeVersion, name: str = ""
) -> str:
    """Why a command that writes `path` needs approval, in `version`'s words."""
    if not version.bash_writes_need_approval:
        return _blocked(what, path, WRITERS.get(name, REDIRECT_VERB), project)
    head = f"{what} '{path}' needs approval. The path is "
    if _inside(path, project):
        return (
            f"{head}inside the working directories for this session ('{project}'), and "
            "Claude Code asks before a shell command creates, changes or removes files there."
        )
    return (
        f"{head}outside the working directories for this session ('{project}'). Allowing runs "
        "the command as written."
    )


def _blocked(what: str, path: str, verb: str, project: Path) -> str:
    return (
        f"{what} '{path}' was blocked. For security, Claude Code may only {verb} the allowed "
        f"working directories for this session: '{project}'."
    )


def _parts(command: str) -> list[list[str]]:
    parts: list[list[str]] = [[]]
    for token in _tokens(command):
        if token in _SEPARATORS:
            parts.append([])
        else:
            parts[-1].append(token)
    return [part for part in parts if part]


def _date_sets(args: list[str]) -> bool:
    """Whether `date`'s arguments set the clock: -s/--set, or an operand that is not +FORMAT."""
    after_value_option = False
    for arg in args:
        if after_value_option:
            after_value_option = False
        elif arg.startswith(DATE_SETS):
            return True
        elif arg in DATE_VALUE_OPTIONS:
            after_value_option = True
        elif not arg.startswith(("-", "+")):
            return True
    return False


def _tokens(command: str) -> list[str]:
    lexer = shlex.shlex(command, posix=True, punctuation_chars=_PUNCTUATION)
    lexer.whitespace_split = True
    lexer.whitespace = " \t\r"
    try:
        tokens = list(lexer)
    except ValueError:  # an unclosed quote: one word, which no table knows
        return [command]
    return [piece for token in tokens for piece in _newline_apart(token)]


def _newline_apart(token: str) -> list[str]:
    """The lexer runs punctuation together (`;` then a newline, two newlines): a run holding a
    newline is what comes before it, then a newline."""
    if "\n" not in token or not set(token) <= set(_PUNCTUATION):
        return [token]
    rest = token.replace("\n", "")
    return [rest, "\n"] if rest else ["\n"]


def _redirections(words: list[str]) -> tuple[list[str], list[str]]:
    """The words without their output redirections, and the files those write."""
    kept: list[str] = []
    targets: list[str] = []
    index = 0
    while index < len(words):
        word = words[index]
        if word in _REDIRECTS and index + 1 < len(words):
            if kept and kept[-1].isdigit():
                kept.pop()  # the descriptor of `2>`
            target = words[index + 1]
            if not target.startswith("&"):
                targets.append(target)
            index += 2
            continue
        if word == "<" and index + 1 < len(words):
            index += 2
            continue
        kept.append(word)
        index += 1
    return kept, targets


def _absolute(path: str, project: Path) -> str:
    expanded = os.path.expanduser(path)
    return os.path.normpath(os.path.join(project, expanded))


def _inside(path: str, project: Path) -> bool:
    root = os.path.normpath(project)
    return path == root or path.startswith(root + os.sep)
