"""Text a hostile hook, relay or journal could send, and the check that none of it reaches a
screen raw. Shared by the printable, printer, pilot and tmux tests."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import fields
from typing import Any

from inspector.journal.records import RECORD_TYPES, Finding, Record

C0 = "".join(chr(code) for code in range(0x20))
DEL = "\x7f"
C1 = "".join(chr(code) for code in range(0x80, 0xA0))
ESCAPE_SEQUENCES = (
    "\x1b[2J",  # CSI: clear the screen
    "\x1b[31m",  # CSI: SGR red
    "\x1b]0;pwned\x07",  # OSC 0: the window title
    "\x1b]8;;http://evil.example/\x1b\\click\x1b]8;;\x1b\\",  # OSC 8: a hyperlink
    "\x1b]52;c;cHduZWQ=\x1b\\",  # OSC 52: the clipboard
    "\x1bP1$r\x1b\\",  # DCS
    "\x9b2J",  # 8-bit CSI
)
MARKUP = ("[red]", "[/]", "[link=x]", "[@click=app.quit]")
BIDI_AND_INVISIBLE = (
    "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200b\u200c\u200d\u200e\u200f\ufeff"
)
LONE_SURROGATES = "\udfff\ud800"  # not a pair: JSON would join a high+low pair

HOSTILE = "".join(
    ("<", *ESCAPE_SEQUENCES, *MARKUP, BIDI_AND_INVISIBLE, LONE_SURROGATES, C0, DEL, C1, ">")
)
"""Everything at once, between markers, for every text field of every record; the sequences
come first, so that a view which cuts long text still shows them."""

UNSAFE_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})
APP_SGR = re.compile(r"\x1b\[[0-9;:]*m")


def raw_characters(text: str, allowed: str = "\n") -> set[str]:
    """The characters of `text` that a terminal could obey or that would hide what text says."""
    return {
        char
        for char in text
        if char not in allowed and unicodedata.category(char) in UNSAFE_CATEGORIES
    }


def without_app_sgr(output: str) -> str:
    """Terminal output with the app's own colour sequences (CSI ... m) taken out."""
    return APP_SGR.sub("", output)


def hostile_finding() -> Finding:
    return Finding(code=HOSTILE, severity=HOSTILE, message=HOSTILE, host_does=HOSTILE)  # type: ignore[arg-type]


def hostile_value(annotation: str) -> Any:
    """A hostile value of the shape a record field's annotation names; None for fields that are
    not text (numbers, flags) and keep their defaults."""
    if annotation.startswith("list[Finding]"):
        return [hostile_finding()]
    if annotation.startswith("list[str]"):
        return [HOSTILE, HOSTILE]
    if annotation.startswith("list[dict"):
        return [{"hook": HOSTILE, "action": HOSTILE, "status": HOSTILE, HOSTILE: HOSTILE}]
    if annotation.startswith("dict"):
        return {HOSTILE: HOSTILE, "tool": HOSTILE, "arguments": {HOSTILE: [HOSTILE]}}
    if annotation.startswith("str"):
        return HOSTILE
    return None


def hostile_record(cls: type[Record], **overrides: Any) -> Record:
    """A `cls` whose every text field (strings, lists, dicts, findings) is hostile."""
    values: dict[str, Any] = {}
    for field in fields(cls):
        value = hostile_value(str(field.type))
        if value is not None:
            values[field.name] = value
    return cls(**(values | overrides))


def hostile_records() -> list[Record]:
    """One hostile record of every type, and the exchange shapes the views treat differently:
    a JSON-RPC stage call with a changed object, an approval, an unknown method, no answer, and a
    command hook's run."""
    records = [hostile_record(cls) for cls in RECORD_TYPES.values()]
    stage_result = {"action": HOSTILE, "call": {"tool": HOSTILE, HOSTILE: HOSTILE}}
    records += [
        hostile_record(
            RECORD_TYPES["exchange"],
            method="hook.before_tool",
            request={"params": {"tool": HOSTILE, "arguments": {}}},
            response={"result": stage_result},
        ),
        hostile_record(
            RECORD_TYPES["exchange"],
            method="hook.approve_tool",
            response={"result": {"approved": HOSTILE, "reason": HOSTILE}},
        ),
        hostile_record(RECORD_TYPES["exchange"], method=f"hook.{HOSTILE}"),
        hostile_record(RECORD_TYPES["exchange"], response=None),
        hostile_record(RECORD_TYPES["exchange"], response=None, status="pending"),
    ]
    return records
