"""The main screen's footer: however narrow the terminal, the keys for help and to quit stay."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.widgets import Footer
from textual.widgets._footer import FooterKey

KEPT_ACTIONS = frozenset({"manual", "help", "quit"})


class KeptKeys(Horizontal):
    DEFAULT_CSS = """
    KeptKeys { dock: right; width: auto; height: 1; background: $footer-background; }
    KeptKeys FooterKey.-command-palette { dock: none; border-left: vkey $foreground 20%; }
    """


class KeptFooter(Footer):
    """Textual's footer, with the kept keys and the palette's at its right edge: the keys that
    do not fit are cut from the end of the others, never these."""

    def compose(self) -> ComposeResult:
        kept: list[FooterKey] = []
        for widget in super().compose():
            if isinstance(widget, FooterKey) and _kept(widget):
                kept.append(widget)
            else:
                yield widget
        yield KeptKeys(*kept)


def _kept(key: FooterKey) -> bool:
    return key.action in KEPT_ACTIONS or key.has_class("-command-palette")
