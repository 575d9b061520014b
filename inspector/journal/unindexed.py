"""A journal opened where no index can be written (a full disk, a read-only one, no descriptor
left): an index is an optimisation, so the journal is read anyway, and where each record's
line is (its offset, size and type, 13 bytes a record) is kept in memory instead of in a file.
Its records are read back from the journal as a view asks for them, as through an index; with
no columns, a filter tests the records themselves."""

from __future__ import annotations

from array import array
from collections.abc import Iterable
from pathlib import Path

from inspector.journal.index_files import KIND_CODES, SavedIndex, journal_state, saved_index
from inspector.journal.records import Record


def lines_in_memory(journal: Path, lines: Iterable[tuple[int, int, Record]]) -> SavedIndex:
    """`lines`: the journal's, read in file order (offset, size, record); a later line of the
    same seq is the record as it was last written."""
    offsets, sizes, kinds = array("q"), array("I"), array("B")
    for offset, size, record in lines:
        seq = record.seq
        if seq >= len(offsets):
            more = seq + 1 - len(offsets)  # seqs with no line between, as an index has them
            offsets.frombytes(bytes(8 * more))
            sizes.frombytes(bytes(4 * more))
            kinds.frombytes(bytes(more))
        offsets[seq], sizes[seq], kinds[seq] = offset + 1, size, KIND_CODES.get(record.type, 0)
    return saved_index(offsets, sizes, kinds, None, journal, journal_state(journal))
