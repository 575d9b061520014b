"""The one function that makes untrusted text display-safe, and the JSON and Text built on it."""

from __future__ import annotations

import json
import sys
import unicodedata

from rich.console import Console

from inspector.safe_text import json_dumps, one_line, printable, shown
from tests.support.hostile_text import (
    BIDI_AND_INVISIBLE,
    C0,
    C1,
    HOSTILE,
    MARKUP,
    UNSAFE_CATEGORIES,
    raw_characters,
)

EVERY_UNSAFE = [
    chr(code)
    for code in range(sys.maxunicode + 1)
    if unicodedata.category(chr(code)) in UNSAFE_CATEGORIES
]


def test_every_c0_control_becomes_its_control_picture() -> None:
    assert one_line(C0) == "".join(chr(0x2400 + code) for code in range(0x20))
    assert one_line("\x1b]0;pwned\x07") == "␛]0;pwned␇"
    assert printable("\x7f") == "␡"


def test_block_text_keeps_newline_and_tab_as_layout() -> None:
    assert printable("a\tb\nc\r\n") == "a\tb\nc␍\n"
    assert one_line("a\tb\nc") == "a␉b␊c"


def test_c1_controls_become_hex_escapes() -> None:
    assert printable(C1) == "".join(f"\\x{code:02x}" for code in range(0x80, 0xA0))
    assert printable("\x9b2J") == "\\x9b2J"


def test_bidi_overrides_and_zero_width_characters_become_escapes() -> None:
    shown_text = printable(BIDI_AND_INVISIBLE)
    assert shown_text == "".join(f"\\u{ord(char):04x}" for char in BIDI_AND_INVISIBLE)
    assert printable("\U000e0041") == "\\U000e0041"  # a tag character: invisible ASCII


def test_lone_surrogates_become_escapes_that_encode() -> None:
    text = printable("a\ud800b\udfff")
    assert text == "a\\ud800b\\udfff"
    text.encode("utf-8")  # would raise on a raw surrogate


def test_no_control_format_or_separator_character_survives() -> None:
    """Every code point whose Unicode category is a control, a format character, a surrogate or
    a line/paragraph separator, by this Python's Unicode database."""
    text = "x".join(EVERY_UNSAFE)
    assert raw_characters(printable(text), allowed="\n\t") == set()
    assert raw_characters(one_line(text, limit=len(text) * 12), allowed="") == set()


def test_ordinary_text_is_unchanged() -> None:
    text = "naïve café 日本語 emoji 🎉 [brackets] tab-free"
    assert printable(text) == text == one_line(text)


def test_one_line_caps_after_escaping() -> None:
    assert one_line("\x1b" * 10, limit=5) == "␛␛␛␛…"
    assert len(one_line("x" * 1000)) == 200


def test_shown_is_never_read_as_markup() -> None:
    text = shown(HOSTILE, "bold", limit=2_000)
    for markup in MARKUP:
        assert markup in text.plain
    assert text.spans == [] and text.style == "bold"
    console = Console(width=10_000, force_terminal=True, color_system="truecolor")
    with console.capture() as captured:
        console.print(text)
    assert raw_characters(captured.get().replace("\x1b[1m", "").replace("\x1b[0m", "")) == set()


def test_json_dumps_round_trips_and_shows_nothing_raw() -> None:
    value = {HOSTILE: [HOSTILE, 1, None], "plain": "日本語"}
    for indent in (None, 2):
        text = json_dumps(value, indent=indent)
        assert json.loads(text) == value
        assert raw_characters(text) == set()
    assert json_dumps({"a": "\x9b\x1b\u202e\ud800"}) == '{"a": "\\u009b\\u001b\\u202e\\ud800"}'
    assert json_dumps("日本語") == '"日本語"'
