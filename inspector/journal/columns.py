"""The values of a record the filter's fields test (`hook:gate`, `finding:late-*`), each record
type's own: the one definition both the filter's record-by-record tests and the journal's index
columns read, so a filter over the index can never mean something else than over records.

A field has at most one value per record type (`one`) or a list of them, any of which may match
(`many`). As an index column, a value is kept as a filter tests it: None, a string, a number or
a bool as it is, anything else as its str(), and a `many` field's values as a tuple of those."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from operator import attrgetter
from typing import Any

from inspector.journal.records import RECORD_TYPES, Record

Getter = Callable[[Any], Any]
PLAIN = (str, int, float, bool)


class _Absent:
    """The value of a field for a record type that has none: matches no pattern."""

    def __repr__(self) -> str:
        return "ABSENT"


ABSENT = _Absent()
Value = None | str | int | float | bool | tuple[Any, ...] | _Absent


@dataclass(frozen=True, slots=True)
class Column:
    one: dict[str, Getter] = field(default_factory=dict)  # record type -> its value
    many: dict[str, Getter] = field(default_factory=dict)  # record type -> its values


def _items(value: Any) -> Iterable[Any]:
    return value if isinstance(value, (list, tuple)) else ()


def _finding_values(name: str) -> Getter:
    def get(record: Any) -> Iterable[Any]:
        findings = record.findings
        if not findings:  # the usual case, kept cheap
            return ()
        return [getattr(item, name, None) for item in _items(findings)]

    return get


def _nested(attribute: str, key: str, inner: str) -> Getter:
    """record.<attribute>[key][inner], or None wherever the shape is not what PicoClaw sends."""
    outer = attrgetter(attribute)

    def get(record: Any) -> Any:
        try:
            return outer(record)[key][inner]
        except (LookupError, TypeError):  # not a dict, or the key is missing
            return None

    return get


def _exchange_tool(record: Any) -> Any:
    """params.tool of a JSON-RPC request, tool_name of a command hook's context (Exchange.tool);
    None wherever the record is not shaped as a host makes one."""
    try:
        return record.tool
    except (AttributeError, TypeError):
        return None


_hook = attrgetter("hook")
_finding_severities = _finding_values("severity")


def _delivered_hooks(record: Any) -> Iterable[Any]:
    return _items(record.delivered)


def _reloaded_hooks(record: Any) -> Iterable[Any]:
    return (*_items(record.added), *_items(record.removed), *_items(record.restarted))


def _event_severities(record: Any) -> Iterable[Any]:
    return (record.severity, *_finding_severities(record))


def _host(record: Any) -> str:
    # A record from before hosts were named follows PicoClaw's rules, as the journal's default.
    return str(record.host or "picoclaw")


def _skipped_hooks(record: Any) -> Iterable[Any]:
    """The hooks a j-cli chain decision did not run (the hooks panel counts them)."""
    return [
        entry["hook"]
        for entry in _items(record.chain)
        if isinstance(entry, dict)
        and entry.get("status") == "skipped"
        and isinstance(entry.get("hook"), str)
    ]


FIELD_COLUMNS: dict[str, Column] = {
    "hook": Column(
        one={t: _hook for t in ("exchange", "stderr", "noise", "lifecycle")}
        | {"decision": attrgetter("by")},
        many={"event": _delivered_hooks, "reload": _reloaded_hooks},
    ),
    "method": Column(one={"exchange": attrgetter("method"), "decision": attrgetter("stage")}),
    "action": Column(one={"exchange": attrgetter("action"), "decision": attrgetter("verdict")}),
    "status": Column(one={"exchange": attrgetter("status")}),
    "state": Column(one={"lifecycle": attrgetter("state")}),
    "source": Column(one={t: attrgetter("source") for t in ("exchange", "event", "decision")}),
    "tool": Column(
        one={
            "exchange": _exchange_tool,
            "event": _nested("payload", "payload", "Tool"),
            "decision": attrgetter("tool"),
        }
    ),
    "turn": Column(
        one={
            "exchange": attrgetter("turn"),
            "event": _nested("payload", "scope", "turn_id"),
            "decision": attrgetter("turn"),
        }
    ),
    "kind": Column(one={"event": attrgetter("kind")}),
    "severity": Column(
        many={
            "event": _event_severities,
            "exchange": _finding_severities,
            "noise": _finding_severities,
        }
    ),
    "finding": Column(many={t: _finding_values("code") for t in ("exchange", "event", "noise")}),
    "host": Column(one=dict.fromkeys(RECORD_TYPES, _host)),
}
# Not filter fields: what the hooks panel counts an exchange or a decision by.
OTHER_COLUMNS: dict[str, Column] = {
    "stage_entry": Column(one={"exchange": attrgetter("stage_entry")}),
    "skipped": Column(many={"decision": _skipped_hooks}),
}
COLUMNS: dict[str, Column] = FIELD_COLUMNS | OTHER_COLUMNS
COLUMN_NAMES = tuple(COLUMNS)


def plain(value: Any) -> Value:
    return value if value is None or type(value) in PLAIN else str(value)


def _value_getter(column: Column, kind: str) -> Callable[[Record], Value]:
    one = column.one.get(kind)
    if one is not None:
        return lambda record: plain(one(record))
    many = column.many.get(kind)
    if many is not None:
        return lambda record: tuple(map(plain, many(record)))
    return lambda record: ABSENT


_GETTERS: dict[str, tuple[Callable[[Record], Value], ...]] = {
    kind: tuple(_value_getter(column, kind) for column in COLUMNS.values()) for kind in RECORD_TYPES
}


def values_of(record: Record) -> tuple[Value, ...]:
    """The record's value in every column, in COLUMN_NAMES order."""
    getters = _GETTERS.get(record.type)
    if getters is None:
        return (ABSENT,) * len(COLUMN_NAMES)
    return tuple(get(record) for get in getters)
