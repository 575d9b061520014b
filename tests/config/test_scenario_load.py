from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from inspector.config.errors import ConfigError
from inspector.scenario import (
    DEFAULT_CHANNEL,
    DEFAULT_MODEL,
    DEFAULT_SESSION,
    ScriptedCall,
    ToolSpec,
    load_scenario,
    parse_scenario,
)

DEMO = """\
name: Demo turn
session: demo-session
channel: cli
model: gpt-4o-mini
system: "You are a helpful coding agent."
turns:
  - user: "What's the weather in Lisbon, and clean up the build folder?"
    model: gpt-4o
    rounds:
      - content: "Let me check."
        tool_calls:
          - tool: get_weather
            arguments: {city: Lisbon}
            result: "sunny"
          - tool: exec
            arguments: {command: "rm -rf ./build"}
            error: "permission denied"
      - content: "Done."
"""


def parse(text: str):
    return parse_scenario(textwrap.dedent(text), "s.yaml")


def error_of(text: str) -> ConfigError:
    with pytest.raises(ConfigError) as info:
        parse(text)
    assert info.value.file == "s.yaml"
    return info.value


def test_demo_loads_from_file(tmp_path: Path) -> None:
    path = tmp_path / "demo.yaml"
    path.write_text(DEMO)
    scenario = load_scenario(path)
    assert scenario.name == "Demo turn"
    assert scenario.session == "demo-session"
    assert scenario.system == "You are a helpful coding agent."
    assert scenario.file == str(path)
    (turn,) = scenario.turns
    assert scenario.model_for(turn) == "gpt-4o"
    first, last = turn.rounds
    assert first.content == "Let me check."
    assert first.tool_calls == (
        ScriptedCall("get_weather", {"city": "Lisbon"}, result="sunny"),
        ScriptedCall("exec", {"command": "rm -rf ./build"}, error="permission denied"),
    )
    assert first.tool_calls[1].is_error
    assert first.tool_calls[1].for_llm == "permission denied"
    assert last.content == "Done." and last.tool_calls == ()


def test_defaults_and_derived_tools() -> None:
    scenario = parse(
        """
        turns:
          - user: hi
            rounds:
              - tool_calls:
                  - tool: read
                    arguments: {path: a.txt, lines: 3, opts: {x: 1}}
                  - tool: read
                    arguments: {path: b.txt, all: true}
                  - tool: now
              - content: bye
        """
    )
    assert scenario.name == "s"
    assert (scenario.session, scenario.channel, scenario.model) == (
        DEFAULT_SESSION,
        DEFAULT_CHANNEL,
        DEFAULT_MODEL,
    )
    assert scenario.system is None
    assert scenario.model_for(scenario.turns[0]) == DEFAULT_MODEL
    call = scenario.turns[0].rounds[0].tool_calls[2]
    assert (call.arguments, call.result, call.is_error) == ({}, "ok", False)
    assert scenario.tool_specs() == (
        ToolSpec(
            "read",
            parameters={
                "type": "object",
                "properties": {
                    "path": {"type": "string"},
                    "lines": {"type": "integer"},
                    "opts": {"type": "object"},
                    "all": {"type": "boolean"},
                },
            },
        ),
        ToolSpec("now", parameters={"type": "object", "properties": {}}),
    )


def test_declared_tools_are_used_as_given() -> None:
    scenario = parse(
        """
        tools:
          - name: exec
            description: Run a shell command
            parameters: {type: object, properties: {command: {type: string}}}
          - name: noop
        turns:
          - user: go
            rounds:
              - tool_calls: [{tool: exec, arguments: {command: ls}, result: ""}]
              - content: done
        """
    )
    assert scenario.tool_specs() == (
        ToolSpec(
            "exec",
            "Run a shell command",
            {"type": "object", "properties": {"command": {"type": "string"}}},
        ),
        ToolSpec("noop"),
    )
    assert scenario.turns[0].rounds[0].tool_calls[0].result == ""


@pytest.mark.parametrize(
    ("text", "line", "key", "message"),
    [
        ("turns: [\n  - user: x\n", 2, None, "invalid YAML"),
        ("turns:\n  - user: 'x\n", 3, None, "invalid YAML"),
        ("a: 1\n---\nb: 2\n", 2, None, "invalid YAML"),
        ("", 1, None, "empty"),
        ("- 1\n- 2\n", 1, None, "must be a mapping"),
        ("name: x\n", 1, "turns", "is required"),
        ("turns: []\n", 1, "turns", "at least one turn"),
        ("turns: {user: x}\n", 1, "turns", "must be a list"),
        ("name: x\nturn: []\n", 2, "turn", "unknown key"),
        ("name: 5\nturns: []\n", 1, "name", "must be a string"),
        ("name: a\nname: b\nturns: []\n", 2, "name", "given twice"),
        ("turns:\n  - 3\n", 2, "turns[0]", "must be a mapping"),
        ("turns:\n  - rounds: [{content: x}]\n", 2, "turns[0].user", "is required"),
        ("turns:\n  - user: hi\n", 2, "turns[0].rounds", "at least one round"),
        ("turns:\n  - user: hi\n    rounds: []\n", 3, "turns[0].rounds", "at least one round"),
        ("turns:\n  - user: [hi]\n    rounds: [{}]\n", 2, "turns[0].user", "must be a string"),
        ("turns:\n  - user: hi\n    mode: x\n", 3, "turns[0].mode", "unknown key"),
        (
            "turns:\n  - user: hi\n    rounds:\n      - content: 1.5\n",
            4,
            "turns[0].rounds[0].content",
            "must be a string",
        ),
        (
            "turns:\n  - user: hi\n    rounds:\n      - content: a\n      - content: b\n",
            4,
            "turns[0].rounds[0]",
            "rounds after it never run",
        ),
        (
            "turns:\n  - user: hi\n    rounds:\n      - tool_calls: [{tool: t}]\n",
            4,
            "turns[0].rounds[0]",
            "cannot have tool_calls",
        ),
        (
            "turns:\n  - user: hi\n    rounds:\n      - tool_calls: {tool: t}\n      - {}\n",
            4,
            "turns[0].rounds[0].tool_calls",
            "must be a list",
        ),
        (
            "turns:\n  - user: hi\n    rounds:\n      - tool_calls:\n"
            "          - arguments: {}\n      - {}\n",
            5,
            "turns[0].rounds[0].tool_calls[0].tool",
            "is required",
        ),
        (
            "turns:\n  - user: hi\n    rounds:\n      - tool_calls:\n"
            "          - tool: ''\n      - {}\n",
            5,
            "turns[0].rounds[0].tool_calls[0].tool",
            "must not be empty",
        ),
        (
            "turns:\n  - user: hi\n    rounds:\n      - tool_calls:\n"
            "          - tool: t\n            result: a\n            error: b\n      - {}\n",
            7,
            "turns[0].rounds[0].tool_calls[0].error",
            "either result or error",
        ),
        (
            "turns:\n  - user: hi\n    rounds:\n      - tool_calls:\n"
            "          - tool: t\n            arguments: [1]\n      - {}\n",
            6,
            "turns[0].rounds[0].tool_calls[0].arguments",
            "must be a mapping",
        ),
        (
            "turns:\n  - user: hi\n    rounds:\n      - tool_calls:\n"
            "          - tool: t\n            arguments: {when: 2024-01-01}\n      - {}\n",
            6,
            "turns[0].rounds[0].tool_calls[0].arguments",
            "JSON values",
        ),
        (
            "turns:\n  - user: hi\n    rounds:\n      - tool_calls:\n"
            "          - tool: t\n            result: 42\n      - {}\n",
            6,
            "turns[0].rounds[0].tool_calls[0].result",
            "must be a string",
        ),
        (
            "turns:\n  - user: hi\n    rounds:\n      - tool_calls:\n"
            "          - tool: t\n            output: x\n      - {}\n",
            6,
            "turns[0].rounds[0].tool_calls[0].output",
            "unknown key",
        ),
        (
            "tools:\n  - name: a\nturns:\n  - user: hi\n    rounds:\n"
            "      - tool_calls: [{tool: b}]\n      - {}\n",
            6,
            "turns[0].rounds[0].tool_calls[0].tool",
            "not one of the tools",
        ),
        ("tools:\n  - description: d\nturns: []\n", 2, "tools[0].name", "is required"),
        ("tools:\n  - name: a\n    params: {}\nturns: []\n", 3, "tools[0].params", "unknown key"),
        (
            "tools:\n  - name: a\n    parameters: object\nturns: []\n",
            3,
            "tools[0].parameters",
            "must be a mapping",
        ),
        ("tools: exec\nturns: []\n", 1, "tools", "must be a list"),
        (
            "turns:\n  - user: hi\n    rounds:\n      - tool_calls:\n"
            "          - tool: t\n            arguments: {a: !!bool maybe}\n      - {}\n",
            6,
            "turns[0].rounds[0].tool_calls[0].arguments",
            "YAML cannot read",
        ),
    ],
)
def test_errors_name_line_and_key(text: str, line: int, key: str | None, message: str) -> None:
    error = error_of(text)
    assert (error.line, error.key) == (line, key)
    assert message in error.message
    assert str(error).startswith(f"s.yaml:{line}:")


def test_unreadable_file_is_a_config_error(tmp_path: Path) -> None:
    missing = tmp_path / "nope.yaml"
    with pytest.raises(ConfigError) as info:
        load_scenario(missing)
    assert info.value.file == str(missing)
    assert "cannot read" in info.value.message
