"""The one exception the filter language raises."""

from __future__ import annotations


class FilterError(ValueError):
    """A filter expression that does not compile, and the 0-based character where it went wrong;
    its text names the 1-based column, as the filter bar shows it."""

    def __init__(self, message: str, position: int) -> None:
        super().__init__(f"{message} (column {position + 1})")
        self.message = message
        self.position = position
