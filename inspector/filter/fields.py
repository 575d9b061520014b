"""Field terms (`hook:gate`, `finding:late-*`): which value each record type offers for a field."""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass, field
from operator import attrgetter
from typing import Any

from inspector.filter.combine import Plan, Specialised
from inspector.filter.errors import FilterError
from inspector.filter.known_values import KNOWN_VALUES, matches_none, unknown_value
from inspector.filter.lexer import Token
from inspector.filter.match import matcher
from inspector.host_names import PICOCLAW
from inspector.journal.records import RECORD_TYPES, Record
from inspector.protocol.event_kinds import LEGACY_EVENT_ALIASES

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
    # A record from before hosts were named follows PicoClaw's rules, as its label says.
    return record.host or PICOCLAW


FIELDS: dict[str, Field] = {
    "hook": Field(
        one={t: _hook for t in ("exchange", "stderr", "noise", "lifecycle")}
        | {"decision": attrgetter("by")},
        many={"event": _delivered_hooks, "reload": _reloaded_hooks},
    ),
    "method": Field(
        one={"exchange": attrgetter("method"), "decision": attrgetter("stage")},
        alternatives=_method_names,
    ),
    "action": Field(one={"exchange": attrgetter("action"), "decision": attrgetter("verdict")}),
    "status": Field(one={"exchange": attrgetter("status")}),
    "state": Field(one={"lifecycle": attrgetter("state")}),
    "source": Field(
        one={t: attrgetter("source") for t in ("exchange", "event", "decision")},
        alternatives=_source_names,
    ),
    "tool": Field(
        one={
            "exchange": _exchange_tool,
            "event": _nested("payload", "payload", "Tool"),
            "decision": attrgetter("tool"),
        }
    ),
    "turn": Field(
        one={
            "exchange": attrgetter("turn"),
            "event": _nested("payload", "scope", "turn_id"),
            "decision": attrgetter("turn"),
        }
    ),
    "kind": Field(one={"event": attrgetter("kind")}, alternatives=_kind_names),
    "severity": Field(
        many={
            "event": _event_severities,
            "exchange": _finding_severities,
            "noise": _finding_severities,
        },
        alternatives=_severity_names,
    ),
    "finding": Field(many={t: _finding_values("code") for t in ("exchange", "event", "noise")}),
    "host": Field(one=dict.fromkeys(RECORD_TYPES, _host)),
}
FIELD_NAMES = (*FIELDS, "marked", "type")
MARKED_VALUES = ("yes", "no")


_WITH_FINDINGS = frozenset({"exchange", "event", "noise"})


def has_finding(kind: str) -> Specialised:
    if kind not in _WITH_FINDINGS:
        return False
    return _has_findings


def _has_findings(record: Any) -> bool:
    return bool(_items(record.findings))


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
    return _field_plan(spec, patterns)


def marked_term(token: Token, marked: Collection[int]) -> Plan:
    """`marked:yes` / `marked:no`: the rows a person marked in the list (their seqs in
    `marked`, read when a record is tested, so later marks count)."""
    value = token.value.lower()
    if value not in MARKED_VALUES:
        raise FilterError(unknown_value("marked", token.value, MARKED_VALUES), token.value_pos)
    wanted = value == "yes"

    def test(record: Record) -> bool:
        return (record.seq in marked) is wanted

    return lambda _kind: test


def _type_term(token: Token) -> Plan:
    match = matcher((token.value,))
    names = frozenset(name for name in RECORD_TYPES if match(name))
    if not names:
        raise FilterError(unknown_value("record type", token.value, RECORD_TYPES), token.value_pos)
    return names.__contains__


def _field_plan(spec: Field, patterns: tuple[str, ...]) -> Plan:
    """Test the value a record type has for the field; a type without the field is False."""

    def plan(kind: str) -> Specialised:
        get = spec.one.get(kind)
        if get is not None:
            return matcher(patterns, get)
        get = spec.many.get(kind)
        if get is None:
            return False
        return _any_value(get, matcher(patterns))

    return plan


def _any_value(get: Getter, match: Callable[[Any], bool]) -> Callable[[Record], bool]:
    return lambda record: any(map(match, get(record)))
