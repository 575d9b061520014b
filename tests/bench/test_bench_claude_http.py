"""The Claude Code HTTP-hook benchmark runs the real CLI and reports numbers. No timing is
asserted."""

from __future__ import annotations

from tests.bench import claude_http


def test_claude_http_quick_measures_a_hook_direct_through_http_and_through_the_relay() -> None:
    [figure] = claude_http.run(quick=True)
    assert figure.baseline > 0 and figure.measured > 0
    assert "adds" in figure.note and "the command relay to the same inspector" in figure.note
    assert "hook_started to hook_response" in figure.note
