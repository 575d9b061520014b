"""F1 opens the manual that ships in the package, with its table of contents (issue 27, item 2)."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Markdown, OptionList
from textual.widgets.markdown import MarkdownTableOfContents

from inspector.tui.screens.help import HelpScreen
from inspector.tui.screens.manual import MANUAL_INDEX, ManualScreen
from inspector.tui.screens.pick import PickScreen
from tests.support.scripted import config_of
from tests.support.tui import live_app, opened, running, until


def heading(screen: ManualScreen) -> str:
    return screen.viewer.document.source.splitlines()[0]


async def test_f1_opens_the_manual_whose_links_open_its_other_pages(tmp_path: Path) -> None:
    app = live_app(config_of(), tmp_path)
    async with running(app) as pilot:
        await pilot.press("f1")
        manual = await opened(pilot, ManualScreen, "the manual")
        await until(pilot, lambda: heading(manual) == "# The hook-inspector manual", what="index")
        contents = manual.query_one(MarkdownTableOfContents)
        await until(pilot, lambda: bool(contents.table_of_contents), what="its contents")
        assert contents.display and contents.region.width > 0
        assert "The pages" in [name for _level, name, _id in contents.table_of_contents or []]

        document = manual.viewer.document
        document.post_message(Markdown.LinkClicked(document, "commands.md"))
        await until(pilot, lambda: heading(manual) == "# Commands", what="the linked page")
        assert manual.viewer.navigator.location == MANUAL_INDEX.parent / "commands.md"

        document.post_message(Markdown.LinkClicked(document, "../../no-such-page.md"))
        await until(pilot, lambda: bool(app._notifications), what="a word on the dead link")
        assert heading(manual) == "# Commands"

        await pilot.press("backspace")
        await until(pilot, lambda: heading(manual).startswith("# The hook-inspector"), what="back")
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is app.screen_stack[0], what="the main screen")


async def test_question_mark_still_shows_the_keys_of_the_focused_panel(tmp_path: Path) -> None:
    app = live_app(config_of(), tmp_path)
    async with running(app) as pilot:
        await pilot.press("question_mark")
        help_screen = await opened(pilot, HelpScreen, "the key help")
        assert "| Key | Action | Binding id |" in help_screen.markdown
        await pilot.press("question_mark")
        await until(pilot, lambda: app.screen is app.screen_stack[0], what="closed")


async def test_p_lists_the_manuals_pages_for_the_keyboard(tmp_path: Path) -> None:
    app = live_app(config_of(), tmp_path)
    async with running(app) as pilot:
        await pilot.press("f1")
        manual = await opened(pilot, ManualScreen, "the manual")
        await until(pilot, lambda: heading(manual).startswith("# The hook-inspector"), what="index")
        await pilot.press("p")
        picker = await opened(pilot, PickScreen, "the pages")
        pages = picker.query_one(OptionList)
        names = [str(pages.get_option_at_index(i).prompt) for i in range(pages.option_count)]
        assert names[0] == "README.md" and "filter.md" in names
        pages.highlighted = names.index("filter.md")
        await pilot.press("enter")
        await until(pilot, lambda: heading(manual) == "# Filter language", what="the filter page")
