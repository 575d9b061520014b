"""The benchmarks run and report numbers. No timing is asserted: this is a smoke test."""

from __future__ import annotations

import math
from pathlib import Path
from xml.etree import ElementTree

from rich.console import Console

from tests.bench import Row, roundtrip, row
from tests.bench.__main__ import machine, table


async def test_roundtrip_quick_produces_positive_figures() -> None:
    rows = await roundtrip.run_async(quick=True)
    assert len(rows) == 3 * len(roundtrip.PAYLOADS)
    for figure in rows:
        assert figure.baseline > 0 and figure.measured > 0
        assert math.isclose(figure.ratio, figure.measured / figure.baseline)
    medians = [figure for figure in rows if figure.target is not None]
    assert all("findings" not in figure.note for figure in medians)  # the echo is conformant


def test_table_and_json_render_every_row() -> None:
    rows = [row("demo median ms", 2.0, 3.0, 1.5, "a note"), Row("demo p90 ms", 1.0, 1.0, 1.0)]
    console = Console(width=120, record=True)
    console.print(table(rows, quick=True, host=machine(0.5)))
    text = console.export_text()
    assert "demo median ms (1)" in text and "(1) a note" in text and "1.50x" in text
    assert "load average 0.50 ->" in text
    assert [figure.to_json()["met"] for figure in rows] == [True, None]


def test_reload_latency_quick_produces_positive_figures() -> None:
    from tests.bench import reload_latency

    [figure] = reload_latency.run(quick=True)
    assert figure.baseline > 0 and figure.measured > 0
    assert "reload adds" in figure.note


def test_relay_latency_quick_produces_positive_figures() -> None:
    from tests.bench import relay_latency

    [figure] = relay_latency.run(quick=True)
    assert figure.baseline > 0 and figure.measured > 0
    assert "adds" in figure.note


def test_row_limit_is_an_absolute_target() -> None:
    fast, slow = row("x us", 1.0, 40.0, None, limit=50.0), row("x us", 1.0, 60.0, 1.5, limit=50.0)
    assert (fast.met, slow.met) == (True, False)
    console = Console(width=120, record=True)
    console.print(table([fast, slow], quick=True, host=machine(0.5)))
    text = console.export_text()
    assert "<= 50 met" in text and "<= 1.5x, <= 50 missed" in text


def test_filter_speed_quick_produces_a_row_per_expression() -> None:
    from tests.bench import filter_speed

    rows = filter_speed.run(quick=True)
    assert len(rows) == len(filter_speed.EXPRESSIONS)
    assert all(figure.baseline > 0 and figure.measured > 0 for figure in rows)


async def test_event_rate_quick_produces_positive_figures() -> None:
    from tests.bench import event_rate

    journal, ui, observer = await event_rate.run_async(quick=True)
    for figure in (journal, ui, observer):
        assert figure.baseline > 0 and figure.measured > 0
    assert ui.limit == event_rate.LIMIT_US and "event stream showed all 2,000" in ui.note
    assert "800 of 800 delivered" in observer.note


def test_memory_quick_counts_the_journal_beyond_the_payload() -> None:
    from tests.bench import memory

    rows = memory.run(quick=True)
    assert len(rows) == 2
    for figure in rows:
        assert 0 < figure.baseline < figure.measured
        assert figure.limit == figure.baseline + memory.TARGET_BYTES


def test_plot_is_well_formed_svg(tmp_path: Path) -> None:
    from tests.bench import plot

    rows = [
        row("a <median> ms", 2.0, 3.0, 1.5),
        row("b us/event", 4.0, 8.0, None, limit=50.0),
        Row("c", 1.0, 0.5, 0.5),
    ]
    written = plot.write(rows, tmp_path / "results.svg", "2026-01-01, test & co")
    assert written[0] == tmp_path / "results.svg"
    root = ElementTree.parse(written[0]).getroot()
    texts = "".join(root.itertext())
    assert "a <median> ms" in texts and "test & co" in texts and "(target ≤ 12.5x)" in texts
