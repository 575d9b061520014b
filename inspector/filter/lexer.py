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

    def describe(self) -> str:
        return "the end of the filter" if self.kind is Kind.END else f"'{self.text}'"


_SYMBOLS = {"(": Kind.LPAREN, ")": Kind.RPAREN, "!": Kind.NOT, "&": Kind.AND, "|": Kind.OR}
_KEYWORDS = {"not": Kind.NOT, "and": Kind.AND, "or": Kind.OR}
_WORD = re.compile(r'[^\s()!&|"]+')
_SPACE = re.compile(r"\s*")


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
    if char == '"':
        value, end = read_string(text, pos)
        return Token(Kind.TEXT, text[pos:end], pos, value, quoted=True)
    match = _WORD.match(text, pos)
    assert match is not None  # every other character starts a word
    return _word(text, pos, match.group())


def _word(text: str, pos: int, word: str) -> Token:
    name, colon, value = word.partition(":")
    if not colon:
        keyword = _KEYWORDS.get(word.lower())
        if keyword is not None:
            return Token(keyword, word, pos)
        return Token(Kind.TEXT, word, pos, word)
    value_pos = pos + len(name) + 1
    end = pos + len(word)
    if not value and text.startswith('"', end):
        value, end = read_string(text, end)
    return Token(Kind.FIELD, text[pos:end], pos, value, name=name, value_pos=value_pos)


def read_string(text: str, start: int) -> tuple[str, int]:
    """The string quoted at `start` and the position after its closing quote.

    Only \\" and \\\\ are escapes; any other backslash is kept, so paths and regex-like text
    need no doubling.
    """
    chars: list[str] = []
    pos = start + 1
    while pos < len(text):
        char = text[pos]
        if char == '"':
            return "".join(chars), pos + 1
        if char == "\\" and text[pos + 1 : pos + 2] in ('"', "\\"):
            pos += 1
            char = text[pos]
        chars.append(char)
        pos += 1
    raise FilterError("unterminated string: missing the closing '\"'", start)
