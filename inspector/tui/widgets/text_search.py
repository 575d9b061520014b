"""Find text in a TextArea: the next match after the selection, wrapping round, ignoring case."""

from __future__ import annotations

import re

from textual.widgets import TextArea
from textual.widgets.text_area import Selection


def find_next(area: TextArea, text: str) -> bool:
    """Select the next match of `text` after the current selection (from the top after the
    last one) and scroll to it; False when there is none."""
    if not text:
        return False
    pattern = re.compile(re.escape(text), re.IGNORECASE)
    whole = area.text
    match = pattern.search(whole, _index(whole, area.selection.end)) or pattern.search(whole)
    if match is None:
        return False
    area.selection = Selection(_location(whole, match.start()), _location(whole, match.end()))
    area.scroll_cursor_visible(center=True)
    return True


def _index(text: str, location: tuple[int, int]) -> int:
    row, column = location
    lines = text.split("\n")
    return sum(len(line) + 1 for line in lines[:row]) + column


def _location(text: str, index: int) -> tuple[int, int]:
    row = text.count("\n", 0, index)
    return row, index - (text.rfind("\n", 0, index) + 1)
