"""Collapsible JSON for the detail tabs: the same text as `json_dumps(value, indent=2)`, except
that each folded object or array is one line (`"key": {…3 keys}`), and for every line the
container it opens and the one it lies in, so a key press on a line can fold what it means."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from inspector.safe_text import json_dumps

JsonPath = tuple[str | int, ...]  # keys and indexes from the top; () is the value itself
INDENT = "  "


@dataclass(slots=True)
class FoldedJson:
    lines: list[str] = field(default_factory=list)
    opens: list[JsonPath | None] = field(default_factory=list)  # the container a line starts
    within: list[JsonPath] = field(default_factory=list)  # the innermost container around it

    def target(self, line: int) -> JsonPath | None:
        """What folding at `line` folds or unfolds: the container the line starts, else the one
        it lies in; None past the end or on a scalar at the top."""
        if not 0 <= line < len(self.lines):
            return None
        opened = self.opens[line]
        return opened if opened is not None else self.within[line]

    def line_of(self, path: JsonPath) -> int:
        """The line that starts the container at `path` (0 when it is not shown)."""
        return next((i for i, opened in enumerate(self.opens) if opened == path), 0)


def fold_json(value: Any, folded: frozenset[JsonPath] = frozenset()) -> FoldedJson:
    """`value` as indented JSON lines with the containers at `folded` shown as one line each."""
    out = FoldedJson()
    for text, opens, within in _lines(value, (), (), "", folded, 0):
        out.lines.append(text)
        out.opens.append(opens)
        out.within.append(within)
    return out


def nested_containers(value: Any) -> frozenset[JsonPath]:
    """The paths of the objects and arrays directly inside `value`: folding them all leaves an
    outline of its top level."""
    if isinstance(value, dict):
        return frozenset((key,) for key, item in value.items() if _is_open(item))
    if isinstance(value, list):
        return frozenset((index,) for index, item in enumerate(value) if _is_open(item))
    return frozenset()


Line = tuple[str, JsonPath | None, JsonPath]


def _lines(
    value: Any,
    path: JsonPath,
    parent: JsonPath,
    prefix: str,
    folded: frozenset[JsonPath],
    depth: int,
) -> Iterator[Line]:
    pad = INDENT * depth
    if not _is_open(value):
        yield f"{pad}{prefix}{json_dumps(value, default=str)}", None, parent
        return
    opening, closing = ("{", "}") if isinstance(value, dict) else ("[", "]")
    if path in folded:
        noun = "key" if isinstance(value, dict) else "item"
        count = f"{len(value)} {noun}{'' if len(value) == 1 else 's'}"
        yield f"{pad}{prefix}{opening}…{count}{closing}", path, parent
        return
    yield f"{pad}{prefix}{opening}", path, parent
    items = (
        [(key, f"{json_dumps(str(key))}: ", item) for key, item in value.items()]
        if isinstance(value, dict)
        else [(index, "", item) for index, item in enumerate(value)]
    )
    for number, (key, label, item) in enumerate(items):
        child = list(_lines(item, (*path, key), path, label, folded, depth + 1))
        if number < len(items) - 1:
            text, opens, within = child[-1]
            child[-1] = (text + ",", opens, within)
        yield from child
    yield f"{pad}{closing}", None, path


def _is_open(value: Any) -> bool:
    """An object or array with something in it: `{}` and `[]` stay one line, as json writes them."""
    return isinstance(value, (dict, list)) and bool(value)
