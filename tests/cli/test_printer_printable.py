"""The headless printers (`run`, `serve`, `check`) with hostile text in every field of every
record: people's output shows it escaped, `--json` stays JSON that reads back the same."""

from __future__ import annotations

import io
import json
from pathlib import Path

from rich.console import Console

from inspector.cli.printer import Printer, describe, finding_line
from inspector.cli.replay import print_item
from inspector.drivers.replay import ReplayItem
from inspector.journal.journal import Journal
from inspector.journal.jsonl import is_final
from tests.support.hostile_text import HOSTILE, hostile_records, raw_characters, without_app_sgr

FINAL = [record for record in hostile_records() if is_final(record)]


async def printed(folder: Path, as_json: bool) -> str:
    """What the printer writes to a real file for the hostile records."""
    path, journal = folder / "printed", Journal()
    with path.open("w", encoding="utf-8") as out:
        printer = Printer(journal, as_json=as_json, out=out)
        for record in FINAL:
            journal.append(record)
        await printer.aclose()
    return path.read_text(encoding="utf-8")


async def test_people_output_shows_every_field_escaped(tmp_path: Path) -> None:
    output = await printed(tmp_path, as_json=False)
    assert output.count("\n") >= len(FINAL)
    assert raw_characters(output) == set()
    assert "␛]52;c;cHduZWQ=␛\\" in output and "\\x9b2J" in output and "\\u202e" in output


def test_people_output_to_a_terminal_has_only_the_printers_own_colours() -> None:
    console = Console(
        file=io.StringIO(), force_terminal=True, color_system="truecolor", width=100_000
    )
    for record in FINAL:
        console.print(describe(record))
        for finding in record.findings_list:
            console.print(finding_line(finding, record.host))
    output = console.file.getvalue()  # type: ignore[attr-defined]
    assert "\x1b[" in output  # it is coloured
    assert raw_characters(without_app_sgr(output)) == set()
    assert "[@click=app.quit]" in output  # shown, not read as markup


async def test_json_lines_stay_json_that_reads_back_the_same(tmp_path: Path) -> None:
    lines = (await printed(tmp_path, as_json=True)).split("\n")[:-1]  # JSON lines end at "\n" only
    assert len(lines) == len(FINAL)
    for line, record in zip(lines, FINAL, strict=True):
        assert raw_characters(line) == set()
        assert json.loads(line) == record.to_json() | {"seq": record.seq}
    assert HOSTILE in json.loads(lines[0])["hook"]


def test_replay_report_shows_names_notes_and_diffs_escaped() -> None:
    item = ReplayItem(
        seq=1,
        hook=HOSTILE,
        method=HOSTILE,
        outcome="different",
        recorded={"reason": HOSTILE},
        replayed={"reason": "ok"},
        note=HOSTILE,
    )
    console = Console(file=io.StringIO(), width=100_000)
    print_item(item, console)
    output = console.file.getvalue()  # type: ignore[attr-defined]
    assert raw_characters(output) == set()
    assert output.count("␛]0;pwned␇") >= 3 and "\\x9b2J" in output
