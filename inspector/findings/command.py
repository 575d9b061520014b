"""Findings any command hook can earn (one process per call, JSON on stdin, JSON on stdout),
whatever its host, as long as the host reads stdout as one JSON value: Claude Code and j-cli.
Each finding's host_does says what the host does."""

from __future__ import annotations

import json

from inspector.findings.codes import CodeInfo, coded
from inspector.findings.finding import Finding

CODES: dict[str, CodeInfo] = {
    "stdout-noise": CodeInfo(
        "error",
        "text before or after the JSON on stdout",
        "The host parses the whole of stdout as one JSON value, so the answer is lost.",
    ),
    "stdin-unread": CodeInfo(
        "warning",
        "the command never read stdin",
        "The host ignores the failed write; a context larger than the pipe buffer blocks the "
        "write until the command exits. Read stdin, at least with `cat > /dev/null`.",
    ),
}


def _finding(code: str, message: str) -> Finding:
    return coded(CODES, code, message)


def stdout_noise(stdout: str, *, login_shell: bool) -> list[Finding]:
    """Text around a JSON object that would otherwise be the answer: log lines, a profile's
    greeting, or a second JSON value."""
    text = stdout.strip()
    located = _locate_object(text)
    if located is None:
        return []
    start, end = located
    before, after = text[:start].strip(), text[end:].strip()
    parts = []
    if before:
        parts.append(f"{_lines(before)} before it (first: {_first_line(before)!r})")
    if after:
        kind = "a second JSON value" if _is_json(after) else _lines(after)
        parts.append(f"{kind} after it")
    message = f"stdout holds a JSON object with {' and '.join(parts)}"
    if before and login_shell:
        message += (
            "; the hook runs in a login shell (bash -lc), which sources /etc/profile and "
            "~/.bash_profile or ~/.profile: anything they print lands here"
        )
    return [_finding("stdout-noise", message)]


def stdin_unread(unread_bytes: int) -> list[Finding]:
    return [_finding("stdin-unread", f"{unread_bytes:,} bytes of context never read")]


def _locate_object(text: str) -> tuple[int, int] | None:
    """Where the first JSON object that starts a line begins and ends, if the text is not
    already one JSON value by itself."""
    if _is_json(text):
        return None
    decoder = json.JSONDecoder()
    offset = 0
    for line in text.splitlines(keepends=True):
        start = offset + len(line) - len(line.lstrip())
        offset += len(line)
        if text.startswith("{", start):
            try:
                value, end = decoder.raw_decode(text, start)
            except ValueError:
                continue
            if isinstance(value, dict):
                return start, end
    return None


def _is_json(text: str) -> bool:
    try:
        json.loads(text)
    except (ValueError, RecursionError):
        return False
    return True


def _lines(text: str) -> str:
    count = len(text.splitlines())
    return f"{count} line{'s' if count != 1 else ''} of text"


def _first_line(text: str) -> str:
    line = text.splitlines()[0]
    return line if len(line) <= 60 else line[:57] + "..."
