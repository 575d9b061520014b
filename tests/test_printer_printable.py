"""The headless printers (`run`, `serve`, `check`) with hostile text in every field of every
record: people's output shows it escaped, `--json` stays JSON that reads back the same."""

from __future__ import annotations

import io
import json

from hostile_text import HOSTILE, hostile_records, raw_characters, without_app_sgr
from rich.console import Console

from inspector.cli.printer import Printer, describe, finding_line
from inspector.journal.journal import Journal
from inspector.journal.jsonl import is_final

FINAL = [record for record in hostile_records() if is_final(record)]


def printed(as_json: bool) -> str:
    journal, out = Journal(), io.StringIO()
    printer = Printer(journal, as_json=as_json, out=out)
    for record in FINAL:
        journal.append(record)
    printer.close()
    return out.getvalue()


def test_people_output_shows_every_field_escaped() -> None:
    output = printed(as_json=False)
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


def test_json_lines_stay_json_that_reads_back_the_same() -> None:
    lines = printed(as_json=True).split("\n")[:-1]  # JSON lines end at "\n" only
    assert len(lines) == len(FINAL)
    for line, record in zip(lines, FINAL, strict=True):
        assert raw_characters(line) == set()
        assert json.loads(line) == record.to_json() | {"seq": record.seq}
    assert HOSTILE in json.loads(lines[0])["hook"]
