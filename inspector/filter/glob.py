"""Wildcard values matched without backtracking: `*` any run of characters, `?` one."""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class _Piece:
    """A run of a pattern between stars: literal characters and `?`, so of a fixed length."""

    text: str
    anyone: re.Pattern[str] | None  # for a piece with `?`: `.` for each; else plain str methods

    @classmethod
    def of(cls, text: str) -> _Piece:
        if "?" not in text:
            return cls(text, None)
        regex = "".join("." if char == "?" else re.escape(char) for char in text)
        return cls(text, re.compile(regex, re.DOTALL))

    def at(self, low: str, pos: int) -> bool:
        if self.anyone is None:
            return low.startswith(self.text, pos)
        return self.anyone.match(low, pos) is not None

    def find(self, low: str, start: int, end: int) -> int:
        """Where the piece first lies wholly within low[start:end], or -1."""
        if self.anyone is None:
            return low.find(self.text, start, end)
        found = self.anyone.search(low, start, end)
        return -1 if found is None else found.start()


class Glob:
    """`*` is any run of characters and `?` one character; everything else is literal.

    The pieces between the stars are found in order, each where it first occurs after the one
    before: a piece found later could only leave less room for the rest. So a value is read
    about once per piece, where a regular expression of `.*` tries every placing of every piece.
    Hand-rolled rather than fnmatch, which reads `[` as the start of a set.
    """

    def __init__(self, pattern: str) -> None:
        head, *rest = map(_Piece.of, pattern.split("*"))
        self._head = head
        self._tail = rest[-1] if rest else None  # None: no star, the head is the whole pattern
        self._middle = [piece for piece in rest[:-1] if piece.text]

    def test(self, low: str) -> bool:
        head, tail = self._head, self._tail
        if tail is None:
            return len(low) == len(head.text) and head.at(low, 0)
        end = len(low) - len(tail.text)  # where the tail must start
        pos = len(head.text)
        if pos > end or not head.at(low, 0) or not tail.at(low, end):
            return False
        for piece in self._middle:
            found = piece.find(low, pos, end)
            if found < 0:
                return False
            pos = found + len(piece.text)
        return True
