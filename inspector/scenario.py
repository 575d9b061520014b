"""Scenario files: scripted agent turns (LLM replies and tool results), so no LLM is needed."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import yaml
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from inspector.config.errors import ConfigError
from inspector.config.files import read_config_text
from inspector.config.yaml_loader import GuardedLoader, YamlLimitError

DEFAULT_SESSION = "scenario"
DEFAULT_CHANNEL = "cli"
DEFAULT_MODEL = "scenario-model"
DEFAULT_RESULT = "ok"

_STR_TAG = "tag:yaml.org,2002:str"
_NULL_TAG = "tag:yaml.org,2002:null"
_JSON_TYPES = {bool: "boolean", int: "integer", float: "number", str: "string"}

T = TypeVar("T")


@dataclass(frozen=True)
class ToolSpec:
    """A tool definition offered to the LLM."""

    name: str
    description: str = ""
    parameters: dict[str, Any] = field(default_factory=lambda: {"type": "object", "properties": {}})


@dataclass(frozen=True)
class ScriptedCall:
    """A tool call the LLM makes, and what the tool answers."""

    tool: str
    arguments: dict[str, Any] = field(default_factory=dict)
    result: str = DEFAULT_RESULT
    error: str | None = None  # set when the tool fails: for_llm is the error, is_error is true

    @property
    def is_error(self) -> bool:
        return self.error is not None

    @property
    def for_llm(self) -> str:
        return self.error if self.error is not None else self.result


@dataclass(frozen=True)
class Round:
    """One LLM reply."""

    content: str = ""
    tool_calls: tuple[ScriptedCall, ...] = ()
    tokens: int | None = None  # Codex: the token usage the model reports with it (compaction)
    # Gemini CLI: the content as the model streams it, chunk by chunk (None: the host's default)
    chunks: tuple[str, ...] | None = None


@dataclass(frozen=True)
class Turn:
    user: str
    rounds: tuple[Round, ...]
    model: str | None = None


@dataclass(frozen=True)
class Scenario:
    name: str
    turns: tuple[Turn, ...]
    session: str = DEFAULT_SESSION
    channel: str = DEFAULT_CHANNEL
    model: str = DEFAULT_MODEL
    system: str | None = None
    tools: tuple[ToolSpec, ...] | None = None  # None: derived from the calls
    file: str = ""
    claude_code: str | None = None  # the Claude Code release a Claude Code session plays
    permission_mode: str | None = None  # Claude Code: its --permission-mode for the session
    allowed_tools: tuple[str, ...] = ()  # Claude Code: its --allowedTools (permission rules)

    def model_for(self, turn: Turn) -> str:
        return turn.model or self.model

    def tool_specs(self) -> tuple[ToolSpec, ...]:
        """The declared tools, or one per tool the scenario calls, typed from its arguments."""
        if self.tools is not None:
            return self.tools
        properties: dict[str, dict[str, dict[str, str]]] = {}
        for call in self.calls():
            props = properties.setdefault(call.tool, {})
            for key, value in call.arguments.items():
                props.setdefault(key, _json_schema_type(value))
        return tuple(
            ToolSpec(name, parameters={"type": "object", "properties": props})
            for name, props in properties.items()
        )

    def calls(self) -> list[ScriptedCall]:
        return [call for turn in self.turns for rnd in turn.rounds for call in rnd.tool_calls]


def _json_schema_type(value: object) -> dict[str, str]:
    if isinstance(value, dict):
        return {"type": "object"}
    if isinstance(value, list):
        return {"type": "array"}
    name = _JSON_TYPES.get(type(value))
    return {"type": name} if name else {}


def load_scenario(path: str | Path) -> Scenario:
    """Read a scenario file; every problem is a ConfigError naming file, line and key."""
    return parse_scenario(read_config_text(path), str(path))


def parse_scenario(text: str, file: str = "<scenario>") -> Scenario:
    try:
        loader = GuardedLoader(text)
        try:
            return _Reader(file, loader).scenario(loader.get_single_node())
        finally:
            loader.dispose()
    except YamlLimitError as exc:
        line = exc.problem_mark.line + 1 if exc.problem_mark else None
        raise ConfigError(file, exc.problem, line=line) from None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else None
        raise ConfigError(file, f"invalid YAML: {exc.problem or exc}", line=line) from exc
    except yaml.YAMLError as exc:
        raise ConfigError(file, f"invalid YAML: {exc}") from exc


class _Reader:
    """Walks the composed YAML nodes, so every error can point at its line."""

    def __init__(self, file: str, loader: GuardedLoader):
        self.file = file
        self.loader = loader
        self.declared: set[str] | None = None  # the tool names, when the scenario lists them

    def error(self, node: Node, key: str | None, message: str) -> ConfigError:
        return ConfigError(self.file, message, line=node.start_mark.line + 1, key=key)

    def scenario(self, root: Node | None) -> Scenario:
        if root is None:
            raise ConfigError(self.file, "the scenario is empty", line=1)
        fields = self.mapping(root, None, _SCENARIO_KEYS)
        texts = {name: self.optional_str(fields, name, None) for name in _SCENARIO_TEXTS}
        allowed: list[str] = []
        if "allowed_tools" in fields:
            allowed = self.items(fields["allowed_tools"], "allowed_tools", self.text)
        tools = None
        if "tools" in fields:
            tools = tuple(self.items(fields["tools"], "tools", self.tool))
            self.declared = {tool.name for tool in tools}
        if "turns" not in fields:
            raise self.error(root, "turns", "is required")
        turns = self.items(fields["turns"], "turns", self.turn)
        if not turns:
            raise self.error(fields["turns"][1], "turns", "needs at least one turn")
        return Scenario(
            name=texts["name"] or Path(self.file).stem,
            turns=tuple(turns),
            session=texts["session"] or DEFAULT_SESSION,
            channel=texts["channel"] or DEFAULT_CHANNEL,
            model=texts["model"] or DEFAULT_MODEL,
            system=texts["system"],
            tools=tools,
            file=self.file,
            claude_code=texts["claude_code"],
            permission_mode=texts["permission_mode"],
            allowed_tools=tuple(allowed),
        )

    def turn(self, node: Node, key: str) -> Turn:
        fields = self.mapping(node, key, _TURN_KEYS)
        if "user" not in fields:
            raise self.error(node, f"{key}.user", "is required")
        if "rounds" not in fields:
            raise self.error(node, f"{key}.rounds", "is required: a turn needs at least one round")
        rounds = self.items(fields["rounds"], f"{key}.rounds", self.round)
        rounds_node = fields["rounds"][1]
        if not rounds:
            raise self.error(rounds_node, f"{key}.rounds", "needs at least one round")
        for index, rnd in enumerate(rounds):
            where = f"{key}.rounds[{index}]"
            last = index == len(rounds) - 1
            if last and rnd.tool_calls:
                raise self.error(
                    rounds_node.value[index],
                    where,
                    "the last round is the LLM's final answer and cannot have tool_calls",
                )
            if not last and not rnd.tool_calls:
                raise self.error(
                    rounds_node.value[index],
                    where,
                    "a round without tool_calls ends the turn, so the rounds after it never run",
                )
        return Turn(
            user=self.required_str(fields, "user", key),
            rounds=tuple(rounds),
            model=self.optional_str(fields, "model", key),
        )

    def round(self, node: Node, key: str) -> Round:
        fields = self.mapping(node, key, _ROUND_KEYS)
        calls: tuple[ScriptedCall, ...] = ()
        if "tool_calls" in fields:
            calls = tuple(self.items(fields["tool_calls"], f"{key}.tool_calls", self.call))
        content = self.optional_str(fields, "content", key)
        chunks = None
        if "chunks" in fields and not _is_null(fields["chunks"][1]):
            chunks = tuple(self.items(fields["chunks"], f"{key}.chunks", self.text))
            if content is not None and "".join(chunks) != content:
                node = fields["chunks"][1]
                raise self.error(node, f"{key}.chunks", "must join to the round's content")
        return Round(
            content="".join(chunks or ()) if content is None else content,
            tool_calls=calls,
            tokens=self.optional_count(fields, "tokens", key),
            chunks=chunks,
        )

    def call(self, node: Node, key: str) -> ScriptedCall:
        fields = self.mapping(node, key, _CALL_KEYS)
        if "tool" not in fields:
            raise self.error(node, f"{key}.tool", "is required")
        if "result" in fields and "error" in fields:
            raise self.error(
                fields["error"][0], f"{key}.error", "give either result or error, not both"
            )
        tool = self.required_str(fields, "tool", key)
        if not tool:
            raise self.error(fields["tool"][1], f"{key}.tool", "must not be empty")
        if self.declared is not None and tool not in self.declared:
            raise self.error(fields["tool"][1], f"{key}.tool", f"{tool!r} is not one of the tools")
        result = self.optional_str(fields, "result", key)
        return ScriptedCall(
            tool=tool,
            arguments=self.optional_json_mapping(fields, "arguments", key),
            result=DEFAULT_RESULT if result is None else result,
            error=self.optional_str(fields, "error", key),
        )

    def tool(self, node: Node, key: str) -> ToolSpec:
        fields = self.mapping(node, key, _TOOL_KEYS)
        if "name" not in fields:
            raise self.error(node, f"{key}.name", "is required")
        name = self.required_str(fields, "name", key)
        description = self.optional_str(fields, "description", key) or ""
        if "parameters" not in fields:
            return ToolSpec(name, description)
        return ToolSpec(name, description, self.json_mapping(fields, "parameters", key))

    # --- node helpers ---------------------------------------------------------------------

    def mapping(
        self, node: Node, key: str | None, allowed: frozenset[str]
    ) -> dict[str, tuple[Node, Node]]:
        """The mapping's entries by key name, as (key node, value node); rejects unknown keys."""
        if not isinstance(node, MappingNode):
            raise self.error(node, key, "must be a mapping")
        fields: dict[str, tuple[Node, Node]] = {}
        for key_node, value_node in node.value:
            name = key_node.value if isinstance(key_node, ScalarNode) else None
            where = _join(key, str(name))
            if name not in allowed:
                known = ", ".join(sorted(allowed))
                raise self.error(key_node, where, f"unknown key (expected one of: {known})")
            if name in fields:
                raise self.error(key_node, where, "is given twice")
            fields[name] = (key_node, value_node)
        return fields

    def items(self, entry: tuple[Node, Node], key: str, read: Callable[[Node, str], T]) -> list[T]:
        node = entry[1]
        if _is_null(node):
            return []
        if not isinstance(node, SequenceNode):
            raise self.error(node, key, "must be a list")
        return [read(item, f"{key}[{index}]") for index, item in enumerate(node.value)]

    def text(self, node: Node, key: str) -> str:
        """A list item that must be a string."""
        if not (isinstance(node, ScalarNode) and node.tag == _STR_TAG):
            raise self.error(node, key, "must be a string")
        return node.value

    def required_str(self, fields: dict[str, tuple[Node, Node]], name: str, key: str | None) -> str:
        node = fields[name][1]
        if not (isinstance(node, ScalarNode) and node.tag == _STR_TAG):
            raise self.error(node, _join(key, name), "must be a string")
        return node.value

    def optional_str(
        self, fields: dict[str, tuple[Node, Node]], name: str, key: str | None
    ) -> str | None:
        if name not in fields or _is_null(fields[name][1]):
            return None
        return self.required_str(fields, name, key)

    def optional_count(
        self, fields: dict[str, tuple[Node, Node]], name: str, key: str
    ) -> int | None:
        if name not in fields or _is_null(fields[name][1]):
            return None
        node = fields[name][1]
        try:
            value = self.loader.construct_object(node) if isinstance(node, ScalarNode) else None
        except Exception:  # PyYAML raises ValueError, KeyError... on `!!int lots`, `!!bool maybe`
            value = None
        if type(value) is not int or value < 0:
            raise self.error(node, _join(key, name), "must be a whole number, 0 or more")
        return value

    def optional_json_mapping(
        self, fields: dict[str, tuple[Node, Node]], name: str, key: str
    ) -> dict[str, Any]:
        if name not in fields or _is_null(fields[name][1]):
            return {}
        return self.json_mapping(fields, name, key)

    def json_mapping(
        self, fields: dict[str, tuple[Node, Node]], name: str, key: str
    ) -> dict[str, Any]:
        node = fields[name][1]
        where = _join(key, name)
        if not isinstance(node, MappingNode):
            raise self.error(node, where, "must be a mapping")
        try:
            value = self.loader.construct_object(node, deep=True)
        except Exception as exc:  # PyYAML raises ValueError, KeyError...: 2001-13-01, !!bool maybe
            raise self.error(node, where, f"holds a value YAML cannot read ({exc})") from exc
        try:
            json.dumps(value, allow_nan=False)
        except (TypeError, ValueError) as exc:
            raise self.error(node, where, f"must hold only JSON values ({exc})") from exc
        return value


def _is_null(node: Node) -> bool:
    return isinstance(node, ScalarNode) and node.tag == _NULL_TAG


def _join(key: str | None, name: str) -> str:
    return name if key is None else f"{key}.{name}"


_SCENARIO_TEXTS = (
    "name",
    "session",
    "channel",
    "model",
    "system",
    "claude_code",
    "permission_mode",
)
_SCENARIO_KEYS = frozenset({*_SCENARIO_TEXTS, "tools", "turns", "allowed_tools"})
_TURN_KEYS = frozenset({"user", "model", "rounds"})
_ROUND_KEYS = frozenset({"content", "tool_calls", "tokens", "chunks"})
_CALL_KEYS = frozenset({"tool", "arguments", "result", "error"})
_TOOL_KEYS = frozenset({"name", "description", "parameters"})
