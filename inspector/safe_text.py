"""Text from hooks, relays and saved journals is shown, never obeyed. This is the one place that
turns such text into display-safe text: every widget, screen and printer that shows record
content goes through `printable`, `one_line`, `shown` or `json_dumps`.

What is replaced, and what the person sees instead:

- C0 controls U+0000-U+001F: their Unicode control pictures (ESC ␛, BEL ␇, CR ␍, NUL ␀ ...),
  and DEL: ␡. Block text (`printable`) keeps newline and tab as layout; a single line
  (`one_line`, `shown`) shows them too, as ␊ and ␉.
- C1 controls U+0080-U+009F (the 8-bit CSI among them): `\\x9b`.
- Characters that make text read as something else: bidi embeddings, overrides and isolates
  (U+202A-U+202E, U+2066-U+2069), zero-width characters and marks (U+200B-U+200F), the BOM
  (U+FEFF), line and paragraph separators, tag characters (invisible ASCII), every other Unicode
  format character, and lone surrogates: `\\u202e`, `\\ud800`, `\\U000e0041`.

So an OSC 52 clipboard write arrives on screen as `␛]52;c;…␛\\`: the approver sees that
something tried. Rich markup (`[red]`, `[@click=...]`) is never parsed: `shown` builds a
rich.text.Text, which Rich and Textual draw as it is. `json_dumps` writes JSON whose unsafe
characters are JSON escapes (`\\u001b`, `\\u202e`), so it still parses to the same value.
"""

from __future__ import annotations

import json
import re
from typing import Any

from rich.style import StyleType
from rich.text import Text

# Every code point of Unicode categories Cc, Cf, Cs, Zl and Zp (Unicode 15), as ranges
# (tests/test_printable.py checks them against the running Python's Unicode database): C0 but
# tab and newline, then tab and newline, then everything else.
_C0_BUT_LAYOUT = "\x00-\x08\x0b-\x1f"
_LAYOUT = "\t\n"
_REST = (
    "\x7f-\x9f\xad\u0600-\u0605\u061c\u06dd\u070f\u0890-\u0891\u08e2\u180e"
    "\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u206f\ud800-\udfff\ufeff\ufff9-\ufffb"
    "\U000110bd\U000110cd\U00013430-\U0001343f\U0001bca0-\U0001bca3\U0001d173-\U0001d17a"
    "\U000e0001\U000e0020-\U000e007f"
)
_UNSAFE = re.compile(f"[{_C0_BUT_LAYOUT}{_LAYOUT}{_REST}]")
_UNSAFE_IN_BLOCK = re.compile(f"[{_C0_BUT_LAYOUT}{_REST}]")  # a class, never a lookahead: fast
_DEL_PICTURE = "\u2421"


def _visible(match: re.Match[str]) -> str:
    code = ord(match.group())
    if code < 0x20:
        return chr(0x2400 + code)  # the control pictures block mirrors C0 in order
    if code == 0x7F:
        return _DEL_PICTURE
    if code <= 0xFF:
        return f"\\x{code:02x}"
    if code <= 0xFFFF:
        return f"\\u{code:04x}"
    return f"\\U{code:08x}"


def _json_escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    if code <= 0xFFFF:
        return f"\\u{code:04x}"
    high, low = divmod(code - 0x10000, 0x400)
    return f"\\u{0xD800 + high:04x}\\u{0xDC00 + low:04x}"


def printable(text: str) -> str:
    """`text` as a block: newlines and tabs kept, every other unsafe character made visible."""
    return _UNSAFE_IN_BLOCK.sub(_visible, text)


def one_line(text: str, limit: int | None = 200) -> str:
    """`text` on one line, every unsafe character (newline and tab too) made visible, cut to
    `limit` characters with an ellipsis (None: never cut, for text that is wrapped instead)."""
    flat = _UNSAFE.sub(_visible, text)
    return flat if limit is None or len(flat) <= limit else flat[: limit - 1] + "…"


def shown(text: str, style: StyleType = "", limit: int = 200) -> Text:
    """`text` as one line of Rich Text: made visible, never read as markup."""
    return Text(one_line(text, limit), style=style)


def json_dumps(value: Any, **options: Any) -> str:
    """`json.dumps(value, ensure_ascii=False, **options)` with every unsafe character a JSON
    escape; it parses back to `value`. Outside strings JSON has only ASCII and the newlines of
    its indentation, so only characters inside strings are touched."""
    text = json.dumps(value, ensure_ascii=False, **options)
    if text.isascii():  # json.dumps escaped C0 already: only DEL can be left
        return text.replace("\x7f", "\\u007f") if "\x7f" in text else text
    return _UNSAFE_IN_BLOCK.sub(_json_escape, text)
