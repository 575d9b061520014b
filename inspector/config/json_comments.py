"""JSON with comments, as a host that reads its settings through strip-json-comments sees it
(Gemini CLI): `//` to the end of the line and `/* ... */` outside strings become spaces, the
newlines kept, so every line and column a JSON error or a key names is still the file's own."""

from __future__ import annotations

import re

# A string (escapes included), a line comment, or a block comment: the first that starts here.
_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"?|//[^\n]*|/\*(?:[^*]|\*(?!/))*(?:\*/)?', re.DOTALL)


def without_comments(text: str) -> str:
    """`text` with its comments blanked out; a text without any is returned as it is."""
    if "/" not in text:
        return text
    return _TOKEN.sub(_blank_comment, text)


def has_comments(text: str) -> bool:
    return without_comments(text) != text


def _blank_comment(match: re.Match[str]) -> str:
    token = match.group()
    if token.startswith('"'):
        return token
    return re.sub(r"[^\n]", " ", token)
