"""json.Marshal of a typed Go value: struct fields in declaration order, `omitempty` honoured,
map keys sorted, nil slices as null, floats and strings spelled as Go spells them."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from inspector.hosts.picoclaw.go_decode import RawValue
from inspector.hosts.picoclaw.go_syntax import JsonObject, Number
from inspector.hosts.picoclaw.go_types import (
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
from inspector.protocol.jsonrpc import go_json


def marshal(value: Any, go_type: GoType) -> str:
    return "".join(_parts(value, go_type))


def marshal_any(value: Any) -> str:
    """An `any` holding what Go's decoder builds (dict, list, str, float, bool, None)."""
    return "".join(_any_parts(value))


def _parts(value: Any, go_type: GoType) -> Any:
    if isinstance(go_type, Struct):
        yield "{"
        first = True
        for field in go_type.fields:
            field_value = value[field.json]
            if field.omitempty and _empty(field_value, field.type):
                continue
            yield ('"' if first else ',"') + field.json + '":'
            first = False
            yield from _parts(field_value, field.type)
        yield "}"
    elif value is None:
        yield "null"
    elif isinstance(go_type, Pointer):
        yield from _parts(value, go_type.elem)
    elif isinstance(go_type, Slice):
        yield "["
        for index, item in enumerate(value):
            if index:
                yield ","
            yield from _parts(item, go_type.elem)
        yield "]"
    elif isinstance(go_type, Map):
        yield "{"
        for index, key in enumerate(sorted(value)):
            yield ("," if index else "") + go_json(key) + ":"
            yield from _parts(value[key], go_type.elem)
        yield "}"
    elif isinstance(go_type, Time):
        yield f'"{value.text}"'
    elif isinstance(go_type, RawMessage):
        yield from _raw_parts(value.node)
    elif isinstance(go_type, Interface):
        yield from _any_parts(value)
    else:
        yield _scalar(value, go_type)


def _scalar(value: Any, go_type: Scalar) -> str:
    if go_type.kind == "string":
        return go_json(value)
    if go_type.kind == "bool":
        return "true" if value else "false"
    if go_type.kind == "float":
        return go_float(value)
    return str(value)


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
