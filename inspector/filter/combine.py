"""Plans and predicates, and the closures that combine them.

A term does not test a record directly: it first says what it means for one record type (its
plan). A field the type does not have is the constant False, `type:` is a constant too, and
constants fold away through !, & and |. `finish` builds one closure tree per record type, so a
record pays one dispatch on its type and then runs only tests that can matter for it.
"""

from __future__ import annotations

from collections.abc import Callable

from inspector.journal.records import RECORD_TYPES, Record

Predicate = Callable[[Record], bool]
Specialised = Predicate | bool  # a plain bool when the record type alone decides
Plan = Callable[[str], Specialised]  # record type → what the expression means for it


def constant(value: bool) -> Plan:
    return lambda kind: value


def both(left: Plan, right: Plan) -> Plan:
    def plan(kind: str) -> Specialised:
        first = left(kind)
        if first is False:
            return False
        second = right(kind)
        if first is True or second is False:
            return second
        if second is True:
            return first
        return lambda record: first(record) and second(record)

    return plan


def either(left: Plan, right: Plan) -> Plan:
    def plan(kind: str) -> Specialised:
        first = left(kind)
        if first is True:
            return True
        second = right(kind)
        if first is False or second is True:
            return second
        if second is False:
            return first
        return lambda record: first(record) or second(record)

    return plan


def negate(operand: Plan) -> Plan:
    def plan(kind: str) -> Specialised:
        inner = operand(kind)
        if isinstance(inner, bool):
            return not inner
        return lambda record: not inner(record)

    return plan


def finish(plan: Plan) -> Predicate:
    """The predicate for any record: one specialised tree per type, chosen by `record.type`."""
    trees = {kind: _closure(plan(kind)) for kind in RECORD_TYPES}
    other = _closure(plan(""))  # a record type this module does not know has no fields
    find = trees.get
    return lambda record: find(record.type, other)(record)


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
