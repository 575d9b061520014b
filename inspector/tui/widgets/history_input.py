"""A text field that remembers what was submitted in it: up and down walk back and forth."""

from __future__ import annotations

from typing import ClassVar

from textual.binding import Binding, BindingType
from textual.widgets import Input

HISTORY_LIMIT = 100


class HistoryInput(Input):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up", "older", "Older entry", show=False, id="history.older"),
        Binding("down", "newer", "Newer entry", show=False, id="history.newer"),
    ]

    def __init__(self, **options: object) -> None:
        super().__init__(**options)  # type: ignore[arg-type]
        self.history: list[str] = []
        self._back = 0  # how far back the value shown is; 0: what is being typed

    async def action_submit(self) -> None:
        text = self.value.strip()
        if text and (not self.history or self.history[-1] != text):
            self.history = [*self.history, text][-HISTORY_LIMIT:]
        self._back = 0
        await super().action_submit()

    def action_older(self) -> None:
        if self._back < len(self.history):
            self._back += 1
            self.value = self.history[-self._back]

    def action_newer(self) -> None:
        if self._back > 0:
            self._back -= 1
            self.value = self.history[-self._back] if self._back else ""
