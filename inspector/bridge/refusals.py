"""Refused connections as journal records, a run of alike ones folded into one record.

Anyone who can reach a TCP listener can be refused, as often as they like and without a token;
a record per refusal would let them fill the inspector's memory. Refusals for the same reason
with nothing else recorded in between amend the first one's count instead.
"""

from __future__ import annotations

from inspector.journal.journal import Journal
from inspector.journal.records import Lifecycle

REFUSED = "refused"


class RefusalLog:
    def __init__(self, journal: Journal) -> None:
        self._journal = journal
        self._run: Lifecycle | None = None  # the record of the current run of alike refusals
        self._reason = ""
        self._first_peer = ""
        self._count = 0

    def refused(self, hook: str, reason: str, peer: str) -> None:
        if self._run is not None and self._journal.latest() is self._run and reason == self._reason:
            self._count += 1
            detail = f"{reason} (from {self._first_peer}; {self._count:,} times in a row, "
            self._journal.amend(self._run, detail=detail + f"the last from {peer})")
            return
        self._run = self._journal.append(
            Lifecycle(hook=hook, state=REFUSED, detail=f"{reason} (from {peer})")
        )
        self._reason, self._first_peer, self._count = reason, peer, 1
