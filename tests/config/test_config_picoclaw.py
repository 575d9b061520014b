"""PicoClaw's config.json `hooks` section, read and validated the way PicoClaw does."""

from __future__ import annotations

import json
import shutil
import textwrap
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from inspector.config import Config, ConfigError, Defaults, HookSpec
from inspector.hosts.load import load_config
from tests.support.paths import CONFIGS


def make_executable(path: Path) -> None:
    path.write_text("#!/bin/sh\n")
    path.chmod(0o755)


@pytest.fixture
def cwd(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """PicoClaw's working directory: relative dirs resolve here, not beside config.json."""
    (tmp_path / "bin").mkdir()
    make_executable(tmp_path / "bin" / "python3")
    monkeypatch.setenv("PATH", str(tmp_path / "bin"))
    run = tmp_path / "run"
    (run / "hooks").mkdir(parents=True)
    (run / "hooks" / "review_gate.py").write_text("")
    (run / "gate.py").write_text("")
    make_executable(run / "observe.sh")
    monkeypatch.chdir(run)
    return run


def write(folder: Path, text: str) -> Path:
    (folder / "picoclaw").mkdir(exist_ok=True)
    path = folder / "picoclaw" / "config.json"
    path.write_text(textwrap.dedent(text))
    return path


def test_full_example_reads_every_field(cwd: Path) -> None:
    path = cwd.parent / "config.json"
    shutil.copy(CONFIGS / "picoclaw_full.json", path)

    config = load_config(path)

    assert config == Config(
        hooks=(
            HookSpec(
                name="py_review_gate",
                kind="process",
                command=("python3", "review_gate.py"),
                dir=str(cwd / "hooks"),
                env=(("A", "1"), ("PICOCLAW_HOOK_LOG_FILE", "/tmp/gate.log")),
                priority=100,
                intercept=("before_tool", "approve_tool"),
                observe=("agent.tool.exec_start", "agent.tool.exec_skipped"),
                enabled=True,
                on_timeout="deny",
                source=str(path),
            ),
            HookSpec(
                name="observer",
                command=("./observe.sh",),
                dir=str(cwd),
                observe=("*",),
                source=str(path),
            ),
            HookSpec(
                name="parked",
                command=("not-installed",),
                dir=str(cwd),
                intercept=("not_checked",),
                enabled=False,
                source=str(path),
            ),
        ),
        # interceptor_timeout_ms 0 keeps PicoClaw's default; the handshake timeout is ours
        defaults=Defaults(observer_timeout_ms=800, approval_timeout_ms=120000),
        path=path,
    )


def test_no_hooks_section_is_an_empty_config(cwd: Path) -> None:
    path = write(cwd, '{"agents": {}, "hooks": null}')
    assert load_config(path) == Config(hooks=(), path=path)


def test_hooks_disabled_disables_every_hook_and_skips_mount_checks(cwd: Path) -> None:
    path = write(
        cwd,
        """\
        {"hooks": {
          "enabled": false,
          "builtins": {"audit": {"enabled": true}},
          "processes": {"gate": {"enabled": true, "transport": "grpc", "observe": ["bogus"]}}
        }}
        """,
    )
    (spec,) = load_config(path).hooks
    assert (spec.name, spec.enabled, spec.observe) == ("gate", False, ("bogus",))


def test_observe_stops_at_the_first_all_marker(cwd: Path) -> None:
    path = write(
        cwd,
        """\
        {"hooks": {"processes": {"gate": {
          "enabled": true, "command": ["python3", "gate.py"], "observe": ["turn_end", "", "bogus"]
        }}}}
        """,
    )
    assert load_config(path).hooks[0].observe == ("*",)


def test_null_fields_keep_their_defaults(cwd: Path) -> None:
    path = write(
        cwd,
        """\
        {"hooks": {"enabled": null, "defaults": {"observer_timeout_ms": null},
          "processes": {"gate": {"enabled": true, "priority": null, "dir": null,
            "command": ["python3", "gate.py"], "intercept": ["after_llm"]}}}}
        """,
    )
    config = load_config(path)
    assert config.defaults == Defaults()
    assert config.hooks[0].priority == 0
    assert config.hooks[0].modes == ["llm"]


PICOCLAW_ERRORS = [
    pytest.param(
        '{\n  "hooks": {\n    "enabled": true,\n  }\n}\n',
        4,
        None,
        "invalid JSON: Expecting property name enclosed in double quotes",
        id="json-syntax",
    ),
    pytest.param(
        "[1, 2]\n", 1, None, "the top level must be a JSON object, got a list", id="top-list"
    ),
    pytest.param(
        """\
        {
          "hooks": {
            "processes": {
              "gate": {
                "enabled": true,
                "timeout_ms": 5000,
                "Command": ["python3", "gate.py"]
              }
            }
          }
        }
        """,
        7,
        "hooks.processes.gate.Command",
        "config.json contains unknown field(s): hooks.processes.gate.Command, "
        "hooks.processes.gate.timeout_ms",
        id="unknown-fields",
    ),
    pytest.param(
        '{"hooks": {\n  "defaults": {"handshake_timeout_ms": 5}\n}}\n',
        2,
        "hooks.defaults.handshake_timeout_ms",
        "config.json contains unknown field(s): hooks.defaults.handshake_timeout_ms",
        id="unknown-defaults-field",
    ),
    pytest.param(
        '{"hooks": {"processes": {"gate": {\n  "enabled": "true"\n}}}}\n',
        2,
        "hooks.processes.gate.enabled",
        'expected true or false, got a string ("true")',
        id="enabled-not-bool",
    ),
    pytest.param(
        '{"hooks": {"processes": {"gate": {\n  "priority": 1.5\n}}}}\n',
        2,
        "hooks.processes.gate.priority",
        "expected an integer, got a number (1.5)",
        id="priority-not-int",
    ),
    pytest.param(
        '{"hooks": {"processes": {"gate": {\n  "command": "python3 gate.py"\n}}}}\n',
        2,
        "hooks.processes.gate.command",
        'got a string; write it as ["python3", "gate.py"]',
        id="command-as-string",
    ),
    pytest.param(
        '{"hooks": {"processes": {\n  "gate": {"enabled": true, "transport": "grpc"}\n}}}\n',
        2,
        "hooks.processes.gate.transport",
        'unsupported transport "grpc"',
        id="transport",
    ),
    pytest.param(
        '{"hooks": {"processes": {\n  "gate": {"enabled": true, "observe": ["*"]}\n}}}\n',
        2,
        "hooks.processes.gate",
        "command is required",
        id="command-missing",
    ),
    pytest.param(
        '{"hooks": {"processes": {"gate": {"enabled": true,\n  "command": []}}}}\n',
        2,
        "hooks.processes.gate.command",
        "command is required",
        id="command-empty",
    ),
    pytest.param(
        """\
        {"hooks": {"processes": {"gate": {
          "enabled": true,
          "command": ["python3", "gate.py"],
          "intercept": [
            "before_tool",
            "before_toll"
          ]
        }}}}
        """,
        6,
        "hooks.processes.gate.intercept[1]",
        'unsupported intercept "before_toll" (did you mean "before_tool"?)',
        id="intercept",
    ),
    pytest.param(
        """\
        {"hooks": {"processes": {"gate": {
          "enabled": true,
          "command": ["python3", "gate.py"],
          "observe": ["tool_exec_skiped", "*"]
        }}}}
        """,
        4,
        "hooks.processes.gate.observe[0]",
        'unsupported observe event "tool_exec_skiped" (did you mean "tool_exec_skipped"?)',
        id="observe",
    ),
    pytest.param(
        '{"hooks": {"processes": {\n  "gate": {"enabled": true, "command": ["python3", "gate.py"],'
        ' "intercept": [""]}\n}}}\n',
        2,
        "hooks.processes.gate",
        "no hook modes enabled",
        id="no-modes",
    ),
    pytest.param(
        '{"hooks": {"builtins": {\n  "audit": {"enabled": true, "config": {"x": 1}}\n}}}\n',
        2,
        "hooks.builtins.audit",
        'builtin hook "audit" is not registered (PicoClaw registers no builtins, and '
        "hook-inspector cannot run Go builtins)",
        id="builtin-enabled",
    ),
    pytest.param(
        '{"hooks": {"processes": {"gate": {"enabled": true, "observe": ["*"],\n'
        '  "command": ["node", "gate.js"]}}}}\n',
        2,
        "hooks.processes.gate.command[0]",
        'program "node" not found on PATH',
        id="program-not-on-path",
    ),
    pytest.param(
        '{"hooks": {"processes": {"gate": {"enabled": true, "observe": ["*"], "dir": "hooks",\n'
        '  "command": ["python3", "-u", "gate.py"]}}}}\n',
        2,
        "hooks.processes.gate.command[2]",
        'script "gate.py" not found: no file {cwd}/hooks/gate.py',
        id="script-missing-in-dir",
    ),
    pytest.param(
        '{"hooks": {"processes": {"gate": {"enabled": true, "observe": ["*"],\n'
        '  "dir": "../nowhere", "command": ["python3", "gate.py"]}}}}\n',
        2,
        "hooks.processes.gate.dir",
        "directory {root}/nowhere does not exist",
        id="dir-relative-to-cwd",
    ),
    pytest.param(
        """\
        {"hooks": {"processes": {
          "b_gate": {"enabled": true, "transport": "tcp"},
          "a_gate": {"enabled": true, "command": ["python3", "gate.py"]}
        }}}
        """,
        3,
        "hooks.processes.a_gate",
        "no hook modes enabled",
        id="first-error-in-name-order",
    ),
]


@pytest.mark.parametrize(("text", "line", "key", "message"), PICOCLAW_ERRORS)
def test_error_names_file_line_and_key(
    cwd: Path, text: str, line: int, key: str | None, message: str
) -> None:
    path = write(cwd.parent, text)
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    error = caught.value
    assert (error.file, error.line, error.key) == (str(path), line, key)
    assert message.format(cwd=cwd, root=cwd.parent) in error.message
    assert str(error).startswith(f"{path}:{line}: {key + ':' if key else ''}")


WEIRD_JSON = [
    pytest.param(b"", id="empty"),
    pytest.param(b"null", id="null"),
    pytest.param(b'"hooks"', id="string"),
    pytest.param(b"\x00\x01\x02binary\xff\xfe", id="binary"),
    pytest.param(b"\xef\xbb\xbf{", id="bom-then-truncated"),
    pytest.param(b"[" * 100_000, id="deep"),
    pytest.param(b'{"hooks": []}', id="hooks-list"),
    pytest.param(b'{"hooks": {"processes": [1]}}', id="processes-list"),
    pytest.param(b'{"hooks": {"processes": {"g": [[[[{"enabled": {}}]]]]}}}', id="nested-wrong"),
    pytest.param(b'{"hooks": {"processes": {"g": {"env": {"A": null}}}}}', id="env-null-value"),
    pytest.param(b'{"hooks": {"processes": {"g": {"command": [null]}}}}', id="command-null-item"),
    pytest.param(b'{"hooks": {"defaults": {"observer_timeout_ms": NaN}}}', id="nan"),
    pytest.param(b'{"hooks": {"builtins": {"b": {"enabled": 1}}}}', id="builtin-enabled-int"),
]


@pytest.mark.parametrize("raw", WEIRD_JSON)
def test_weird_input_is_only_ever_a_config_error(tmp_path: Path, raw: bytes) -> None:
    path = tmp_path / "config.json"
    path.write_bytes(raw)
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    assert caught.value.file == str(path)


JSON_KEYS = st.sampled_from(
    [
        "hooks",
        "enabled",
        "defaults",
        "builtins",
        "processes",
        "gate",
        "priority",
        "transport",
        "command",
        "dir",
        "env",
        "observe",
        "intercept",
        "config",
        "observer_timeout_ms",
    ]
)
JSON_SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(-2, 2)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=4)
    | st.sampled_from(["stdio", "*", "before_tool", "python3", "gate.py", "turn_end"])
)
JSON_VALUES = st.recursive(
    JSON_SCALARS,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(JSON_KEYS, inner, max_size=4),
    max_leaves=25,
)


@settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(value=JSON_VALUES, indent=st.sampled_from([None, 2]))
def test_any_json_value_loads_or_is_a_config_error(
    cwd: Path, value: object, indent: int | None
) -> None:
    path = cwd / "config.json"
    path.write_text(json.dumps(value, indent=indent))
    try:
        load_config(path)
    except ConfigError as error:
        assert error.file == str(path)
