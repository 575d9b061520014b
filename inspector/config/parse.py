"""Parse YAML and JSON into a Document that knows the line of every key and list item."""

from __future__ import annotations

import json
import re
import sys
from bisect import bisect_right

import yaml
from yaml.nodes import MappingNode, Node, SequenceNode
from yaml.reader import ReaderError

from inspector.config.document import Document, KeyPath, format_key
from inspector.config.errors import ConfigError
from inspector.config.yaml_loader import MAX_DEPTH, GuardedLoader, YamlLimitError

TOO_DEEP = "nested too deeply"


def parse_yaml(file: str, text: str) -> Document:
    try:
        loader = GuardedLoader(text)
        try:
            root = loader.get_single_node()
            if root is None:
                raise ConfigError(file, "the file is empty")
            builder = _YamlBuilder(file, loader)
            data = builder.build(root, ())
        finally:
            loader.dispose()
    except YamlLimitError as error:
        raise ConfigError(file, error.problem, line=_line_of(error)) from None
    except yaml.MarkedYAMLError as error:
        raise _yaml_syntax_error(file, error) from None
    except ReaderError as error:
        line = text.count("\n", 0, error.position) + 1
        message = f"invalid YAML: character #x{error.character:04x}: {error.reason}"
        raise ConfigError(file, message, line=line) from None
    except RecursionError:
        raise ConfigError(file, f"{TOO_DEEP} (or an alias refers to itself)") from None
    return Document(file, data, builder.lines, "yaml")


def _yaml_syntax_error(file: str, error: yaml.MarkedYAMLError) -> ConfigError:
    mark = error.problem_mark or error.context_mark
    problem = ": ".join(part for part in (error.context, error.problem) if part)
    where = f" (column {mark.column + 1})" if mark else ""
    return ConfigError(file, f"invalid YAML: {problem}{where}", line=_line_of(error))


def _line_of(error: yaml.MarkedYAMLError) -> int | None:
    mark = error.problem_mark or error.context_mark
    return mark.line + 1 if mark else None


class _YamlBuilder:
    """Builds plain values from composed nodes, so duplicate keys and key lines stay visible."""

    def __init__(self, file: str, loader: GuardedLoader) -> None:
        self.file = file
        self.loader = loader
        self.lines: dict[KeyPath, int] = {}
        # An alias shares its anchor's node: build it once, so alias bombs stay cheap.
        self.built: dict[int, object] = {}

    def build(self, node: Node, path: KeyPath) -> object:
        self.lines.setdefault(path, node.start_mark.line + 1)
        if id(node) not in self.built:
            self.built[id(node)] = self._build(node, path)
        return self.built[id(node)]

    def _build(self, node: Node, path: KeyPath) -> object:
        if isinstance(node, MappingNode):
            return self._mapping(node, path)
        if isinstance(node, SequenceNode):
            return [self.build(item, (*path, index)) for index, item in enumerate(node.value)]
        return self._scalar(node, path)

    def _mapping(self, node: MappingNode, path: KeyPath) -> dict[str, object]:
        result: dict[str, object] = {}
        for key_node, value_node in node.value:
            key = self._key(key_node, path)
            if key in result:
                first = self.lines[(*path, key)]
                message = f'duplicate key "{key}" (first on line {first})'
                raise self._error(key_node, (*path, key), message)
            self.lines[(*path, key)] = key_node.start_mark.line + 1
            result[key] = self.build(value_node, (*path, key))
        return result

    def _key(self, node: Node, path: KeyPath) -> str:
        if isinstance(node, (MappingNode, SequenceNode)):
            raise self._error(node, path, f"keys must be strings, got a {node.id}")
        key = self._scalar(node, path)
        if not isinstance(key, str):
            message = f"keys must be strings, got {node.value} (quote it to make it one)"
            raise self._error(node, path, message)
        return key

    def _scalar(self, node: Node, path: KeyPath) -> object:
        try:
            return self.loader.construct_object(node, deep=True)
        except (
            Exception
        ) as error:  # PyYAML raises ValueError etc., not only YAMLError, on `!!int x`
            detail = getattr(error, "problem", None) or error
            message = f"cannot read {_shortened(node.value)!r} as {node.tag}: {detail}"
            raise self._error(node, path, message) from None

    def _error(self, node: Node, path: KeyPath, message: str) -> ConfigError:
        line = node.start_mark.line + 1
        return ConfigError(self.file, message, line=line, key=format_key(path) or None)


def _shortened(text: str, limit: int = 60) -> str:
    return text if len(text) <= limit else f"{text[: limit - 3]}..."


_JSON_SPACE = re.compile(r"[ \t\n\r]*")
_JSON_NUMBER = re.compile(r"-?[0-9]+")


def parse_json(file: str, text: str) -> Document:
    locator = _JsonLocator(file, text)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        message = f"invalid JSON: {error.msg} (column {error.colno})"
        raise ConfigError(file, message, line=error.lineno) from None
    except (RecursionError, ValueError) as error:
        # Nested too deeply, or a number too long for int(). The text before it is valid JSON,
        # so the locator walks up to it and raises the error that names its line and key.
        locator.locate()
        raise ConfigError(file, f"cannot read the JSON: {error}") from None
    return Document(file, data, locator.locate(), "json")


class _JsonLocator:
    """Walks JSON text already known to be valid up to its first problem, noting the line of
    each key and item; stops with a ConfigError at a value nested too deeply or too long."""

    def __init__(self, file: str, text: str) -> None:
        self.file = file
        self.text = text
        self.newlines = [match.start() for match in re.finditer("\n", text)]
        self.decoder = json.JSONDecoder()
        self.lines: dict[KeyPath, int] = {}

    def locate(self) -> dict[KeyPath, int]:
        self._value(0, ())
        return self.lines

    def _line(self, pos: int) -> int:
        return bisect_right(self.newlines, pos) + 1

    def _skip(self, pos: int) -> int:
        match = _JSON_SPACE.match(self.text, pos)
        assert match is not None  # the pattern matches the empty string
        return match.end()

    def _value(self, pos: int, path: KeyPath) -> int:
        """Note the line of the value at `pos` and return where it ends."""
        pos = self._skip(pos)
        self.lines.setdefault(path, self._line(pos))
        opener = self.text[pos]
        if opener in "{[" and len(path) >= MAX_DEPTH:
            # the key names where the deep part starts; all of it would fill the screen
            raise self._error(pos, path[:3], f"{TOO_DEEP}: more than {MAX_DEPTH} levels")
        if opener == "{":
            return self._members(pos, path)
        if opener == "[":
            return self._items(pos, path)
        try:
            return self.decoder.raw_decode(self.text, pos)[1]
        except ValueError:  # the text is valid JSON, so only int() can refuse it
            digits = len(_JSON_NUMBER.match(self.text, pos)[0])  # type: ignore[index]
            limit = sys.get_int_max_str_digits()
            message = f"a number of {digits:,} digits is too long (at most {limit:,})"
            raise self._error(pos, path, message) from None

    def _error(self, pos: int, path: KeyPath, message: str) -> ConfigError:
        return ConfigError(self.file, message, line=self._line(pos), key=format_key(path) or None)

    def _members(self, pos: int, path: KeyPath) -> int:
        pos = self._skip(pos + 1)
        while self.text[pos] != "}":
            key, end = self.decoder.raw_decode(self.text, pos)
            self.lines[(*path, key)] = self._line(pos)
            pos = self._value(self._skip(end) + 1, (*path, key))
            pos = self._after_element(pos)
        return pos + 1

    def _items(self, pos: int, path: KeyPath) -> int:
        pos = self._skip(pos + 1)
        index = 0
        while self.text[pos] != "]":
            pos = self._after_element(self._value(pos, (*path, index)))
            index += 1
        return pos + 1

    def _after_element(self, pos: int) -> int:
        """Skip the comma after an element; stop on the closing bracket."""
        pos = self._skip(pos)
        return self._skip(pos + 1) if self.text[pos] == "," else pos
