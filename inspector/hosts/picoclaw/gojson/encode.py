"""json.Marshal of a typed Go value: struct fields in declaration order, `omitempty` honoured,
map keys sorted, nil slices as null, floats and strings spelled as Go spells them."""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal
from typing import Any

from inspector.hosts.picoclaw.gojson.decode import RawValue
from inspector.hosts.picoclaw.gojson.syntax import JsonObject, Number
from inspector.hosts.picoclaw.gojson.types import (
    GoTime,
    GoType,
    Interface,
    Map,
    Pointer,
    RawMessage,
    Scalar,
    Slice,
    Struct,
    Time,
)
from inspector.jsonrpc.messages import go_json

Write = Callable[[Any, list[str]], None]
_WRITERS: dict[int, tuple[GoType, Write]] = {}


def marshal(value: Any, go_type: GoType) -> str:
    out: list[str] = []
    _writer(go_type)(value, out)
    return "".join(out)


def marshal_any(value: Any) -> str:
    """An `any` holding what Go's decoder builds (dict, list, str, float, bool, None)."""
    return "".join(_any_parts(value))


def _writer(go_type: GoType) -> Write:
    """The writer of one Go type, built once: walking the type on every value cost most of a
    relayed call's time. Keyed by identity, since hashing a deep frozen type costs a walk too."""
    entry = _WRITERS.get(id(go_type))
    if entry is None or entry[0] is not go_type:
        entry = (go_type, _build(go_type))
        _WRITERS[id(go_type)] = entry
    return entry[1]


def _build(go_type: GoType) -> Write:
    if isinstance(go_type, Struct):
        return _struct_writer(go_type)
    if isinstance(go_type, Pointer):
        return _nullable(_writer(go_type.elem))
    if isinstance(go_type, Slice):
        return _nullable(_slice_writer(_writer(go_type.elem)))
    if isinstance(go_type, Map):
        return _nullable(_map_writer(_writer(go_type.elem)))
    if isinstance(go_type, Time):
        return _nullable(lambda value, out: out.append(f'"{value.text}"'))
    if isinstance(go_type, RawMessage):
        return _nullable(lambda value, out: out.extend(_raw_parts(value.node)))
    if isinstance(go_type, Interface):
        return lambda value, out: out.extend(_any_parts(value))
    spell = _SPELLERS.get(go_type.kind, str)
    return _nullable(lambda value, out: out.append(spell(value)))


def _nullable(write: Write) -> Write:
    def write_or_null(value: Any, out: list[str]) -> None:
        if value is None:
            out.append("null")
        else:
            write(value, out)

    return write_or_null


def _struct_writer(go_type: Struct) -> Write:
    fields = [
        (field.json, _writer(field.type), field.omitempty, field.type) for field in go_type.fields
    ]

    def write(value: Any, out: list[str]) -> None:
        separator = '{"'
        for name, write_field, omitempty, field_type in fields:
            field_value = value[name]
            if omitempty and _empty(field_value, field_type):
                continue
            out.append(separator + name + '":')
            separator = ',"'
            write_field(field_value, out)
        out.append("{}" if separator == '{"' else "}")

    return write


def _slice_writer(write_item: Write) -> Write:
    def write(value: Any, out: list[str]) -> None:
        out.append("[")
        for index, item in enumerate(value):
            if index:
                out.append(",")
            write_item(item, out)
        out.append("]")

    return write


def _map_writer(write_item: Write) -> Write:
    def write(value: Any, out: list[str]) -> None:
        separator = "{"
        for key in sorted(value):
            out.append(separator + go_json(key) + ":")
            separator = ","
            write_item(value[key], out)
        out.append("{}" if separator == "{" else "}")

    return write


def _go_bool(value: bool) -> str:
    return "true" if value else "false"


def _empty(value: Any, go_type: GoType) -> bool:
    """Go's isEmptyValue: false, 0, "", nil, or a slice or map of length 0; never a struct."""
    if isinstance(go_type, (Struct, Time)):
        return False
    if isinstance(go_type, Scalar):
        return not value
    if isinstance(go_type, (Slice, Map)):
        return not value
    return value is None


def _any_parts(value: Any) -> Any:
    if value is None:
        yield "null"
    elif value is True:
        yield "true"
    elif value is False:
        yield "false"
    elif isinstance(value, str):
        yield go_json(value)
    elif isinstance(value, float):
        yield go_float(value)
    elif isinstance(value, int):
        yield str(value)
    elif isinstance(value, GoTime):
        yield f'"{value.text}"'
    elif isinstance(value, list):
        yield "["
        for index, item in enumerate(value):
            if index:
                yield ","
            yield from _any_parts(item)
        yield "]"
    else:
        yield "{"
        for index, key in enumerate(sorted(value)):
            yield ("," if index else "") + go_json(key) + ":"
            yield from _any_parts(value[key])
        yield "}"


def _raw_parts(node: Any) -> Any:
    """A RawMessage as Go writes it: compacted, members in their order, numbers as spelled."""
    if isinstance(node, JsonObject):
        yield "{"
        for index, (key, child) in enumerate(node):
            yield ("," if index else "") + go_json(key) + ":"
            yield from _raw_parts(child)
        yield "}"
    elif isinstance(node, Number):
        yield str(node)
    elif isinstance(node, RawValue):
        yield from _raw_parts(node.node)
    else:
        yield from _any_parts(node)


def go_float(number: float) -> str:
    """strconv's shortest spelling, in 'f' form unless the exponent is below -6 or above 20,
    with Go's exponent cleanup (1e-07 is written 1e-7)."""
    digits = Decimal(repr(number)).normalize()
    size = abs(number)
    if size != 0 and (size < 1e-6 or size >= 1e21):
        sign, mantissa, _ = digits.as_tuple()
        exponent = digits.adjusted()
        body = str(mantissa[0]) + ("." + "".join(map(str, mantissa[1:])) if mantissa[1:] else "")
        mark = f"e-{-exponent}" if exponent < 0 else f"e+{exponent:02d}"
        return ("-" if sign else "") + body + mark
    return format(digits, "f")


_SPELLERS: dict[str, Callable[[Any], str]] = {
    "string": go_json,
    "bool": _go_bool,
    "float": go_float,
}  # integers are spelled by str
