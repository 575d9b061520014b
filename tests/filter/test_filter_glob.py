"""Wildcard values (`tool:*read*file*`): the same answers as a regular expression would give,
found without backtracking, and a filter too long to compile quickly refused."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from inspector.filter import FilterError, compile_filter
from inspector.filter.match import matcher
from inspector.filter.parser import MAX_LENGTH
from inspector.journal.records import Decision


def regex_semantics(pattern: str, value: str) -> bool:
    """What a glob meant when it was compiled to a regular expression: both sides lowercased,
    `*` any run of characters (newlines too), `?` one character, all else literal, whole value."""
    parts = re.split(r"([*?])", pattern.lower())
    regex = "".join({"*": ".*", "?": "."}.get(part) or re.escape(part) for part in parts)
    return re.fullmatch(regex, value.lower(), re.DOTALL) is not None


# Few letters, so pieces recur and overlap; `İ` lowercases to two characters, `[` and `.` are
# special to a regex, `\n` to one without DOTALL.
ALPHABET = "abAB*?[.\nİ"
patterns = st.text(ALPHABET, max_size=10)
values = st.text(ALPHABET.replace("*", "").replace("?", "") + "*?", max_size=14)


@settings(max_examples=2000)
@given(patterns, values)
def test_a_glob_matches_what_its_regular_expression_matched(pattern: str, value: str) -> None:
    assert matcher([pattern])(value) is regex_semantics(pattern, value)


@settings(max_examples=300)
@given(st.lists(patterns, min_size=1, max_size=4), values)
def test_alternative_globs_match_when_any_of_them_does(patterns: list[str], value: str) -> None:
    expected = any(regex_semantics(pattern, value) for pattern in patterns)
    assert matcher(patterns)(value) is expected


ADVERSARIAL = """
import sys
from inspector.filter import compile_filter
from inspector.journal.records import Decision
cases = [
    ("*a*b*c*d*e*", "abcd" * 300, False),  # a regex tries every placing of a, b, c and d
    ("*read*file*", "read" * 160_000, False),  # 640 KB: a regex tries every 'read'
    ("*read*file*", "read" * 160_000 + "file", True),
    ("*r?ad*f?le*x", "rXad" * 160_000 + "x", False),
    ("*r?ad*f?le*x", "rXad" * 160_000 + "xfilex", True),
]
for pattern, value, expected in cases:
    assert compile_filter("tool:" + pattern)(Decision(tool=value)) is expected, pattern
print("done")
"""
# These took minutes each as regular expressions; found piece by piece they take milliseconds.
# The bound only tells a blowup from a slow machine: it is far above a normal run.
GENEROUS_S = 10


def test_wildcards_on_a_long_value_do_not_backtrack() -> None:
    try:
        done = subprocess.run(
            [sys.executable, "-c", ADVERSARIAL], capture_output=True, text=True, timeout=GENEROUS_S
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"the wildcard filters were still matching after {GENEROUS_S} s")
    assert (done.returncode, done.stdout, done.stderr) == (0, "done\n", "")


def test_a_filter_longer_than_the_limit_is_refused_with_its_length() -> None:
    alternatives = " | ".join(f"tool:name{n}" for n in range(20_000))
    with pytest.raises(FilterError) as caught:
        compile_filter(alternatives)
    assert caught.value.message == (
        f"the filter is {len(alternatives):,} characters long; the most is {MAX_LENGTH:,}"
    )
    assert caught.value.position == MAX_LENGTH


def test_a_filter_as_long_as_the_limit_compiles() -> None:
    terms = " | ".join(f"tool:*a*b*c{n}" for n in range(2_000))[:MAX_LENGTH]
    expression = terms[: terms.rindex(" | ")] + " | tool:x"
    expression += " " * (MAX_LENGTH - len(expression))
    assert len(expression) == MAX_LENGTH
    predicate = compile_filter(expression)
    assert predicate(Decision(tool="x")) and predicate(Decision(tool="-a-b-c7"))
    assert not predicate(Decision(tool="a-b-c"))
