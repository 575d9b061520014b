"""Refused connections as journal records, a run of them folded into a few records.

Anyone who can reach a TCP listener can be refused, as often as they like and without a token;
a record per refusal would let them fill the inspector's memory. While nothing but refusals is
recorded, a refusal for a reason already seen amends that reason's record (its count and last
peer), the first MAX_REASONS reasons get a record each, and every later reason is counted in
one more record, so a run costs at most MAX_REASONS + 1 records whatever the peers send.
"""

from __future__ import annotations

from dataclasses import dataclass

from inspector.journal.journal import Journal
from inspector.journal.records import Lifecycle

REFUSED = "refused"
MAX_REASONS = 4
_OTHER = object()  # the key of the record that counts the reasons past MAX_REASONS


@dataclass(slots=True)
class _Fold:
    record: Lifecycle
    first: str  # the first refusal's reason and peer, as its record first said it
    count: int = 1


class RefusalLog:
    def __init__(self, journal: Journal) -> None:
        self._journal = journal
        self._folds: dict[object, _Fold] = {}  # by reason, for the current run of refusals
        self._newest: Lifecycle | None = None

    def refused(self, hook: str, reason: str, peer: str) -> None:
        if self._newest is None or self._journal.latest() is not self._newest:
            self._folds = {}  # something else was recorded: a new run starts
        key: object = reason
        if reason not in self._folds and len(self._folds) >= MAX_REASONS:
            key = _OTHER
        fold = self._folds.get(key)
        said = f"{reason} (from {peer})"
        if fold is None:
            record = Lifecycle(hook=hook, state=REFUSED, detail=said)
            self._folds[key] = _Fold(self._journal.append(record), said)
            self._newest = record
            return
        fold.count += 1
        if key is _OTHER:
            detail = f"{fold.count:,} refusals for other reasons, the first: {fold.first}, "
            self._journal.amend(fold.record, detail=detail + f"the last: {said}")
        else:
            detail = f"{fold.first[:-1]}; {fold.count:,} times, the last from {peer})"
            self._journal.amend(fold.record, detail=detail)
