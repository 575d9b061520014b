"""`marked:yes` / `marked:no`: the rows a person marked in the list, as the filter reads them."""

from __future__ import annotations

import pytest

from inspector.filter import FilterError, compile_filter
from inspector.journal.records import Exchange


def test_marked_reads_the_set_it_was_given_when_a_record_is_tested() -> None:
    first, second = Exchange(seq=1, hook="a"), Exchange(seq=2, hook="b")
    marks: set[int] = set()
    marked, unmarked = compile_filter("marked:yes", marks), compile_filter("marked:NO", marks)
    assert not marked(first) and unmarked(first)
    marks.add(1)  # marked after the filter was compiled: it counts
    assert marked(first) and not marked(second) and unmarked(second)
    assert compile_filter("marked:yes & hook:b", marks)(second) is False


def test_marked_takes_yes_or_no_only() -> None:
    with pytest.raises(FilterError) as error:
        compile_filter("marked:true")
    assert "yes" in error.value.message and "no" in error.value.message
    assert not compile_filter("marked:yes")(Exchange(seq=3))  # nothing marked
