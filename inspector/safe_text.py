"""Hook output is shown, never obeyed: control characters become visible escapes."""

from __future__ import annotations

import re

_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def printable(text: str) -> str:
    """`text` with every control character (ESC, BEL, CR, C1 ...) but tab and newline escaped."""
    return _CONTROL.sub(lambda match: f"\\x{ord(match.group()):02x}", text)


def one_line(text: str, limit: int = 200) -> str:
    flat = printable(text).replace("\n", "\\n").replace("\t", " ")
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"
