"""The benchmarks run and report numbers. No timing is asserted: this is a smoke test."""

from __future__ import annotations

import math

from rich.console import Console

from bench import Row, roundtrip, row
from bench.__main__ import machine, table


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
    from bench import reload_latency

    [figure] = reload_latency.run(quick=True)
    assert figure.baseline > 0 and figure.measured > 0
    assert "reload adds" in figure.note


def test_relay_latency_quick_produces_positive_figures() -> None:
    from bench import relay_latency

    [figure] = relay_latency.run(quick=True)
    assert figure.baseline > 0 and figure.measured > 0
    assert "adds" in figure.note
