"""The Codex relay benchmark runs the real CLI and reports numbers. No timing is asserted."""

from __future__ import annotations

from tests.bench import codex_relay


def test_codex_relay_quick_measures_a_hook_direct_and_through_the_relay() -> None:
    [figure] = codex_relay.run(quick=True)
    assert "the relay adds" in figure.note and "per event" in figure.note
    assert "runs of" in figure.note
