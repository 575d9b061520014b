"""F1: the manual that ships in the package (inspector/docs/), with its table of contents; a
link to another page of it opens that page here."""

from __future__ import annotations

from pathlib import Path

from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import ModalScreen
from textual.widgets import Footer, Markdown, MarkdownViewer

from inspector.tui.screens.pick import PickScreen

MANUAL_INDEX = Path(__file__).resolve().parents[2] / "docs" / "README.md"
WEB_SCHEMES = ("http://", "https://", "mailto:")


class ManualViewer(MarkdownViewer):
    """Textual's viewer, which would read a web link as a file: those go to the browser, and a
    page not installed with the manual (the checkout's README) gets a word instead of an error."""

    async def _on_markdown_link_clicked(self, message: Markdown.LinkClicked) -> None:
        message.prevent_default()  # the viewer's own handler would open every link as a file
        message.stop()
        href = message.href
        if href.startswith(WEB_SCHEMES):
            self.app.open_url(href)
            return
        path, _anchor = Markdown.sanitize_location(href)
        page = self.navigator.location.parent / path
        if path != Path(".") and not (page.suffix == ".md" and page.is_file()):
            self.notify(f"{href} is not a page of the manual.", severity="warning")
            return
        await self.go(href)


class ManualScreen(ModalScreen[None]):
    """Modal, so the main screen's keys stay off its footer while it is open."""

    DEFAULT_CSS = """
    ManualScreen { background: $surface; }
    ManualScreen MarkdownTableOfContents { width: 34; }
    """
    BINDINGS = [
        # Priority: the document and its contents take keys first otherwise.
        Binding("escape,q,f1", "close", "Close the manual", priority=True, id="manual.close"),
        Binding("p", "pick_page", "Pages", id="manual.pages"),
        Binding("backspace", "back", "Back", id="manual.back"),
        Binding("t", "toggle_contents", "Contents", id="manual.contents"),
    ]

    def __init__(self, index: Path = MANUAL_INDEX) -> None:
        super().__init__()
        self.index = index

    def compose(self) -> ComposeResult:
        yield ManualViewer(show_table_of_contents=True, open_links=False)
        yield Footer()

    @property
    def viewer(self) -> ManualViewer:
        return self.query_one(ManualViewer)

    async def on_mount(self) -> None:
        try:
            await self.viewer.go(self.index)
        except OSError as error:
            self.notify(f"The manual could not be read: {error}", severity="error")
        self.viewer.document.focus()

    def action_close(self) -> None:
        self.dismiss(None)

    def action_pick_page(self) -> None:
        """Every page, for the keyboard: a link in the text answers only the mouse."""
        pages = sorted(
            self.index.parent.glob("*.md"), key=lambda page: (page != self.index, page.name)
        )

        def picked(page: Path | None) -> None:
            if page is not None:
                self.run_worker(self.viewer.go(page))

        self.app.push_screen(PickScreen("A page of the manual", pages), picked)

    async def action_back(self) -> None:
        await self.viewer.back()

    def action_toggle_contents(self) -> None:
        self.viewer.show_table_of_contents = not self.viewer.show_table_of_contents
