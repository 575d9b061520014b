"""The one exception the filter language raises."""

from __future__ import annotations


class FilterError(ValueError):
    """A filter expression that does not compile, and the 0-based character where it went wrong."""

    def __init__(self, message: str, position: int) -> None:
        super().__init__(f"{message} at {position}")
        self.message = message
        self.position = position
