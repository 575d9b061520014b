"""A hook script saved with a mistake is announced as a reload whose new version failed to start,
with the first lines it wrote to stderr and where to find the rest."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from textual.message import Message
from textual.notifications import Notify

from inspector.engine import Engine
from inspector.journal.records import Reload
from inspector.tui.widgets.exchange_list import reload_cells
from tests.reload.test_reload import hook_script
from tests.support.tui import exchange_list
from tests.support.waiting import wait_for
from tests.tui.test_tui_reload import watching_app


def collector(notes: list[tuple[str, str, str]]) -> Callable[[Message], None]:
    """A message hook that keeps every toast's (title, text, severity) in `notes`."""

    def collect(message: Message) -> None:
        if isinstance(message, Notify):
            note = message.notification
            notes.append((note.title, note.message, note.severity))

    return collect


def reloads(engine: Engine) -> list[Reload]:
    return list(engine.journal.of_type(Reload))


async def test_a_syntax_error_is_announced_as_a_failed_start_with_its_stderr(
    tmp_path: Path,
) -> None:
    notes: list[tuple[str, str, str]] = []
    async with watching_app(tmp_path, collector(notes)) as (app, engine, _config, _pilot):
        (tmp_path / "alpha.py").write_text("def broken(:\n    pass\n")
        await wait_for(lambda: any(r.failed == ["alpha"] for r in reloads(engine)))
        await wait_for(lambda: any("failed to start" in message for _, message, _ in notes))
        record = next(r for r in reloads(engine) if r.failed)
        assert record.restarted == ["alpha"]
        assert "failed to start alpha" in record.changes
        title, message, severity = next(note for note in notes if "failed to start" in note[1])
        assert severity == "error" and title == "Reloaded, but a hook did not start"
        assert "alpha: the new version failed to start" in message
        assert "SyntaxError" in message  # the first stderr lines, in the toast itself
        assert "hook:alpha & type:stderr" in message  # where the rest is
        assert not any(title == "Reloaded" for title, _, _ in notes)
        await wait_for(lambda: record in exchange_list(app).rows)
        assert "failed to start alpha" in " ".join(cell.text for cell in reload_cells(record))

        (tmp_path / "alpha.py").write_text(hook_script("alpha-v3"))
        await wait_for(
            lambda: any(r.restarted == ["alpha"] and not r.failed for r in reloads(engine))
        )
        await wait_for(lambda: any(title == "Reloaded" for title, _, _ in notes))
