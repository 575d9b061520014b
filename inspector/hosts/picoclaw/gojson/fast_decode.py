"""The fast path of the Go-faithful decoder: a value that plain `json.loads` already read (or
plain Python values, as a stage's params are) decoded into a Go type directly, for the common
case where that gives exactly what decode gives. Anything that could differ (a key that only
matches a field case-folded, an escaped lone surrogate, a number of the wrong kind or out of
range, a wrong type anywhere, a time Go would refuse) raises NotPlain, and the caller takes the
full path, which also writes Go's error."""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable
from typing import Any

from inspector.hosts.picoclaw.gojson.decode import INT_RANGE, RawValue, field_for
from inspector.hosts.picoclaw.gojson.syntax import Number
from inspector.hosts.picoclaw.gojson.time import TimeError, parse_time
from inspector.hosts.picoclaw.gojson.types import (
    GoType,
    Interface,
    Map,
    Pointer,
    RawMessage,
    Scalar,
    Slice,
    Struct,
    Time,
    zero,
)

_NIL_ABLE = (Pointer, Slice, Map, Interface, RawMessage)


# A number spelled -0: json.loads reads it as the int 0, Go's float64 as -0 (a match inside a
# string only costs the full path). A lone surrogate needs no check here: _text refuses it.
_MINUS_ZERO = re.compile(rb"(?:^|[:,\[])\s*-0(?![.\deE])")


class NotPlain(Exception):
    """The value may decode differently from Go: use the full path."""


def read_plain(line: bytes) -> Any:
    """One JSON line as plain json.loads reads it, when that is what Go's reader sees: valid
    UTF-8, no duplicate key, no NaN or Infinity, no -0; a float is read
    as the Number it was spelled."""
    if b"-0" in line and _MINUS_ZERO.search(line):
        raise NotPlain
    try:
        return _PLAIN_JSON.decode(line.decode("utf-8"))
    except (ValueError, RecursionError):  # bad UTF-8, bad JSON, a duplicate key, 5,000 digits
        raise NotPlain from None


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    members = dict(pairs)
    if len(members) != len(pairs):
        raise NotPlain  # Go merges or overwrites in its own order
    return members


def _refuse(name: str) -> Any:
    raise NotPlain


_PLAIN_JSON = json.JSONDecoder(
    object_pairs_hook=_unique_keys, parse_float=Number, parse_constant=_refuse
)


def decode_plain(value: Any, go_type: GoType) -> Any:
    """`value` (dict, list, str, int, float, bool, None, or a syntax.Number for a float as
    spelled) decoded into a fresh zero `go_type`, sharing no container with `value`."""
    if value is None:
        return None if isinstance(go_type, _NIL_ABLE) else zero(go_type)
    return _BY_KIND[type(go_type)](value, go_type)


def _pointer(value: Any, go_type: Pointer) -> Any:
    return decode_plain(value, go_type.elem)


def _slice(value: Any, go_type: Slice) -> list[Any]:
    if type(value) is not list:
        raise NotPlain
    elem = go_type.elem
    return [decode_plain(child, elem) for child in value]


def _map(value: Any, go_type: Map) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise NotPlain
    elem = go_type.elem
    return {_key(key): decode_plain(child, elem) for key, child in value.items()}


def _raw(value: Any, go_type: RawMessage) -> RawValue:
    return RawValue.of_plain(value)


# Per struct: each field's JSON name with its type; every field with its zero in field order
# (copied at once; a struct-typed field's, None there, is built afresh each time); and the
# struct-typed fields.
_Plan = tuple[dict[str, GoType], dict[str, Any], tuple[tuple[str, Struct], ...]]
_PLANS: dict[int, _Plan] = {}


def _plan(go_type: Struct) -> _Plan:
    plan = _PLANS.get(id(go_type))
    if plan is None:
        types = {field.json: field.type for field in go_type.fields}
        zeros = {
            name: None if isinstance(kind, Struct) else zero(kind) for name, kind in types.items()
        }
        structs = tuple((name, kind) for name, kind in types.items() if isinstance(kind, Struct))
        plan = _PLANS[id(go_type)] = (types, zeros, structs)
    return plan


def _struct(value: Any, go_type: Struct) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise NotPlain
    types, zeros, structs = _plan(go_type)
    filled = zeros.copy()
    for name, kind in structs:
        filled[name] = zero(kind)
    for key, child in value.items():
        field_type = types.get(key)
        if field_type is None:
            if type(key) is not str or not key.isascii() or field_for(go_type, key):
                raise NotPlain  # a case variant of a field (Go's folding), or not a string
            _any(child)  # an unknown key: Go drops it too, if json.dumps could write it
            continue
        filled[key] = decode_plain(child, field_type)
    return filled


def _scalar(value: Any, go_type: Scalar) -> Any:
    kind = go_type.kind
    if kind == "string":
        return _text(value)
    kind_of_value = type(value)
    if kind == "bool":
        if kind_of_value is not bool:
            raise NotPlain
        return value
    if kind == "float":
        return _float(value)
    low, high = INT_RANGE[kind]
    if kind_of_value is not int or not low <= value <= high:
        raise NotPlain
    return value


def _any(value: Any) -> Any:
    """What Go's decoder puts into an `any`: map[string]any, []any, string, float64, bool."""
    kind = type(value)
    if kind is dict:
        return {_key(key): _any(child) for key, child in value.items()}
    if kind is list:
        return [_any(child) for child in value]
    if kind is bool or value is None:
        return value
    if kind is str:
        return _text(value)
    return _float(value)


def _float(value: Any) -> float:
    kind = type(value)
    if kind is not int and kind is not float and kind is not Number:
        raise NotPlain
    try:
        number = float(value)
    except OverflowError:
        raise NotPlain from None
    if not math.isfinite(number):
        raise NotPlain  # Go refuses the spelling (1e400) or could not be sent it (NaN)
    return number


def _text(value: Any) -> str:
    if type(value) is not str or not (value.isascii() or _no_surrogate(value)):
        raise NotPlain
    return value


def _key(key: Any) -> str:
    if type(key) is not str:
        raise NotPlain  # json.dumps would write an int or a bool key as a string
    return _text(key)


def _no_surrogate(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False  # Go holds U+FFFD where Python keeps the lone surrogate
    return True


def _time(value: Any, go_type: Time) -> Any:
    text = _text(value)
    try:
        return parse_time(f'"{text}"'.encode())
    except TimeError:
        raise NotPlain from None


_BY_KIND: dict[type, Callable[[Any, Any], Any]] = {
    Struct: _struct,
    Scalar: _scalar,
    Pointer: _pointer,
    Interface: lambda value, go_type: _any(value),
    Slice: _slice,
    Map: _map,
    RawMessage: _raw,
    Time: _time,
}
