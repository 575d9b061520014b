"""What each field of a saved record may hold, read from the record classes' own type hints, so a
journal line with a value of the wrong type is an error naming its key, not a crash later in a
view, a replay or an export."""

from __future__ import annotations

import json
import math
import types
from collections.abc import Callable
from dataclasses import dataclass, fields
from functools import cache
from typing import Any, Union, get_args, get_origin, get_type_hints

from inspector.findings.finding import Finding

# datetime cannot show a time from the year 10000 on
LAST_TIMESTAMP = 253_402_300_800


class RecordFieldError(ValueError):
    """`str()` is `key: what is wrong`, or only what is wrong when no key is at fault."""

    def __init__(self, key: str | None, message: str) -> None:
        super().__init__(f"{key}: {message}" if key else message)
        self.key = key


@dataclass(frozen=True)
class Shape:
    expected: str  # "a string"
    plural: str  # "strings", for a list of them
    fits: Callable[[object], bool]
    item: Shape | None = None  # for a list: the shape of each item


def _is_number(value: object) -> bool:
    return type(value) in (int, float) and math.isfinite(value)  # type: ignore[arg-type]


def _is_finding(value: object) -> bool:
    return type(value) is dict and all(
        type(value.get(key, "")) is str
        for key in ("code", "severity", "message", "host_does", "picoclaw")
    )


_BASIC: dict[object, Shape] = {
    str: Shape("a string", "strings", lambda value: type(value) is str),
    int: Shape("a whole number", "whole numbers", lambda value: type(value) is int),
    float: Shape("a number", "numbers", _is_number),
    bool: Shape("true or false", "true or false values", lambda value: type(value) is bool),
    dict: Shape("an object", "objects", lambda value: type(value) is dict),
    Finding: Shape("a finding (an object of strings)", "findings", _is_finding),
    Any: Shape("any value", "values", lambda value: True),
}

_BY_NAME: dict[str, Shape] = {
    "seq": Shape("a whole number from 0 up", "", lambda value: type(value) is int and value >= 0),
    "ts": Shape(
        "a time in seconds since 1970 (a number)",
        "",
        lambda value: _is_number(value) and 0 <= value < LAST_TIMESTAMP,  # type: ignore[operator]
    ),
}


def _shape(hint: object) -> Shape:
    origin, args = get_origin(hint), get_args(hint)
    if origin in (Union, types.UnionType) and type(None) in args:
        (inner,) = (_shape(arg) for arg in args if arg is not type(None))
        return Shape(
            f"{inner.expected} or null",
            f"{inner.plural} or nulls",
            lambda value: value is None or inner.fits(value),
        )
    if origin is list:
        item = _shape(args[0])
        return Shape(
            f"a list of {item.plural}",
            f"lists of {item.plural}",
            lambda value: type(value) is list and all(item.fits(each) for each in value),
            item,
        )
    return _BASIC[origin or hint]


@cache
def shapes(cls: type) -> dict[str, Shape]:
    """Field name -> Shape, for every field of a record class."""
    hints = get_type_hints(cls)
    return {item.name: _BY_NAME.get(item.name) or _shape(hints[item.name]) for item in fields(cls)}


@cache
def fits_by_field(cls: type) -> dict[str, Callable[[object], bool]]:
    """Field name -> its shape's test, for the loop that checks every field of every record."""
    return {name: shape.fits for name, shape in shapes(cls).items()}


def check_field(shape: Shape, key: str, value: object) -> None:
    if shape.fits(value):
        return
    if shape.item is not None and type(value) is list:  # name the first item at fault
        index = next(index for index, each in enumerate(value) if not shape.item.fits(each))
        check_field(shape.item, f"{key}[{index}]", value[index])
    raise RecordFieldError(key, f"expected {shape.expected}, got {described(value)}")


def described(value: object) -> str:
    """A JSON value as a person would name it: `a string ("yesterday")`, `5`, `a list`."""
    if isinstance(value, str):
        shown = value if len(value) <= 40 else value[:37] + "..."
        return f"a string ({json.dumps(shown, ensure_ascii=False)})"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return json.dumps(value)
