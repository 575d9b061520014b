"""Collapsible JSON: unfolded, exactly the text the tabs always showed; folded, one line per
folded container, and every line knows what folding there folds."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from inspector.tui.widgets.json_fold import fold_json, nested_containers
from inspector.tui.widgets.json_view import pretty_lines

SCALARS = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text()
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=20,
)


@given(VALUES)
def test_unfolded_it_is_the_indented_json_the_tabs_showed(value: Any) -> None:
    folds = fold_json(value)
    assert folds.lines == pretty_lines(value)
    assert len(folds.opens) == len(folds.within) == len(folds.lines)


@given(VALUES)
def test_an_outline_folds_each_container_of_the_top_level_to_one_line(value: Any) -> None:
    outline = fold_json(value, nested_containers(value))
    top = value if isinstance(value, (dict, list)) else []
    assert len(outline.lines) == (len(top) + 2 if top else 1)


def test_folding_at_a_line_folds_the_container_it_starts_or_lies_in() -> None:
    value = {"tool": "exec", "arguments": {"cmd": "ls", "env": {"A": "1"}}, "list": [1, [2]]}
    folds = fold_json(value)
    lines = folds.lines
    assert folds.target(lines.index('  "arguments": {')) == ("arguments",)
    assert folds.target(lines.index('    "cmd": "ls",')) == ("arguments",)
    assert folds.target(lines.index('      "A": "1"')) == ("arguments", "env")
    assert folds.target(lines.index("    [")) == ("list", 1)
    assert folds.target(len(lines)) is None
    folded = fold_json(value, frozenset({("arguments",), ("list", 1)}))
    assert '  "arguments": {…2 keys},' in folded.lines and "    […1 item]" in folded.lines
    assert folded.line_of(("arguments",)) == folded.lines.index('  "arguments": {…2 keys},')
    assert '  "tool": "exec",' in folded.lines  # the rest as it was
