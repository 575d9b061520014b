"""The session's allow-always rules, each of which can be revoked."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import DataTable, Footer, Label

from inspector.safe_text import json_dumps, shown


@dataclass(slots=True)
class RuleView:
    id: str
    tool: str
    arguments: dict[str, Any] | None  # None: the tool with any arguments
    uses: int
    created: float  # a time.time() value


def _matches(rule: RuleView) -> Text:
    if rule.arguments is None:
        return Text("any arguments", style="italic")
    return shown(json_dumps(rule.arguments, separators=(",", ":")))


class RulesScreen(ModalScreen[None]):
    DEFAULT_CSS = """
    RulesScreen {
        align: center middle;
    }
    RulesScreen #dialog {
        width: 90%;
        max-width: 120;
        height: auto;
        max-height: 80%;
        border: thick $primary;
        background: $surface;
        padding: 0 1;
    }
    RulesScreen DataTable {
        height: auto;
        max-height: 20;
    }
    RulesScreen #empty {
        color: $text-muted;
    }
    """

    BINDINGS = [
        Binding("r,delete", "revoke", "Revoke", id="rules.revoke"),
        Binding("escape", "close", "Close", priority=True, id="rules.close"),
    ]

    def __init__(self, rules: list[RuleView], revoke: Callable[[str], object]) -> None:
        super().__init__()
        self._rules = list(rules)
        self._revoke = revoke

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog") as dialog:
            dialog.border_title = "Allow-always rules (this session)"
            yield DataTable(cursor_type="row", zebra_stripes=True)
            yield Label("No allow-always rules in this session.", id="empty")
        yield Footer()

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        table.add_columns("Tool", "Matches", "Uses", "Created")
        self._refresh_rows()

    def _refresh_rows(self) -> None:
        table = self.query_one(DataTable)
        table.clear()
        for rule in self._rules:
            created = time.strftime("%H:%M:%S", time.localtime(rule.created))
            row = (shown(rule.tool, limit=60), _matches(rule), Text(str(rule.uses)), created)
            table.add_row(*row, key=rule.id)
        table.display = bool(self._rules)
        self.query_one("#empty").display = not self._rules
        self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # None keeps Revoke in the footer, dimmed, once every rule is gone.
        return None if action == "revoke" and not self._rules else True

    def action_revoke(self) -> None:
        table = self.query_one(DataTable)
        row = table.cursor_row
        rule_id = table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value
        self._revoke(str(rule_id))
        self._rules = [rule for rule in self._rules if rule.id != rule_id]
        self._refresh_rows()
        table.move_cursor(row=min(row, len(self._rules) - 1))

    def action_close(self) -> None:
        self.dismiss(None)
