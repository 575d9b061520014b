"""PyYAML's safe loader with two limits, so a hostile file fails fast with a line number:
nesting depth (deep documents exhaust the stack) and what aliases expand to (an alias bomb
turns a few lines into billions of values for whoever walks the result).

Events come from libyaml when PyYAML has it (ten times faster than the pure-Python scanner);
nodes are composed here either way, so the limits apply to both."""

from __future__ import annotations

import yaml
from yaml.composer import Composer
from yaml.constructor import SafeConstructor
from yaml.events import AliasEvent
from yaml.nodes import MappingNode, Node, SequenceNode
from yaml.resolver import Resolver

try:
    from yaml.cyaml import CParser
except ImportError:  # PyYAML built without libyaml
    CParser = None

MAX_DEPTH = 100
MAX_ALIASED_VALUES = 100_000


class YamlLimitError(yaml.MarkedYAMLError):
    """Valid YAML past one of the limits; `problem` says which, `problem_mark` where."""


class _PureParser(yaml.reader.Reader, yaml.scanner.Scanner, yaml.parser.Parser):
    def __init__(self, stream: str) -> None:
        yaml.reader.Reader.__init__(self, stream)
        yaml.scanner.Scanner.__init__(self)
        yaml.parser.Parser.__init__(self)


class GuardedLoader(Composer, CParser or _PureParser, SafeConstructor, Resolver):  # type: ignore[misc]
    def __init__(self, stream: str) -> None:
        (CParser or _PureParser).__init__(self, stream)
        Composer.__init__(self)
        SafeConstructor.__init__(self)
        Resolver.__init__(self)
        self._depth = 0
        self._aliased_values = 0
        # id(node) -> how many values the node stands for once every alias is expanded
        self._sizes: dict[int, int] = {}

    def compose_node(self, parent: Node | None, index: object) -> Node:
        event = self.peek_event()
        if self.check_event(AliasEvent):
            node = super().compose_node(parent, index)
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
            node = super().compose_node(parent, index)
        finally:
            self._depth -= 1
        self._sizes[id(node)] = 1 + sum(self._sizes.get(id(child), 1) for child in _children(node))
        return node


def _children(node: Node) -> list[Node]:
    if isinstance(node, MappingNode):
        return [part for pair in node.value for part in pair]
    if isinstance(node, SequenceNode):
        return node.value
    return []
