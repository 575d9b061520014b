"""Typed reads of config values: each returns the value or raises a ConfigError at its key."""

from __future__ import annotations

import json
import shlex
from collections.abc import Callable, Mapping
from typing import TypeVar

from inspector.config.document import Document, KeyPath
from inspector.config.errors import ConfigError

T = TypeVar("T")
D = TypeVar("D")  # a default of its own type: `()` or None where `want` reads a tuple or a str
Want = Callable[[Document, KeyPath, object], T]


def field(
    doc: Document, path: KeyPath, entry: Mapping[str, object], key: str, want: Want[T], default: D
) -> T | D:
    """`entry[key]` read with `want`, or `default` when the key is absent."""
    if key not in entry:
        return default
    return want(doc, (*path, key), entry[key])


def want_map(doc: Document, path: KeyPath, value: object) -> dict[str, object]:
    if not isinstance(value, dict):
        raise _mismatch(doc, path, _map_word(doc), value)
    return value


def want_str(doc: Document, path: KeyPath, value: object) -> str:
    if not isinstance(value, str):
        raise _mismatch(doc, path, "a string", value)
    return value


def want_int(doc: Document, path: KeyPath, value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise _mismatch(doc, path, "an integer", value)
    return value


def want_bool(doc: Document, path: KeyPath, value: object) -> bool:
    if not isinstance(value, bool):
        raise _mismatch(doc, path, "true or false", value)
    return value


def want_str_list(doc: Document, path: KeyPath, value: object) -> tuple[str, ...]:
    if isinstance(value, str):
        raise _not_a_list(doc, path, [value])
    if not isinstance(value, list):
        raise _mismatch(doc, path, "a list of strings", value)
    return tuple(want_str(doc, (*path, index), item) for index, item in enumerate(value))


def want_command(doc: Document, path: KeyPath, value: object) -> tuple[str, ...]:
    """An argv list; a shell-style string gets the list it should have been."""
    if isinstance(value, str):
        try:
            argv = shlex.split(value)
        except ValueError:
            argv = value.split()
        raise _not_a_list(doc, path, argv)
    return want_str_list(doc, path, value)


def want_env(doc: Document, path: KeyPath, value: object) -> tuple[tuple[str, str], ...]:
    """A map of strings, as sorted (name, value) pairs."""
    env = want_map(doc, path, value)
    return tuple(sorted((name, want_str(doc, (*path, name), text)) for name, text in env.items()))


def describe(doc: Document, value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return f"a boolean ({str(value).lower()})"
    if isinstance(value, int):
        return f"an integer ({value})"
    if isinstance(value, float):
        return f"a number ({value})"
    if isinstance(value, str):
        shown = value if len(value) <= 40 else value[:37] + "..."
        return f"a string ({json.dumps(shown)})"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return _map_word(doc)
    return f"a {type(value).__name__}"


def _map_word(doc: Document) -> str:
    return "an object" if doc.syntax == "json" else "a map"


def _mismatch(doc: Document, path: KeyPath, expected: str, value: object) -> ConfigError:
    hint = ""
    if expected == "a string" and isinstance(value, (int, float)):
        hint = " (quote it to make it a string)"
    return doc.error(path, f"expected {expected}, got {describe(doc, value)}{hint}")


def _not_a_list(doc: Document, path: KeyPath, items: list[str]) -> ConfigError:
    message = f"expected a list of strings, got a string; write it as {json.dumps(items)}"
    return doc.error(path, message)
