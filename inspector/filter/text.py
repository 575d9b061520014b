"""Free-text terms: needles searched in the bodies of a record, with smart case."""

from __future__ import annotations

from collections.abc import Sequence

from inspector.filter.combine import Plan, Predicate, Specialised
from inspector.journal.record_text import HAYSTACKS, Haystack
from inspector.journal.records import Record


def text_term(needles: Sequence[str]) -> Plan:
    """True when every needle occurs in the record's bodies.

    Smart case: an all-lowercase needle ignores case, one with a capital letter matches exactly.
    """
    folded = tuple(needle for needle in needles if _ignores_case(needle))
    exact = tuple(needle for needle in needles if not _ignores_case(needle))

    def plan(kind: str) -> Specialised:
        haystack = HAYSTACKS.get(kind)
        return False if haystack is None else _search(haystack, folded, exact)

    return plan


def _ignores_case(needle: str) -> bool:
    # A needle without letters ("-rf", "42") is the same either way, so skip lowercasing for it.
    return needle.lower() == needle != needle.upper()


def _search(haystack: Haystack, folded: tuple[str, ...], exact: tuple[str, ...]) -> Predicate:
    if not exact and len(folded) == 1:
        [needle] = folded
        return lambda record: needle in haystack(record).lower()
    if not folded and len(exact) == 1:
        [needle] = exact
        return lambda record: needle in haystack(record)

    # Plain loops: all() over a generator or a bound __contains__ costs twice as much here.
    def search(record: Record) -> bool:
        text = haystack(record)
        for needle in exact:
            if needle not in text:
                return False
        low = text.lower()  # once for all the case-insensitive words
        for needle in folded:  # noqa: SIM110
            if needle not in low:
                return False
        return True

    return search
