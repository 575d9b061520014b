"""Predicates over journal records and the closures that combine them."""

from __future__ import annotations

from collections.abc import Callable

from inspector.journal.records import Record

Predicate = Callable[[Record], bool]


def everything(record: Record) -> bool:
    return True


def both(left: Predicate, right: Predicate) -> Predicate:
    return lambda record: left(record) and right(record)


def either(left: Predicate, right: Predicate) -> Predicate:
    return lambda record: left(record) or right(record)


def negate(operand: Predicate) -> Predicate:
    return lambda record: not operand(record)
