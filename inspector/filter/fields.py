"""Field terms (`hook:gate`, `finding:late-*`): which value each record type offers for a field."""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from inspector.filter.combine import Plan, Specialised
from inspector.filter.errors import FilterError
from inspector.filter.known_values import KNOWN_VALUES, matches_none, unknown_value
from inspector.filter.lexer import Token
from inspector.filter.match import matcher
from inspector.filter.rows import Rows
from inspector.journal.columns import FIELD_COLUMNS
from inspector.journal.records import RECORD_TYPES, Record
from inspector.jsonrpc.event_kinds import LEGACY_EVENT_ALIASES

Getter = Callable[[Record], Any]
Alternatives = Callable[[str], Iterable[str]]


def _as_written(pattern: str) -> Iterable[str]:
    return (pattern,)


@dataclass(frozen=True, slots=True)
class Field:
    one: Mapping[str, Getter] = field(default_factory=dict)  # record type → its value
    many: Mapping[str, Getter] = field(default_factory=dict)  # record type → values, any may match
    alternatives: Alternatives = _as_written  # the patterns a written pattern stands for


def _method_names(pattern: str) -> Iterable[str]:
    # Exchanges say hook.before_tool, decisions say before_tool: either spelling finds both.
    bare = pattern[5:] if pattern[:5].lower() == "hook." else pattern
    return (bare, f"hook.{bare}")


def _kind_names(pattern: str) -> Iterable[str]:
    return (pattern, LEGACY_EVENT_ALIASES.get(pattern.lower(), pattern))


def _severity_names(pattern: str) -> Iterable[str]:
    # Events say "warn", findings say "warning": either word finds both.
    synonyms = {"warn": "warning", "warning": "warn"}
    return (pattern, synonyms.get(pattern.lower(), pattern))


def _source_names(pattern: str) -> Iterable[str]:
    # `source:relay` also finds relay:NAME.
    return (pattern,) if ":" in pattern else (pattern, f"{pattern}:*")


ALTERNATIVES: dict[str, Alternatives] = {
    "method": _method_names,
    "source": _source_names,
    "kind": _kind_names,
    "severity": _severity_names,
}
FIELDS: dict[str, Field] = {
    name: Field(column.one, column.many, ALTERNATIVES.get(name, _as_written))
    for name, column in FIELD_COLUMNS.items()
}
FIELD_NAMES = (*FIELDS, "marked", "type")
MARKED_VALUES = ("yes", "no")


_WITH_FINDINGS = frozenset({"exchange", "event", "noise"})


def _finding_for_kind(kind: str) -> Specialised:
    if kind not in _WITH_FINDINGS:
        return False
    return _has_findings


def _has_findings(record: Any) -> bool:
    findings = record.findings
    return isinstance(findings, (list, tuple)) and bool(findings)


def _has_finding_codes(values: Any) -> bool:
    return isinstance(values, tuple) and bool(values)


def _findings_over_rows(rows: Rows, within: bytes) -> bytes:
    return rows.column("finding", _has_finding_codes, within)


HAS_FINDING = Plan(_finding_for_kind, _findings_over_rows)  # the bare word `finding`


def compile_field(token: Token) -> Plan:
    name = token.name.lower()
    if not name:
        raise FilterError("expected a field name before ':' (quote text that has a ':')", token.pos)
    if not token.value and token.text.endswith(":"):
        raise FilterError(f"expected a value after '{token.name}:'", token.value_pos)
    if name == "type":
        return _type_term(token)
    spec = FIELDS.get(name)
    if spec is None:
        raise FilterError(unknown_value("field", token.name, FIELD_NAMES), token.pos)
    patterns = tuple(spec.alternatives(token.value))
    known = KNOWN_VALUES.get(name)
    if known is not None and matches_none(patterns, known):
        raise FilterError(unknown_value(name, token.value, known), token.value_pos)
    return _field_plan(name, spec, patterns)


def marked_term(token: Token, marked: Collection[int]) -> Plan:
    """`marked:yes` / `marked:no`: the rows a person marked in the list (their seqs in
    `marked`, read when a record is tested, so later marks count)."""
    value = token.value.lower()
    if value not in MARKED_VALUES:
        raise FilterError(unknown_value("marked", token.value, MARKED_VALUES), token.value_pos)
    wanted = value == "yes"

    def test(record: Record) -> bool:
        return (record.seq in marked) is wanted

    def over_rows(rows: Rows, within: bytes) -> bytes:
        held = rows.seqs(marked, within)
        return held if wanted else rows.minus(within, held)

    return Plan(lambda _kind: test, over_rows)


def _type_term(token: Token) -> Plan:
    match = matcher((token.value,))
    names = frozenset(name for name in RECORD_TYPES if match(name))
    if not names:
        raise FilterError(unknown_value("record type", token.value, RECORD_TYPES), token.value_pos)
    return Plan(names.__contains__, lambda rows, within: rows.kind_named(names, within))


def _field_plan(name: str, spec: Field, patterns: tuple[str, ...]) -> Plan:
    """Test the value a record type has for the field; a type without the field is False.
    Over the index, the same matcher tests the column's values (a tuple: any of them)."""

    def per_kind(kind: str) -> Specialised:
        get = spec.one.get(kind)
        if get is not None:
            return matcher(patterns, get)
        get = spec.many.get(kind)
        if get is None:
            return False
        return _any_value(get, matcher(patterns))

    match = matcher(patterns)

    def value_matches(value: Any) -> bool:
        return any(map(match, value)) if isinstance(value, tuple) else match(value)

    def over_rows(rows: Rows, within: bytes) -> bytes:
        return rows.column(name, value_matches, within)

    return Plan(per_kind, over_rows)


def _any_value(get: Getter, match: Callable[[Any], bool]) -> Callable[[Record], bool]:
    return lambda record: any(map(match, get(record)))
