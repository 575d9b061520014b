"""The Claude Code relay benchmark runs and reports numbers. No timing is asserted."""

from __future__ import annotations

from tests.bench import BENCHMARKS, claude_relay


def test_claude_relay_quick_measures_a_hook_run_through_the_relay() -> None:
    [figure] = claude_relay.run(quick=True)
    assert 0 < figure.baseline < figure.measured
    assert "adds" in figure.note and "the relay alone" in figure.note
    assert "Python's own start-up" in figure.note
    assert "claude_relay" in BENCHMARKS
