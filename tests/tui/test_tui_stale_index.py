"""A saved journal whose index (the user's own, made to match the file) lies: the store finds
the lie while the views read records through it and reads the journal itself instead, and the
views then show the journal's records, not the index's (issue 24, item 2)."""

from __future__ import annotations

import json
from pathlib import Path

from inspector.journal.index_files import LINE, LINE_SIZE, index_folder, journal_state, read_index
from inspector.journal.saved import open_journal
from inspector.tui.launch import read_only_session
from tests.support.tui import make_app, running, until
from tests.tui.test_tui_hooks_panel import panel_rows
from tests.tui.test_tui_opening import EXCHANGES, journal_lines, seqs_listed, write_journal

DROPPED = range(10, 60)  # exchanges the forged index leaves out


def forge_index(journal: Path) -> None:
    """The journal's own index changed as a forger would: the rows of DROPPED zeroed (meta.json
    counting the rows left, naming the journal's state) and the first two exchanges' rows
    swapped, so a line the first screen reads is not the record its row says."""
    open_journal(journal)  # indexed beside it
    folder = index_folder(journal)
    rows = bytearray((folder / "lines").read_bytes())
    for seq in DROPPED:
        rows[seq * LINE_SIZE : (seq + 1) * LINE_SIZE] = bytes(LINE_SIZE)
    first, second = slice(3 * LINE_SIZE, 4 * LINE_SIZE), slice(4 * LINE_SIZE, 5 * LINE_SIZE)
    rows[first], rows[second] = rows[second], rows[first]
    (folder / "lines").write_bytes(rows)
    kept = [LINE.unpack_from(rows, at)[0] for at in range(0, len(rows), LINE_SIZE)]
    meta = json.loads((folder / "meta.json").read_text(encoding="ascii"))
    meta["journal"], meta["records"] = journal_state(journal), sum(map(bool, kept))
    (folder / "meta.json").write_text(json.dumps(meta).ljust(512), encoding="ascii")


async def test_an_index_found_lying_while_the_views_read_leaves_the_journals_records_on_screen(
    tmp_path: Path,
) -> None:
    journal = write_journal(tmp_path / "session.jsonl", journal_lines(EXCHANGES))
    forge_index(journal)
    saved = read_index(journal)
    assert saved is not None and len(saved.seqs) == EXCHANGES + 2 - len(DROPPED)  # believed
    every_exchange = list(range(3, EXCHANGES + 3))
    app = make_app(read_only_session(journal), tmp_path / "settings")
    async with running(app) as pilot:
        records = app.engine.journal.records
        await until(pilot, lambda: records.generation == 1, what="the lie found")
        await until(pilot, lambda: seqs_listed(app) == every_exchange, what="every exchange")
        await until(
            pilot,
            lambda: sum(int(row["calls"]) for row in panel_rows(app).values()) == EXCHANGES,
            what="every call counted",
        )
