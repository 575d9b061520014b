"""A config.toml read as a Document: its data (tomllib) and the line of each table and key, so a
problem under [hooks] is named file:line:key as in a JSON file. Lines are found by reading the
table headers ([a.b], [[a.b]]: each [[...]] is the next item of its array) and the `key =`
lines under them; an inline value's inner keys take the line of the key that holds them."""

from __future__ import annotations

import re
import tomllib

from inspector.config.document import Document, KeyPath
from inspector.config.errors import ConfigError

_HEADER = re.compile(r"^\s*(\[\[?)\s*([^\]]+?)\s*\]\]?\s*(#.*)?$")
_KEY = re.compile(r'^\s*("(?:[^"\\]|\\.)*"|[A-Za-z0-9_-]+)\s*=')
_PART = re.compile(r'"((?:[^"\\]|\\.)*)"|\'([^\']*)\'|([A-Za-z0-9_-]+)')


def parse_toml(file: str, text: str) -> Document:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        line = re.search(r"line (\d+)", str(error))
        raise ConfigError(
            file, f"invalid TOML: {error}", line=int(line.group(1)) if line else None
        ) from None
    return Document(file, data, _lines(text), "json")


def _lines(text: str) -> dict[KeyPath, int]:
    lines: dict[KeyPath, int] = {}
    items: dict[KeyPath, int] = {}  # each array of tables met so far: its last item's index
    table: KeyPath = ()
    for number, line in enumerate(text.splitlines(), 1):
        if header := _HEADER.match(line):
            names = _names(header.group(2))
            table = (*_resolved(names[:-1], items), names[-1])
            if header.group(1) == "[[":
                lines.setdefault(table, number)
                items[table] = items.get(table, -1) + 1
                table = (*table, items[table])
            lines.setdefault(table, number)
        elif key := _KEY.match(line):
            lines.setdefault((*table, *_names(key.group(1))), number)
    return lines


def _resolved(names: list[str], items: dict[KeyPath, int]) -> KeyPath:
    """The path of the table `names` stand for: [[hooks.PreToolUse.hooks]] sits in the last
    [[hooks.PreToolUse]]."""
    path: KeyPath = ()
    for name in names:
        path = (*path, name)
        if path in items:
            path = (*path, items[path])
    return path


def _names(dotted: str) -> list[str]:
    return [
        next(part for part in match.groups() if part is not None)
        for match in _PART.finditer(dotted)
    ]
