"""Free-text terms: needles searched in the bodies of a record, with smart case."""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from itertools import compress, repeat
from operator import gt

from inspector.filter.combine import Plan, Predicate, Specialised, finish
from inspector.filter.rows import Rows
from inspector.journal.index_files import TEXT_ERRORS
from inspector.journal.record_text import HAYSTACKS, Haystack
from inspector.journal.records import Record
from inspector.journal.store import TextBlock

NOT_FOUND = -1
SAMPLE = 16  # a word's density in a block is judged by this fraction of it
SPARSE = 4  # a word in fewer than one record in this many is found by its occurrences


def text_term(needles: Sequence[str]) -> Plan:
    """True when every needle occurs in the record's bodies.

    Smart case: an all-lowercase needle ignores case, one with a capital letter matches exactly.
    """
    folded = tuple(needle for needle in needles if _ignores_case(needle))
    exact = tuple(needle for needle in needles if not _ignores_case(needle))

    def per_kind(kind: str) -> Specialised:
        haystack = HAYSTACKS.get(kind)
        return False if haystack is None else _search(haystack, folded, exact)

    checked = finish(Plan(per_kind, _unused))  # a record's own text: what the index cannot say

    def over_rows(rows: Rows, within: bytes) -> bytes:
        return _over_texts(rows, folded, exact, checked, within)

    return Plan(per_kind, over_rows)


def _unused(rows: Rows, within: bytes) -> bytes:
    raise AssertionError("a record's own text is read record by record")


def _over_texts(
    rows: Rows,
    folded: tuple[str, ...],
    exact: tuple[str, ...],
    checked: Predicate,
    within: bytes,
) -> bytes:
    """The index keeps each record's text lowercased. A lowercase word is found there exactly;
    a word with capitals (or unusual letters) narrows the search by its lowercase form, and the
    records left are read back and searched as they are."""
    sure = [needle for needle in folded + exact if _same_in_lowercase(needle)]
    unsure = [needle for needle in exact if needle not in sure]
    words = [needle.lower().encode("utf-8", TEXT_ERRORS) for needle in [*sure, *unsure]]
    words = [word for word in words if word.isascii()] if unsure else words
    found: list[int] = []
    for block in rows.store.text_blocks(rows.positions(within)):
        if all(word in block.data for word in words):  # else no record of it has every word
            found += _holding(block, words)
    if unsure:
        found = [p for p, record in rows.store.each(found) if checked(record)]
    return rows.of_positions(found)


def _holding(block: TextBlock, words: list[bytes]) -> list[int]:
    """The positions of the block whose own text holds every word. The longest word picks the
    candidates (by walking its occurrences when it is rare in the block, else by searching each
    record's text in place), the others are searched in the candidates' texts only; the loops
    over records are C loops (map, compress)."""
    data = block.data
    starts, ends = block.bounds()
    candidates = list(range(len(starts)))
    longest_first = sorted(words, key=len, reverse=True)  # a longer word: fewer records
    if longest_first and _sparse(data, longest_first[0], len(starts)) and _ascending(starts):
        candidates = _occurrences(data, longest_first.pop(0), starts, ends)
    for word in longest_first:
        found = map(
            data.find,
            repeat(word),
            map(starts.__getitem__, candidates),
            map(ends.__getitem__, candidates),
        )
        candidates = list(compress(candidates, map(NOT_FOUND.__ne__, found)))
    return list(map(block.positions.__getitem__, candidates))


def _occurrences(data: bytes, word: bytes, starts: list[int], ends: list[int]) -> list[int]:
    """The indexes of the texts (sorted by start) that hold `word`, found by walking through
    its occurrences in `data`."""
    holding: list[int] = []
    at = data.find(word)
    while at >= 0:
        index = bisect_right(starts, at) - 1
        if at + len(word) <= ends[index]:  # not across two records' texts
            holding.append(index)
            at = data.find(word, ends[index])  # on to the next record's text
        else:
            at = data.find(word, at + 1)
    return holding


def _sparse(data: bytes, word: bytes, texts: int) -> bool:
    """Whether `word` is in fewer than one text in SPARSE, judged by the block's first part."""
    part = len(data) // SAMPLE
    return data.count(word, 0, part) * SAMPLE * SPARSE < texts


def _ascending(starts: list[int]) -> bool:
    return not any(map(gt, starts, starts[1:]))  # a record written again is out of order


def _same_in_lowercase(needle: str) -> bool:
    """Searching the lowercased text for it finds what searching the text would: it is
    lowercase already (a smart-case word), or it has no letter with a case at all."""
    return needle.lower() == needle and (needle.isascii() or _ignores_case(needle))


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
