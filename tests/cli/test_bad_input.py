"""Hostile files given to the real command: every one ends in exit 2 and one line on stderr that
names the file (and the line and key where there is one), never a traceback, a hang or a full
memory. Each child runs with its address space capped, so a reader that swallows /dev/zero dies
of MemoryError (a traceback) instead of taking the machine's memory; the timeout only catches a
hang (a FIFO nobody writes to), it is not a speed limit."""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from inspector.safe_files import MAX_FILE_BYTES

HANG = 60  # seconds: far beyond any answer on a loaded machine
ADDRESS_SPACE = 2 * 1024**3


def _cap_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (ADDRESS_SPACE, ADDRESS_SPACE))


def hook_inspector(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    """The command run as a user would; `stdin` is written to a pipe that then closes."""
    return subprocess.run(
        [sys.executable, "-m", "inspector", *args],
        capture_output=True,
        text=True,
        timeout=HANG,
        input=stdin,
        stdin=subprocess.DEVNULL if stdin is None else None,
        preexec_fn=_cap_memory,
    )


def refused(*args: str) -> str:
    """Run the command; it must exit 2 with exactly one line on stderr. Returns that line."""
    result = hook_inspector(*args)
    assert "Traceback" not in result.stderr, result.stderr[-2000:]
    assert result.returncode == 2, result.stdout[-500:] + result.stderr[-2000:]
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    return lines[0]


def python_says(code: str) -> Any:
    """What a snippet prints as JSON, run in a child so a read that blocks cannot hang pytest."""
    result = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=HANG,
        stdin=subprocess.DEVNULL,
        preexec_fn=_cap_memory,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    return json.loads(result.stdout)


def fifo(path: Path) -> Path:
    os.mkfifo(path)
    return path


def dev_zero(path: Path) -> Path:
    path.symlink_to("/dev/zero")
    return path


def alias_bomb(levels: int = 9) -> str:
    """The billion laughs in YAML: each anchor a list of nine aliases to the one before."""
    lines = ['a0: &a0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    for level in range(1, levels):
        lines.append(f"a{level}: &a{level} [{', '.join([f'*a{level - 1}'] * 9)}]")
    return "{" + ", ".join(lines) + "}"


def scenario_with_arguments(arguments: str) -> str:
    return (
        "turns:\n"
        "  - user: hi\n"
        "    rounds:\n"
        "      - tool_calls:\n"
        "          - tool: exec\n"
        f"            arguments: {arguments}\n"
        "      - content: done\n"
    )


# ---- configs -------------------------------------------------------------------------------


def test_a_number_too_long_for_python_in_config_json_names_its_key(tmp_path: Path) -> None:
    config = tmp_path / "config.json"
    priority = "9" * 5000
    config.write_text(
        '{"hooks": {"enabled": true, "processes": {"gate": {\n'
        f'  "enabled": true, "command": ["true"], "priority": {priority}}}}}}}\n'
    )
    line = refused("run", str(config))
    assert line.startswith(f"hook-inspector: {config}:2: hooks.processes.gate.priority: ")
    assert "5,000 digits" in line


@pytest.mark.parametrize("make", [fifo, dev_zero], ids=["fifo", "dev-zero"])
@pytest.mark.parametrize("name", ["hooks.yaml", "config.json"])
def test_a_config_that_is_not_a_regular_file_is_refused(
    tmp_path: Path, make: Callable[[Path], Path], name: str
) -> None:
    config = make(tmp_path / name)
    line = refused("run", str(config))
    assert line.startswith(f"hook-inspector: {config}: cannot read the file: not a regular file")


def test_a_config_over_the_size_limit_is_refused_unread(tmp_path: Path) -> None:
    config = tmp_path / "hooks.yaml"
    with config.open("wb") as file:
        file.truncate(MAX_FILE_BYTES + 1)  # sparse: no disk used, but zeros if read
    line = refused("run", str(config))
    assert line == f"hook-inspector: {config}: cannot read the file: too large: " + (
        f"{MAX_FILE_BYTES + 1:,} bytes (the limit is 64 MiB)"
    )


def test_a_deeply_nested_json_config_names_the_line_and_key(tmp_path: Path) -> None:
    config = tmp_path / "config.json"
    config.write_text('{"hooks":\n  {"processes": ' + "[" * 50_000 + "]" * 50_000 + "}}")
    line = refused("run", str(config))
    assert line.startswith(f"hook-inspector: {config}:2: hooks.processes[0]")
    assert "nested too deeply" in line


def test_a_deeply_nested_yaml_config_names_the_line(tmp_path: Path) -> None:
    config = tmp_path / "hooks.yaml"
    config.write_text("defaults: {}\nhooks: " + "[" * 50_000 + "]" * 50_000 + "\n")
    line = refused("run", str(config))
    assert line == f"hook-inspector: {config}:2: nested more than 100 levels deep"


# ---- scenarios -----------------------------------------------------------------------------


def test_a_scenario_nested_50000_deep_names_the_line(tmp_path: Path) -> None:
    scenario = tmp_path / "deep.yaml"
    scenario.write_text(scenario_with_arguments("{x: " + "[" * 50_000 + "]" * 50_000 + "}"))
    line = refused("run", "--scenario", str(scenario))
    assert line == f"hook-inspector: {scenario}:6: nested more than 100 levels deep"


def test_a_yaml_bomb_in_a_scenario_is_refused_at_its_line(tmp_path: Path) -> None:
    scenario = tmp_path / "bomb.yaml"
    scenario.write_text(scenario_with_arguments(alias_bomb()))
    line = refused("run", "--scenario", str(scenario))
    assert line == f"hook-inspector: {scenario}:6: aliases expand to more than 100,000 values"


@pytest.mark.parametrize("make", [fifo, dev_zero], ids=["fifo", "dev-zero"])
def test_a_scenario_that_is_not_a_regular_file_is_refused(
    tmp_path: Path, make: Callable[[Path], Path]
) -> None:
    scenario = make(tmp_path / "scenario.yaml")
    line = refused("run", "--scenario", str(scenario))
    assert line.startswith(f"hook-inspector: {scenario}: cannot read the file: not a regular file")


# ---- journals ------------------------------------------------------------------------------

EXCHANGE: dict[str, Any] = {
    "type": "exchange",
    "ts": 1_700_000_000.5,
    "seq": 2,
    "hook": "gate",
    "method": "hook.before_tool",
    "request": {"jsonrpc": "2.0", "id": 1, "method": "hook.before_tool", "params": {}},
    "response": {"jsonrpc": "2.0", "id": 1, "result": {"action": "continue"}},
    "error": None,
    "status": "ok",
    "duration_ms": 1.5,
    "findings": [],
    "rpc_id": 1,
    "raw_request": '{"jsonrpc":"2.0","id":1,"method":"hook.before_tool","params":{}}',
}
BEFORE = {"type": "stderr", "ts": 1_700_000_000.0, "seq": 1, "hook": "gate", "line": "hi"}
AFTER = {"type": "stderr", "ts": 1_700_000_001.0, "seq": 3, "hook": "gate", "line": "bye"}


def journal_with(tmp_path: Path, middle: str) -> Path:
    """A journal whose second of three lines is `middle`: not the last, so never torn."""
    path = tmp_path / "session.jsonl"
    path.write_text("\n".join([json.dumps(BEFORE), middle, json.dumps(AFTER)]) + "\n")
    return path


def exchange_with(**changes: Any) -> str:
    return json.dumps({**EXCHANGE, **changes})


def export(journal: Path) -> list[str]:
    return ["export", str(journal), "-o", str(journal.with_name("out.jsonl"))]


def replay(journal: Path) -> list[str]:
    return ["replay", str(journal)]


def open_(journal: Path) -> list[str]:
    return ["open", str(journal)]


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"seq": "2"}, 'seq: expected a whole number from 0 up, got a string ("2")'),
        ({"request": "hook.before_tool"}, "request: expected an object or null, got a string"),
        ({"response": [1]}, "response: expected an object or null, got a list"),
        ({"status": 5}, "status: expected a string, got 5"),
        ({"ts": "yesterday"}, "ts: expected a time in seconds since 1970 (a number), got"),
        ({"raw_request": 5}, "raw_request: expected a string or null, got 5"),
        ({"findings": [5]}, "findings[0]: expected a finding (an object of strings), got 5"),
    ],
    ids=["seq-mixed-types", "request-string", "response-list", "status", "ts", "raw", "finding"],
)
@pytest.mark.parametrize("command", [export, replay], ids=["export", "replay"])
def test_a_journal_field_of_the_wrong_type_names_line_and_key(
    tmp_path: Path,
    changes: dict[str, Any],
    message: str,
    command: Callable[[Path], list[str]],
) -> None:
    journal = journal_with(tmp_path, exchange_with(**changes))
    line = refused(*command(journal))
    assert line.startswith(f"hook-inspector: {journal}:2: {message}")


@pytest.mark.parametrize("command", [export, replay, open_], ids=["export", "replay", "open"])
def test_a_deeply_nested_journal_line_names_the_line(
    tmp_path: Path, command: Callable[[Path], list[str]]
) -> None:
    journal = journal_with(
        tmp_path,
        exchange_with(request={"x": [[[]]]}).replace("[[[]]]", "[" * 100_000 + "]" * 100_000),
    )
    assert refused(*command(journal)) == f"hook-inspector: {journal}:2: nested too deeply"


def test_a_lone_record_of_unknown_type_is_not_taken_for_a_torn_line(tmp_path: Path) -> None:
    journal = tmp_path / "session.jsonl"
    journal.write_text('{"type": "mystery", "ts": 1700000000}\n')
    line = refused(*export(journal))
    assert line.startswith(f'hook-inspector: {journal}:1: type: unknown record type "mystery"')


NOT_A_RECORD = ':1: not a journal record: no "type" key (expected one of: decision, event,'


@pytest.mark.parametrize(
    ("content", "said"),
    [
        ("", ": empty: a journal holds one JSON record per line"),
        ("\n  \n", ": empty: a journal holds one JSON record per line"),
        ("garbage\n", ":1: not JSON (Expecting value): a journal holds one JSON record per line"),
        ('{"foo": 1}\n', NOT_A_RECORD),
        ('{"jsonrpc": "2.0", "id": 1}\n', NOT_A_RECORD),
        ('{"hooks": {}}\n', NOT_A_RECORD),
        ('{"type": null}\n', ":1: type: unknown record type null (expected one of: decision,"),
    ],
    ids=["empty", "blank", "garbage", "foo", "json-rpc", "config", "type-null"],
)
@pytest.mark.parametrize("command", [export, replay, open_], ids=["export", "replay", "open"])
def test_a_file_that_is_not_a_journal_is_refused_saying_what_was_expected(
    tmp_path: Path, content: str, said: str, command: Callable[[Path], list[str]]
) -> None:
    journal = tmp_path / "session.jsonl"
    journal.write_text(content)
    assert refused(*command(journal)).startswith(f"hook-inspector: {journal}{said}")


def test_a_torn_last_line_is_still_skipped(tmp_path: Path) -> None:
    journal = tmp_path / "session.jsonl"
    journal.write_text(json.dumps(BEFORE) + "\n" + exchange_with()[:40])
    result = hook_inspector(*export(journal))
    assert result.returncode == 0, result.stderr
    assert result.stderr.startswith("1 records written")


@pytest.mark.parametrize("make", [fifo, dev_zero], ids=["fifo", "dev-zero"])
@pytest.mark.parametrize("command", [export, replay, open_], ids=["export", "replay", "open"])
def test_a_journal_that_is_not_a_regular_file_is_refused(
    tmp_path: Path, make: Callable[[Path], Path], command: Callable[[Path], list[str]]
) -> None:
    journal = make(tmp_path / "session.jsonl")
    line = refused(*command(journal))
    assert line.startswith(f"hook-inspector: {journal}: not a regular file")


# ---- token files ---------------------------------------------------------------------------


@pytest.mark.parametrize("make", [fifo, dev_zero], ids=["fifo", "dev-zero"])
def test_a_token_file_that_is_not_a_regular_file_is_refused(
    tmp_path: Path, make: Callable[[Path], Path]
) -> None:
    token = make(tmp_path / "token")
    line = refused("serve", "--listen", "127.0.0.1:0", "--token-file", str(token))
    assert line.startswith(f"hook-inspector serve: {token}: not a regular file")


def test_a_relay_given_a_fifo_token_file_answers_by_itself_and_says_why(tmp_path: Path) -> None:
    """The relay keeps its agent going whatever happens; a FIFO token once blocked it for good
    (reading the token froze its event loop), so it never even saw its stdin close."""
    token = fifo(tmp_path / "token")
    relay = ("relay", "--connect", "127.0.0.1:9", "--token-file", str(token))
    result = hook_inspector(*relay, stdin="")  # the agent starts it and goes at once
    assert "Traceback" not in result.stderr
    assert f"{token}: not a regular file" in result.stderr


# ---- settings and themes: warn and fall back ------------------------------------------------


@pytest.mark.parametrize("make", [fifo, dev_zero], ids=["fifo", "dev-zero"])
def test_a_settings_file_that_is_not_a_regular_file_gives_the_defaults(
    tmp_path: Path, make: Callable[[Path], Path]
) -> None:
    settings = make(tmp_path / "settings.yaml")
    problems = python_says(
        "import json, pathlib; from inspector.tui.settings import load_settings; "
        f"settings, problems = load_settings(pathlib.Path({str(tmp_path)!r})); "
        "assert settings.theme is None and settings.keymap == {}; print(json.dumps(problems))"
    )
    assert problems == [
        f"{settings}: cannot read the file: not a regular file: it is "
        + ("a FIFO (named pipe)" if make is fifo else "a character device")
        + " (using default settings)"
    ]


@pytest.mark.parametrize("make", [fifo, dev_zero], ids=["fifo", "dev-zero"])
def test_a_theme_that_is_not_a_regular_file_is_reported_and_skipped(
    tmp_path: Path, make: Callable[[Path], Path]
) -> None:
    theme = make(tmp_path / "broken.yaml")
    (tmp_path / "fine.yaml").write_text('primary: "#336699"\n')
    names, failures = python_says(
        "import json, pathlib; from inspector.tui.themes import load_themes; "
        f"themes, failures = load_themes(pathlib.Path({str(tmp_path)!r})); "
        "print(json.dumps([[t.name for t in themes], failures]))"
    )
    assert "fine" in names and "broken" not in names
    assert failures == [
        f"{theme}: cannot read the file: not a regular file: it is "
        + ("a FIFO (named pipe)" if make is fifo else "a character device")
        + " (theme skipped)"
    ]


def test_a_yaml_bomb_in_settings_gives_the_defaults(tmp_path: Path) -> None:
    (tmp_path / "settings.yaml").write_text(f"keymap: {alias_bomb()}\n")
    problems = python_says(
        "import json, pathlib; from inspector.tui.settings import load_settings; "
        f"print(json.dumps(load_settings(pathlib.Path({str(tmp_path)!r}))[1]))"
    )
    assert problems == [
        f"{tmp_path / 'settings.yaml'}:1: aliases expand to more than 100,000 values"
        " (using default settings)"
    ]
