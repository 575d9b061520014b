"""Every binding id a keymap in settings.yaml may name: the panels', the screens' and the app's."""

from __future__ import annotations

from textual.binding import Binding
from textual.dom import DOMNode

from inspector.tui.screens.approval import ApprovalScreen
from inspector.tui.screens.composer import ComposerScreen
from inspector.tui.screens.help import HelpScreen
from inspector.tui.screens.pick import PickScreen
from inspector.tui.screens.replay_report import ReplayReportScreen
from inspector.tui.screens.rules import RulesScreen
from inspector.tui.screens.save_as import SaveAsScreen
from inspector.tui.widgets.detail_pane import DetailPane
from inspector.tui.widgets.event_stream import EventStream
from inspector.tui.widgets.exchange_list import ExchangeList
from inspector.tui.widgets.history_input import HistoryInput
from inspector.tui.widgets.hooks_panel import HooksPanel

HOLDERS: tuple[type[DOMNode], ...] = (
    ExchangeList,
    EventStream,
    HooksPanel,
    DetailPane,
    HistoryInput,
    ApprovalScreen,
    ComposerScreen,
    HelpScreen,
    PickScreen,
    ReplayReportScreen,
    RulesScreen,
    SaveAsScreen,
)


def binding_ids(*more: type[DOMNode]) -> frozenset[str]:
    """The ids of the bindings of HOLDERS and `more`, and of the classes they inherit from."""
    return frozenset(
        binding.id
        for holder in (*HOLDERS, *more)
        for klass in holder.__mro__
        for binding in vars(klass).get("BINDINGS", ())
        if isinstance(binding, Binding) and binding.id
    )
