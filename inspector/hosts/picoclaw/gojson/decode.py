"""json.Unmarshal into a typed Go value: keys match struct fields case-insensitively (the last
matching key wins, and a repeated object key merges into what the earlier one filled), unknown
keys are dropped, null leaves a value as it is (nil for pointers, slices, maps and `any`), and a
wrong type anywhere fails the whole decode with Go's error text."""

from __future__ import annotations

import re
from typing import Any

from inspector.hosts.picoclaw.gojson.syntax import JsonObject, Number, clean, node_from_plain, parse
from inspector.hosts.picoclaw.gojson.time import TimeError, parse_time
from inspector.hosts.picoclaw.gojson.types import (
    Field,
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

_INTEGER = re.compile(r"-?\d+")
INT_RANGE = {"int": (-(1 << 63), (1 << 63) - 1), "uint": (0, (1 << 64) - 1)}


class GoDecodeError(ValueError):
    """The error json.Unmarshal returns, with Go's text."""


class Index(int):
    """An array index in an error's field path."""


Path = tuple[str | Index, ...]


def unmarshal(data: bytes, go_type: GoType) -> Any:
    """`data` decoded into a fresh zero `go_type`."""
    return decode_node(parse(data), go_type)


def decode_node(node: Any, go_type: GoType) -> Any:
    """An already parsed JSON value (see syntax.parse) decoded into a fresh zero `go_type`."""
    decoder = _Decoder(go_type)
    try:
        value = decoder.value(go_type, node, zero(go_type), ())
    except TimeError as error:  # an Unmarshaler's error ends the decode at once
        raise GoDecodeError(str(error)) from None
    if decoder.first_error:
        raise GoDecodeError(decoder.first_error)
    return value


def json_kind(node: Any) -> str:
    """What a parsed JSON value is, in the words of Go's type errors."""
    if isinstance(node, JsonObject):
        return "object"
    if isinstance(node, list):
        return "array"
    if isinstance(node, Number):
        return "number"
    if isinstance(node, str):
        return "string"
    return "bool"


class _Decoder:
    def __init__(self, root: GoType) -> None:
        self.root = root.short_name if isinstance(root, Struct) else ""
        self.first_error = ""

    def value(self, go_type: GoType, node: Any, current: Any, path: Path) -> Any:
        if node is None:
            nil_able = (Pointer, Slice, Map, Interface)
            return None if isinstance(go_type, nil_able) else current
        if isinstance(go_type, Pointer):
            start = current if current is not None else zero(go_type.elem)
            return self.value(go_type.elem, node, start, path)
        if isinstance(go_type, Interface):
            return self.any(node, path)
        if isinstance(go_type, RawMessage):
            return RawValue(node)
        if isinstance(go_type, Time):
            return self.time(node)
        if isinstance(go_type, Scalar):
            return self.scalar(go_type, node, current, path)
        if isinstance(go_type, Struct):
            return self.struct(go_type, node, current, path)
        if isinstance(go_type, Map):
            return self.map(go_type, node, current, path)
        return self.slice(go_type, node, current, path)

    def struct(self, go_type: Struct, node: Any, current: Any, path: Path) -> Any:
        if not isinstance(node, JsonObject):
            return self.mismatch(json_kind(node), go_type, current, path)
        filled = dict(current)
        for key, child in node:
            field = field_for(go_type, clean(key))
            if field is not None:
                value = self.value(field.type, child, filled[field.json], (*path, field.json))
                filled[field.json] = value
        return filled

    def map(self, go_type: Map, node: Any, current: Any, path: Path) -> Any:
        if not isinstance(node, JsonObject):
            return self.mismatch(json_kind(node), go_type, current, path)
        filled = dict(current) if current is not None else {}
        for key, child in node:
            name = clean(key)
            filled[name] = self.value(go_type.elem, child, zero(go_type.elem), (*path, name))
        return filled

    def slice(self, go_type: Slice, node: Any, current: Any, path: Path) -> Any:
        if isinstance(node, JsonObject) or not isinstance(node, list):
            return self.mismatch(json_kind(node), go_type, current, path)
        earlier = current or []
        return [
            self.value(
                go_type.elem,
                child,
                earlier[index] if index < len(earlier) else zero(go_type.elem),
                (*path, Index(index)),
            )
            for index, child in enumerate(node)
        ]

    def scalar(self, go_type: Scalar, node: Any, current: Any, path: Path) -> Any:
        kind = json_kind(node)
        if go_type.kind == "string" and kind == "string":
            return clean(node)
        if go_type.kind == "bool" and kind == "bool":
            return node
        if kind != "number" or go_type.kind in ("string", "bool"):
            return self.mismatch(kind, go_type, current, path)
        if go_type.kind == "float":
            number = float(node)
            if number in (float("inf"), float("-inf")):
                return self.mismatch(f"number {node}", go_type, current, path)
            return number
        low, high = INT_RANGE[go_type.kind]
        if not _INTEGER.fullmatch(node) or not low <= int(node) <= high:
            return self.mismatch(f"number {node}", go_type, current, path)
        return int(node)

    def any(self, node: Any, path: Path) -> Any:
        """What Go's decoder puts into an `any`: map[string]any, []any, string, float64, bool."""
        if isinstance(node, JsonObject):
            built: dict[str, Any] = {}
            for key, child in node:
                name = clean(key)
                built[name] = self.any(child, (*path, name))
            return built
        if isinstance(node, list):
            return [self.any(child, (*path, Index(i))) for i, child in enumerate(node)]
        if isinstance(node, Number):
            number = float(node)
            if number in (float("inf"), float("-inf")):
                return self.mismatch(f"number {node}", _FLOAT64_NAME, None, path)
            return number
        if isinstance(node, str):
            return clean(node)
        return node

    def time(self, node: Any) -> Any:
        # Go hands time.Time the value's raw text; a string is re-quoted from its decoded form
        raw = f'"{node}"' if json_kind(node) == "string" else "0"
        return parse_time(raw.encode("utf-8", "surrogatepass"))

    def mismatch(self, what: str, go_type: GoType | str, current: Any, path: Path) -> Any:
        """Go remembers the first type error, goes on decoding and fails at the end."""
        if not self.first_error:
            type_name = go_type if isinstance(go_type, str) else go_type.name
            self.first_error = _type_error(what, type_name, self.root, path)
        return current


_FLOAT64_NAME = "float64"


def _type_error(what: str, type_name: str, root: str, path: Path) -> str:
    lead = f"json: cannot unmarshal {what} into"
    if not path:
        return f"{lead} Go value of type {type_name}"
    where = ".".join(str(part) for part in (root, *path))
    if isinstance(path[-1], Index):
        return f"{lead} {where} of type {type_name}"
    return f"{lead} Go struct field {where} of type {type_name}"


class RawValue:
    """A json.RawMessage member: the value kept unparsed for a later typed decode. `plain` is
    the value as plain json.loads read it, when the fast path read the line (see fast_decode);
    `node` is then built from it on first use."""

    __slots__ = ("_node", "plain")

    def __init__(self, node: Any) -> None:
        self._node = node
        self.plain: Any = None

    @classmethod
    def of_plain(cls, plain: Any) -> RawValue:
        raw = cls(None)
        raw.plain = plain
        return raw

    @property
    def node(self) -> Any:
        if self._node is None:
            self._node = node_from_plain(self.plain)
        return self._node

    def is_object(self) -> bool:
        """Whether the value is a JSON object, without building `node` for it."""
        if self._node is None:
            return isinstance(self.plain, dict)
        return isinstance(self._node, JsonObject)


_FIELD_INDEX: dict[int, tuple[dict[str, Field], dict[str, Field]]] = {}


def field_for(go_type: Struct, key: str) -> Field | None:
    """Go's rule: the field with exactly this JSON name, else one that matches it folded."""
    index = _FIELD_INDEX.get(id(go_type))
    if index is None:
        exact = {field.json: field for field in go_type.fields}
        folded: dict[str, Field] = {}
        for field in go_type.fields:
            folded.setdefault(fold(field.json), field)
        index = _FIELD_INDEX[id(go_type)] = (exact, folded)
    exact, folded = index
    return exact.get(key) or folded.get(fold(key))


def fold(name: str) -> str:
    """Go's case folding for field names: each rune upper(lower(r)), one rune for one rune."""
    if name.isascii():
        return name.upper()
    return "".join(_fold_rune(char) for char in name)


def _fold_rune(char: str) -> str:
    lower = char.lower()
    lower = lower if len(lower) == 1 else char
    upper = lower.upper()
    return upper if len(upper) == 1 else lower
