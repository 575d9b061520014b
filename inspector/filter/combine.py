"""Plans and predicates, and the closures that combine them.

A term does not test a record directly: it first says what it means for one record type (its
plan). A field the type does not have is the constant False, `type:` is a constant too, and
constants fold away through !, & and |. `finish` builds one closure tree per record type, so a
record pays one dispatch on its type and then runs only tests that can matter for it.

A plan also says what it means over the journal's index columns (`over_rows`, rows.py): which
of the positions in `within` it holds for, as one byte per position (1: it holds). `&` tests
its right side only where the left one held, `|` its right side only where the left did not, so
the free-text search, the costly term that parser.py puts last, reads the fewest texts.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol, cast, runtime_checkable

from inspector.journal.records import RECORD_TYPES, Record

if TYPE_CHECKING:
    from inspector.filter.rows import Rows

Predicate = Callable[[Record], bool]
Specialised = Predicate | bool  # a plain bool when the record type alone decides
PerKind = Callable[[str], Specialised]  # record type → what the expression means for it
OverRows = Callable[["Rows", bytes], bytes]  # the positions of `within` (0/1 bytes) it holds for


@dataclass(frozen=True, slots=True)
class Plan:
    per_kind: PerKind
    over_rows: OverRows

    def __call__(self, kind: str) -> Specialised:
        return self.per_kind(kind)


@runtime_checkable
class Filter(Protocol):
    """A compiled expression: a predicate on one record that carries its plan for the index."""

    plan: Plan

    def __call__(self, record: Record) -> bool: ...


def constant(value: bool) -> Plan:
    def over_rows(rows: Rows, within: bytes) -> bytes:
        return within if value else rows.none()

    return Plan(lambda kind: value, over_rows)


def both(left: Plan, right: Plan) -> Plan:
    def per_kind(kind: str) -> Specialised:
        first = left(kind)
        if first is False:
            return False
        second = right(kind)
        if first is True or second is False:
            return second
        if second is True:
            return first
        return lambda record: first(record) and second(record)

    def over_rows(rows: Rows, within: bytes) -> bytes:
        return right.over_rows(rows, left.over_rows(rows, within))

    return Plan(per_kind, over_rows)


def either(left: Plan, right: Plan) -> Plan:
    def per_kind(kind: str) -> Specialised:
        first = left(kind)
        if first is True:
            return True
        second = right(kind)
        if first is False or second is True:
            return second
        if second is False:
            return first
        return lambda record: first(record) or second(record)

    def over_rows(rows: Rows, within: bytes) -> bytes:
        held = left.over_rows(rows, within)
        return rows.union(held, right.over_rows(rows, rows.minus(within, held)))

    return Plan(per_kind, over_rows)


def negate(operand: Plan) -> Plan:
    def per_kind(kind: str) -> Specialised:
        inner = operand(kind)
        if isinstance(inner, bool):
            return not inner
        return lambda record: not inner(record)

    def over_rows(rows: Rows, within: bytes) -> bytes:
        return rows.minus(within, operand.over_rows(rows, within))

    return Plan(per_kind, over_rows)


def finish(plan: Plan) -> Filter:
    """The predicate for any record: one specialised tree per type, chosen by `record.type`.
    A plain function (a method call would cost every record a frame more) with the plan."""
    trees = {kind: _closure(plan(kind)) for kind in RECORD_TYPES}
    other = _closure(plan(""))  # a record type this module does not know has no fields
    find = trees.get

    def test(record: Record) -> bool:
        return find(record.type, other)(record)

    test.plan = plan  # type: ignore[attr-defined]
    return cast(Filter, test)


def _always(record: Record) -> bool:
    return True


def _never(record: Record) -> bool:
    return False


def _closure(specialised: Specialised) -> Predicate:
    if specialised is True:
        return _always
    if specialised is False:
        return _never
    return specialised
