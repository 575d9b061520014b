"""A small language for Go types, so JSON can be decoded and encoded as encoding/json does into
and out of typed Go values.

Typed values are plain Python values: a struct is a dict holding every field under its JSON
name, a nil pointer, slice, map, interface or RawMessage is None, an empty slice is [], an
interface holds what Go's decoder puts in `any` (dict, list, str, float, bool, None)."""

from __future__ import annotations

import marshal
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Scalar:
    """string, bool, an integer kind or float64; `name` is Go's name for the type."""

    kind: str  # "string", "bool", "int", "uint" or "float"
    name: str
    bits: int = 64


@dataclass(frozen=True, slots=True)
class Interface:
    """`any`: whatever JSON value comes, as Go's decoder builds it."""

    name: str = "interface {}"


@dataclass(frozen=True, slots=True)
class RawMessage:
    """json.RawMessage: the value's bytes, kept as they came."""

    name: str = "json.RawMessage"


@dataclass(frozen=True, slots=True)
class Time:
    """time.Time, which reads and writes itself as an RFC 3339 string."""

    name: str = "time.Time"


@dataclass(frozen=True, slots=True)
class Pointer:
    elem: GoType

    @property
    def name(self) -> str:
        return "*" + self.elem.name


@dataclass(frozen=True, slots=True)
class Slice:
    elem: GoType

    @property
    def name(self) -> str:
        return "[]" + self.elem.name


@dataclass(frozen=True, slots=True)
class Map:
    """map[string]T."""

    elem: GoType

    @property
    def name(self) -> str:
        return "map[string]" + self.elem.name


@dataclass(frozen=True, slots=True)
class Field:
    json: str  # the JSON name (the tag's name, else the Go field name)
    type: GoType
    omitempty: bool = False


@dataclass(frozen=True, slots=True)
class Struct:
    name: str  # package-qualified, e.g. agent.HookMeta
    fields: tuple[Field, ...]

    @property
    def short_name(self) -> str:
        return self.name.rpartition(".")[2]


GoType = Scalar | Interface | RawMessage | Time | Pointer | Slice | Map | Struct

STRING = Scalar("string", "string")
BOOL = Scalar("bool", "bool")
INT = Scalar("int", "int")
INT64 = Scalar("int", "int64")
UINT64 = Scalar("uint", "uint64")
FLOAT64 = Scalar("float", "float64")
ANY = Interface()
RAW = RawMessage()
TIME = Time()

_SCALAR_ZERO: dict[str, Any] = {"string": "", "bool": False, "int": 0, "uint": 0, "float": 0.0}


def zero(go_type: GoType) -> Any:
    """The zero value of `go_type`."""
    if isinstance(go_type, Scalar):
        return _SCALAR_ZERO[go_type.kind]
    if isinstance(go_type, Struct):
        return {field.json: zero(field.type) for field in go_type.fields}
    if isinstance(go_type, Time):
        return ZERO_TIME
    return None


@dataclass(frozen=True, slots=True)
class GoTime:
    """A time.Time as Go writes it (RFC 3339 with nanoseconds): equal text, equal time."""

    text: str


ZERO_TIME = GoTime("0001-01-01T00:00:00Z")


def deep_equal(a: Any, b: Any) -> bool:
    """reflect.DeepEqual on typed values: types must match exactly (true is not 1.0) and a nil
    slice or map is not an empty one."""
    if type(a) is not type(b) or a != b:
        return False  # Python's == is laxer than Go's: what it calls different, Go does too
    try:
        # The same bytes: the same values, of the same types, in the same order. Version 2
        # writes no references, so how often a value is shared cannot make a difference.
        if marshal.dumps(a, 2) == marshal.dumps(b, 2):
            return True
    except ValueError:  # a value marshal cannot write (a GoTime)
        pass
    return _strictly_equal(a, b)


def same_value(a: Any, b: Any) -> bool:
    """Whether two typed values are one value as far as json.Marshal can tell: the same types
    and values in the same order, so they encode to the same bytes (deep_equal also takes -0.0
    for 0.0, which Go writes differently). False when unsure."""
    if a is b:
        return True
    try:
        return type(a) is type(b) and marshal.dumps(a, 2) == marshal.dumps(b, 2)
    except ValueError:  # a value marshal cannot write (a GoTime)
        return False


def _strictly_equal(a: Any, b: Any) -> bool:
    """deep_equal's walk, for values Python calls equal whose bytes differ (1 and 1.0, keys in
    another order, 0.0 and -0.0)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(_strictly_equal(a[key], b[key]) for key in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(_strictly_equal(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)
