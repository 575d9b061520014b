"""The append-only journal: the single source of truth every view reads."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any, TypeVar

from inspector.journal.records import Exchange, Finding, Record, field_names
from inspector.journal.store import RecordStore

R = TypeVar("R", bound=Record)

# Called with the record and whether it is new (True) or an update of one already appended (False).
Subscriber = Callable[[Record, bool], None]


class Journal:
    """Records in order of arrival. An exchange is appended when it starts and updated when it ends,
    so views can show calls in flight; nothing is ever removed."""

    def __init__(self, host: str = "picoclaw") -> None:
        self.host = host  # the session's host: a record appended without one follows its rules
        self.records = RecordStore()
        self._last_seq = 0
        self._subscribers: list[Subscriber] = []

    @classmethod
    def over(cls, records: RecordStore, host: str = "picoclaw") -> Journal:
        """A journal of records already numbered (a saved session's)."""
        journal = cls(host)
        journal.records = records
        journal._last_seq = records.last_seq()
        return journal

    def __len__(self) -> int:
        return len(self.records)

    def append(self, record: R) -> R:
        self._last_seq = record.seq = self._last_seq + 1
        if not record.host:
            record.host = self.host
        self.records.append(record)
        for subscriber in list(self._subscribers):
            subscriber(record, True)
        return record

    def amend(self, record: R, **changes: Any) -> R:
        """Change fields of a record already appended and tell subscribers: the one way a record
        changes. A field the record does not have is an AttributeError, and nothing changes."""
        unknown = set(changes).difference(field_names(type(record)))  # type: ignore[arg-type]
        if unknown:
            raise AttributeError(f"{record.type} has no field {', '.join(map(repr, unknown))}")
        for name, value in changes.items():
            setattr(record, name, value)
        self.records.changed(record)
        for subscriber in list(self._subscribers):
            subscriber(record, False)
        return record

    def reread(self, record: Record) -> None:
        """A saved record read again from a later line of its file (written again after a
        change, opening.py): subscribers hear of it as of an amend."""
        for subscriber in list(self._subscribers):
            subscriber(record, False)

    def reopened(self, records: RecordStore) -> None:
        """The same saved session, its records now found another way (through the index just
        made of it): views rebuild what they show from them."""
        self.records = records
        self._last_seq = records.last_seq()

    def add_findings(self, record: R, *findings: Finding) -> R:
        return self.amend(record, findings=[*record.findings_list, *findings])

    def latest(self) -> Record | None:
        return self.records[-1] if self.records else None

    def subscribe(self, subscriber: Subscriber) -> Callable[[], None]:
        self._subscribers.append(subscriber)

        def unsubscribe() -> None:
            if subscriber in self._subscribers:
                self._subscribers.remove(subscriber)

        return unsubscribe

    def adopt(self, record: Record) -> None:
        """Add a record that already has its seq (loading a saved journal keeps its numbering)."""
        self.records.append(record)
        self._last_seq = record.seq

    def get(self, seq: int) -> Record | None:
        position = self.records.position_of(seq)
        return None if position is None else self.records[position]

    def of_type(self, cls: type[R]) -> Iterator[R]:
        return (record for record in self.records if isinstance(record, cls))

    def exchanges(self) -> Iterator[Exchange]:
        return self.of_type(Exchange)
