"""Split a filter expression into tokens, each with the character position it starts at."""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum

from inspector.filter.errors import FilterError


class Kind(Enum):
    LPAREN = "("
    RPAREN = ")"
    NOT = "!"
    AND = "&"
    OR = "|"
    TEXT = "text"  # a bare word or a quoted string: free-text search
    FIELD = "field"  # name:value
    END = "end"


@dataclass(frozen=True, slots=True)
class Token:
    kind: Kind
    text: str  # as written, for error messages
    pos: int
    value: str = ""  # TEXT: the needle; FIELD: the value, quotes removed
    name: str = ""  # FIELD: the field name as written
    value_pos: int = 0  # FIELD: where the value starts
    quoted: bool = False  # TEXT: written in quotes, so never a keyword


_SYMBOLS = {"(": Kind.LPAREN, ")": Kind.RPAREN, "!": Kind.NOT, "&": Kind.AND, "|": Kind.OR}
_KEYWORDS = {"not": Kind.NOT, "and": Kind.AND, "or": Kind.OR}
_QUOTES = "\"'"
_SPACE = re.compile(r"\s*")
_WORD = re.compile(r"[^\s()!&|]+")  # quotes inside a word are plain characters: don't
_QUOTED_FIELD = re.compile(r"""([^\s()!&|"':]*):(?=["'])""")  # name:"value" or name:'value'


def tokenize(text: str) -> list[Token]:
    """All tokens of `text`, ending with an END token at len(text)."""
    tokens: list[Token] = []
    pos = _skip_space(text, 0)
    while pos < len(text):
        token = _next_token(text, pos)
        tokens.append(token)
        pos = _skip_space(text, token.pos + len(token.text))
    tokens.append(Token(Kind.END, "", len(text)))
    return tokens


def _skip_space(text: str, pos: int) -> int:
    # The same regex engine as _WORD, so both agree on what whitespace is.
    match = _SPACE.match(text, pos)
    return match.end() if match else pos


def _next_token(text: str, pos: int) -> Token:
    char = text[pos]
    if char in _SYMBOLS:
        return Token(_SYMBOLS[char], char, pos)
    if char in _QUOTES:
        value, end = read_string(text, pos)
        return Token(Kind.TEXT, text[pos:end], pos, value, quoted=True)
    field = _QUOTED_FIELD.match(text, pos)
    if field:
        value, end = read_string(text, field.end())
        name = field.group(1)
        return Token(Kind.FIELD, text[pos:end], pos, value, name=name, value_pos=field.end())
    word = _WORD.match(text, pos)
    assert word is not None  # every other character starts a word
    return _word(pos, word.group())


def _word(pos: int, word: str) -> Token:
    name, colon, value = word.partition(":")
    if colon:
        return Token(Kind.FIELD, word, pos, value, name=name, value_pos=pos + len(name) + 1)
    keyword = _KEYWORDS.get(word.lower())
    if keyword is not None:
        return Token(keyword, word, pos)
    return Token(Kind.TEXT, word, pos, word)


def read_string(text: str, start: int) -> tuple[str, int]:
    """The string quoted at `start` (with " or ') and the position after its closing quote.

    Only a backslash before the quote or another backslash escapes; any other backslash is
    kept, so paths and regex-like text need no doubling.
    """
    quote = text[start]
    chars: list[str] = []
    pos = start + 1
    while pos < len(text):
        char = text[pos]
        if char == quote:
            return "".join(chars), pos + 1
        if char == "\\" and text[pos + 1 : pos + 2] in (quote, "\\"):
            pos += 1
            char = text[pos]
        chars.append(char)
        pos += 1
    raise FilterError(f"unterminated string: missing the closing {quote}", start)
