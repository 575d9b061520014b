"""Every binding id a keymap in settings.yaml may name: the panels', the screens' and the app's;
and the keys a keymap gives the app that a panel takes first."""

from __future__ import annotations

from collections.abc import Mapping

from textual.binding import Binding
from textual.dom import DOMNode

from inspector.tui.screens.approval import ApprovalScreen
from inspector.tui.screens.composer import ComposerScreen
from inspector.tui.screens.help import HelpScreen
from inspector.tui.screens.manual import ManualScreen
from inspector.tui.screens.pick import PickScreen
from inspector.tui.screens.replay_report import ReplayReportScreen
from inspector.tui.screens.rules import RulesScreen
from inspector.tui.screens.save_as import SaveAsScreen
from inspector.tui.widgets.detail_pane import DetailPane
from inspector.tui.widgets.event_stream import EventStream
from inspector.tui.widgets.exchange_list import ExchangeList
from inspector.tui.widgets.history_input import HistoryInput
from inspector.tui.widgets.hooks_panel import HooksPanel

# What has focus on the main screen: Textual offers a key to the focused widget before the app.
PANELS: tuple[type[DOMNode], ...] = (ExchangeList, EventStream, HooksPanel, DetailPane)
HOLDERS: tuple[type[DOMNode], ...] = (
    ExchangeList,
    EventStream,
    HooksPanel,
    DetailPane,
    HistoryInput,
    ApprovalScreen,
    ComposerScreen,
    HelpScreen,
    ManualScreen,
    PickScreen,
    ReplayReportScreen,
    RulesScreen,
    SaveAsScreen,
)


def binding_ids(*more: type[DOMNode]) -> frozenset[str]:
    """The ids of the bindings of HOLDERS and `more`, and of the classes they inherit from."""
    return frozenset(binding.id for binding in _bindings((*HOLDERS, *more)) if binding.id)


def shadowed_keys(keymap: Mapping[str, str], app: type[DOMNode]) -> list[str]:
    """One message per key `keymap` gives one of the app's own bindings while a panel binds the
    same key (with the keymap applied): while that panel has focus, the key never reaches the
    app. Priority bindings are offered to the app first, so they are never shadowed."""
    taken: dict[str, Binding] = {}
    for binding in _bindings(PANELS):
        for key in _keys(keymap.get(binding.id or "", binding.key)):
            taken.setdefault(key, binding)
    app_ids = {b.id for b in _bindings((app,)) if not b.priority}
    messages = []
    for binding_id, keys in keymap.items():
        if binding_id not in app_ids:
            continue
        for key in _keys(keys):
            if (panel := taken.get(key)) is not None:
                messages.append(
                    f"keymap: {key} for {binding_id} is also {panel.description!r} "
                    f"({panel.id}) in a panel, which takes it first while it has focus; "
                    "choose another key"
                )
    return messages


def _bindings(holders: tuple[type[DOMNode], ...]) -> list[Binding]:
    return [
        binding
        for holder in holders
        for klass in holder.__mro__
        for binding in vars(klass).get("BINDINGS", ())
        if isinstance(binding, Binding) and binding.id
    ]


def _keys(text: str) -> list[str]:
    return [key.strip() for key in text.split(",") if key.strip()]
