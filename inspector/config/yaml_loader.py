"""PyYAML's safe loader with two limits, so a hostile file fails fast with a line number:
nesting depth (deep documents exhaust the stack) and what aliases expand to (an alias bomb
turns a few lines into billions of values for whoever walks the result).

Events come from libyaml when PyYAML has it (ten times faster than the pure-Python scanner);
nodes are composed here either way, so the limits apply to both."""

from __future__ import annotations

from typing import Any, cast

import yaml
from yaml.composer import Composer
from yaml.constructor import SafeConstructor
from yaml.error import Mark
from yaml.events import AliasEvent
from yaml.nodes import MappingNode, Node, SequenceNode
from yaml.resolver import Resolver

MAX_DEPTH = 100
MAX_ALIASED_VALUES = 100_000


class YamlLimitError(yaml.MarkedYAMLError):
    """Valid YAML past one of the limits; `problem` says which, `problem_mark` where."""

    problem: str

    def __init__(self, problem: str, problem_mark: Mark | None) -> None:
        super().__init__(problem=problem, problem_mark=problem_mark)


class _PureParser(yaml.reader.Reader, yaml.scanner.Scanner, yaml.parser.Parser):
    def __init__(self, stream: str) -> None:
        yaml.reader.Reader.__init__(self, stream)
        yaml.scanner.Scanner.__init__(self)
        yaml.parser.Parser.__init__(self)


def _event_parser() -> type:
    try:
        from yaml._yaml import CParser
    except ImportError:  # PyYAML built without libyaml
        return _PureParser
    return CParser


# Any: mypy cannot follow a base class chosen at import time.
_EventParser: Any = _event_parser()


class GuardedLoader(Composer, _EventParser, SafeConstructor, Resolver):
    def __init__(self, stream: str) -> None:
        _EventParser.__init__(self, stream)
        Composer.__init__(self)
        SafeConstructor.__init__(self)
        Resolver.__init__(self)
        self._depth = 0
        self._aliased_values = 0
        # id(node) -> how many values the node stands for once every alias is expanded
        self._sizes: dict[int, int] = {}

    def get_single_node(self) -> Node | None:
        try:
            return super().get_single_node()
        except YamlLimitError:
            raise
        except yaml.MarkedYAMLError as error:
            # libyaml 0.2.5+ stops deep flow collections itself (at 1,000) while scanning, before
            # the composer reaches our limit: the same limit, said the same way
            if error.problem and "maximum nesting depth" in error.problem:
                problem = f"nested more than {MAX_DEPTH} levels deep"
                raise YamlLimitError(problem, error.problem_mark) from None
            raise

    def compose_node(self, parent: Node | None, index: object) -> Node:
        event = self.peek_event()
        if self.check_event(AliasEvent):
            node = self._compose(parent, index)
            self._aliased_values += self._sizes.get(id(node), 1)
            if self._aliased_values > MAX_ALIASED_VALUES:
                problem = f"aliases expand to more than {MAX_ALIASED_VALUES:,} values"
                raise YamlLimitError(problem=problem, problem_mark=event.start_mark)
            return node
        if self._depth >= MAX_DEPTH:
            problem = f"nested more than {MAX_DEPTH} levels deep"
            raise YamlLimitError(problem=problem, problem_mark=event.start_mark)
        self._depth += 1
        try:
            node = self._compose(parent, index)
        finally:
            self._depth -= 1
        self._sizes[id(node)] = 1 + sum(self._sizes.get(id(child), 1) for child in _children(node))
        return node

    def _compose(self, parent: Node | None, index: object) -> Node:
        # PyYAML's stubs are wrong here: a mapping's key is composed with the index None and its
        # value with the key's node, and a node always comes back (or an error is raised).
        return cast(Node, super().compose_node(parent, index))  # type: ignore[arg-type]


def _children(node: Node) -> list[Node]:
    if isinstance(node, MappingNode):
        return [part for pair in node.value for part in pair]
    if isinstance(node, SequenceNode):
        return node.value
    return []
