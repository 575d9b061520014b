"""The native YAML config: every field read, and every error naming file, line and key."""

from __future__ import annotations

import shutil
import textwrap
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from inspector.config import Config, ConfigError, Defaults, HookSpec
from inspector.hosts.load import load_config
from tests.support.paths import CONFIGS


def make_executable(path: Path) -> None:
    path.write_text("#!/bin/sh\n")
    path.chmod(0o755)


@pytest.fixture
def workspace(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A folder with a fake python3 alone on PATH and the scripts the configs name."""
    (tmp_path / "bin").mkdir()
    make_executable(tmp_path / "bin" / "python3")
    monkeypatch.setenv("PATH", str(tmp_path / "bin"))
    (tmp_path / "gate.py").write_text("")
    make_executable(tmp_path / "run.sh")
    (tmp_path / "notexec.sh").write_text("")
    return tmp_path


def write(folder: Path, text: str, name: str = "hooks.yaml") -> Path:
    path = folder / name
    path.write_text(textwrap.dedent(text))
    return path


def test_full_example_reads_every_field(workspace: Path) -> None:
    path = workspace / "native_full.yaml"
    shutil.copy(CONFIGS / "native_full.yaml", path)
    (workspace / "hooks").mkdir()
    (workspace / "hooks" / "review_gate.py").write_text("")

    config = load_config(path)

    assert config == Config(
        hooks=(
            HookSpec(
                name="review_gate",
                kind="process",
                command=("python3", "review_gate.py", "--strict"),
                dir=str(workspace / "hooks"),
                env=(("API_URL", "http://localhost:8080"), ("LOG_LEVEL", "debug")),
                priority=10,
                intercept=("before_tool", "approve_tool"),
                observe=("agent.turn.end", "agent.tool.exec_skipped"),
                enabled=True,
                on_timeout="deny",
                source=str(path),
            ),
            HookSpec(
                name="watcher",
                command=("./watch.sh",),
                dir=str(workspace),
                observe=("*",),
                enabled=False,
                source=str(path),
            ),
            HookSpec(
                name="me",
                kind="manual",
                command=(),
                dir=None,
                priority=50,
                intercept=("approve_tool",),
                observe=(),
                enabled=True,
                on_timeout="allow",
                source=str(path),
            ),
        ),
        defaults=Defaults(
            observer_timeout_ms=750,
            interceptor_timeout_ms=4000,
            approval_timeout_ms=30000,
            handshake_timeout_ms=2000,
        ),
        path=path,
    )
    assert [spec.modes for spec in config.hooks] == [
        ["observe", "tool", "approve"],
        ["observe"],
        ["approve"],
    ]


def test_minimal_config_takes_every_default(workspace: Path) -> None:
    path = write(workspace, "hooks: {}\n", name="minimal.yml")
    assert load_config(path) == Config(hooks=(), defaults=Defaults(), path=path)


def test_defaults_of_a_process_hook_and_a_manual_hook(workspace: Path) -> None:
    path = write(
        workspace,
        """\
        hooks:
          gate: {command: [python3, gate.py], observe: [all]}
          me: {kind: manual}
        """,
    )
    gate, me = load_config(path).hooks
    assert gate == HookSpec(
        name="gate",
        command=("python3", "gate.py"),
        dir=str(workspace),
        observe=("*",),
        source=str(path),
    )
    assert me == HookSpec(name="me", kind="manual", intercept=("approve_tool",), source=str(path))


def test_relative_path_names_the_file_as_given(
    workspace: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write(workspace, "hooks:\n  gate: {command: [python3, gate.py]}\n")
    monkeypatch.chdir(workspace)
    with pytest.raises(ConfigError) as caught:
        load_config("hooks.yaml")
    assert str(caught.value) == (
        "hooks.yaml:2: hooks.gate: no hook modes enabled; add an intercept or observe list"
    )


def test_disabled_hook_skips_only_the_file_checks(workspace: Path) -> None:
    path = write(
        workspace,
        """\
        hooks:
          later: {command: [not-installed, missing.py], intercept: [before_llm], enabled: false}
        """,
    )
    (spec,) = load_config(path).hooks
    assert spec.enabled is False
    assert spec.command == ("not-installed", "missing.py")


def test_disabled_hook_is_still_checked_for_shape(workspace: Path) -> None:
    path = write(workspace, "hooks:\n  later: {command: [x], intercept: [nope], enabled: false}\n")
    with pytest.raises(ConfigError, match='unsupported intercept "nope"'):
        load_config(path)


def test_arguments_that_are_not_script_paths_are_not_checked(workspace: Path) -> None:
    path = write(
        workspace,
        """\
        hooks:
          gate:
            command: [python3, -c, "import x; print('a/b.py')", --out=missing/x.py, "http://h/x"]
            intercept: [before_tool]
        """,
    )
    (spec,) = load_config(path).hooks
    assert spec.command[1] == "-c"


NATIVE_ERRORS = [
    pytest.param(
        "hooks:\n  gate:\n    command: [python3, gate.py\n",
        4,
        None,
        "invalid YAML: while parsing a flow sequence: did not find expected ',' or ']'",
        id="yaml-syntax",
    ),
    pytest.param(
        "- a\n- b\n",
        1,
        None,
        "the top level must be a map with a hooks key, got a list",
        id="top-level-list",
    ),
    pytest.param("defaults: {}\n", 1, None, "hooks is required", id="hooks-missing"),
    pytest.param(
        "hooks: {}\nhookz: {}\n",
        2,
        "hookz",
        'unknown key "hookz" (did you mean "hooks"?); allowed keys: defaults, hooks',
        id="unknown-top-level-key",
    ),
    pytest.param(
        "defaults:\n  retries: 5\nhooks: {}\n",
        2,
        "defaults.retries",
        'unknown key "retries"; allowed keys: observer_timeout_ms, interceptor_timeout_ms, '
        "approval_timeout_ms, handshake_timeout_ms",
        id="unknown-defaults-key",
    ),
    pytest.param(
        "hooks:\n  gate:\n    command: [python3, gate.py]\n    prority: 3\n",
        4,
        "hooks.gate.prority",
        'unknown key "prority" for a process hook (did you mean "priority"?); allowed keys: kind, '
        "command, dir, env, priority, intercept, observe, enabled",
        id="unknown-hook-key",
    ),
    pytest.param(
        "hooks:\n  gate:\n    command: [python3, gate.py]\n    intercept: [before_tool]\n"
        "    priority: true\n",
        5,
        "hooks.gate.priority",
        "expected an integer, got a boolean (true)",
        id="bool-is-not-an-int",
    ),
    pytest.param(
        "defaults:\n  approval_timeout_ms: 0\nhooks: {}\n",
        2,
        "defaults.approval_timeout_ms",
        "must be a positive number of milliseconds, got 0",
        id="timeout-not-positive",
    ),
    pytest.param(
        "hooks:\n  gate:\n    command: python3 gate.py --x 'a b'\n",
        3,
        "hooks.gate.command",
        'got a string; write it as ["python3", "gate.py", "--x", "a b"]',
        id="command-as-string",
    ),
    pytest.param(
        "hooks:\n  gate:\n    command: [python3, gate.py]\n    intercept: [before_tool]\n"
        "    env:\n      LEVEL: 3\n",
        6,
        "hooks.gate.env.LEVEL",
        "expected a string, got an integer (3) (quote it to make it a string)",
        id="env-value-not-a-string",
    ),
    pytest.param(
        "hooks:\n  gate:\n    command: [python3, gate.py]\n    intercept:\n      - before_tool\n"
        "      - aprove_tool\n",
        6,
        "hooks.gate.intercept[1]",
        'unsupported intercept "aprove_tool" (did you mean "approve_tool"?)',
        id="unknown-intercept",
    ),
    pytest.param(
        "hooks:\n  gate:\n    command: [python3, gate.py]\n    observe: [agent.turn.ended]\n",
        4,
        "hooks.gate.observe[0]",
        'unsupported observe event "agent.turn.ended" (did you mean "agent.turn.end"?)',
        id="unknown-observe-kind",
    ),
    pytest.param(
        "hooks:\n  gate:\n    command: []\n    intercept: [before_tool]\n",
        3,
        "hooks.gate.command",
        "command is required",
        id="empty-command",
    ),
    pytest.param(
        "hooks:\n  gate:\n    intercept: [before_tool]\n",
        2,
        "hooks.gate",
        "command is required",
        id="missing-command",
    ),
    pytest.param(
        "hooks:\n  gate:\n    command: [python3, gate.py]\n",
        2,
        "hooks.gate",
        "no hook modes enabled",
        id="no-modes",
    ),
    pytest.param(
        "hooks:\n  gate:\n    command: [node, gate.js]\n    intercept: [before_tool]\n",
        3,
        "hooks.gate.command[0]",
        'program "node" not found on PATH',
        id="program-not-on-path",
    ),
    pytest.param(
        "hooks:\n  gate:\n    command: [run.sh]\n    intercept: [before_tool]\n",
        3,
        "hooks.gate.command[0]",
        'program "run.sh" not found on PATH; to run the file in {dir}, write "./run.sh"',
        id="program-in-dir-but-bare",
    ),
    pytest.param(
        "hooks:\n  gate:\n    command: [./bin/missing]\n    intercept: [before_tool]\n",
        3,
        "hooks.gate.command[0]",
        'program "./bin/missing" not found: no file {dir}/bin/missing',
        id="program-path-missing",
    ),
    pytest.param(
        "hooks:\n  gate:\n    command: [./notexec.sh]\n    intercept: [before_tool]\n",
        3,
        "hooks.gate.command[0]",
        'program "./notexec.sh" is not executable: {dir}/notexec.sh',
        id="program-not-executable",
    ),
    pytest.param(
        "hooks:\n  gate:\n    command:\n      - python3\n      - -u\n      - review.py\n"
        "    intercept: [before_tool]\n",
        6,
        "hooks.gate.command[2]",
        'script "review.py" not found: no file {dir}/review.py',
        id="script-missing",
    ),
    pytest.param(
        "hooks:\n  gate:\n    command: [python3, gate.py]\n    dir: elsewhere\n"
        "    intercept: [before_tool]\n",
        4,
        "hooks.gate.dir",
        "directory {dir}/elsewhere does not exist",
        id="dir-missing",
    ),
    pytest.param(
        "hooks:\n  gate:\n    command: [python3, gate.py]\n    intercept: [before_tool]\n"
        "  gate:\n    kind: manual\n",
        5,
        "hooks.gate",
        'duplicate key "gate" (first on line 2)',
        id="duplicate-hook-name",
    ),
    pytest.param(
        "hooks:\n  gate:\n    kind: plugin\n",
        3,
        "hooks.gate.kind",
        'unsupported kind "plugin"; expected process, manual or command',
        id="unknown-kind",
    ),
    pytest.param(
        "hooks:\n  me:\n    kind: manual\n    intercept: [approve_tool, before_tool]\n",
        4,
        "hooks.me.intercept[1]",
        'a manual hook can only intercept approve_tool, not "before_tool"',
        id="manual-intercept",
    ),
    pytest.param(
        "hooks:\n  me:\n    kind: manual\n    observe: ['*']\n",
        4,
        "hooks.me.observe",
        'unknown key "observe" for a manual hook; allowed keys: kind, priority, intercept, '
        "enabled, on_timeout",
        id="manual-observe",
    ),
    pytest.param(
        "hooks:\n  me:\n    kind: manual\n    on_timeout: ask\n",
        4,
        "hooks.me.on_timeout",
        'expected deny or allow, got "ask"',
        id="manual-on-timeout",
    ),
    pytest.param(
        "hooks:\n  gate:\n    command: [python3, gate.py]\n    on_timeout: allow\n",
        4,
        "hooks.gate.on_timeout",
        'unknown key "on_timeout" for a process hook',
        id="on-timeout-on-process-hook",
    ),
    pytest.param(
        "hooks:\n  1: {kind: manual}\n",
        2,
        "hooks",
        "keys must be strings, got 1 (quote it to make it one)",
        id="key-not-a-string",
    ),
]


@pytest.mark.parametrize(("text", "line", "key", "message"), NATIVE_ERRORS)
def test_error_names_file_line_and_key(
    workspace: Path, text: str, line: int, key: str | None, message: str
) -> None:
    path = write(workspace, text)
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    error = caught.value
    assert (error.file, error.line, error.key) == (str(path), line, key)
    assert message.format(dir=workspace) in error.message
    assert str(error).startswith(f"{path}:{line}: {key + ':' if key else ''}")


def test_missing_file(tmp_path: Path) -> None:
    path = tmp_path / "nope.yaml"
    with pytest.raises(ConfigError, match="cannot read the file: No such file or directory"):
        load_config(path)


def test_unsupported_suffix(tmp_path: Path) -> None:
    path = write(tmp_path, "hooks: {}\n", name="hooks.toml")
    with pytest.raises(ConfigError, match=r"unsupported file type: use \.yaml or \.yml"):
        load_config(path)


def test_not_utf8_names_the_line(tmp_path: Path) -> None:
    path = tmp_path / "hooks.yaml"
    path.write_bytes(b"hooks: {}\n# caf\xe9\n")
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    assert caught.value.line == 2
    assert "not UTF-8 text" in caught.value.message


WEIRD_YAML = [
    pytest.param(b"", id="empty"),
    pytest.param(b"   \n# only a comment\n", id="blank"),
    pytest.param(b"[1, 2]\n", id="list"),
    pytest.param(b"just a string\n", id="scalar"),
    pytest.param(b"\x00\x01\x02binary\xff\xfe", id="binary"),
    pytest.param(b"hooks: \x07\n", id="control-char"),
    pytest.param(b"a: 1\n---\nb: 2\n", id="two-documents"),
    pytest.param(b"[" * 5000, id="deep-flow"),
    pytest.param(b"a: &a [*a]\n", id="recursive-alias"),
    pytest.param(b"hooks: !!int nope\n", id="bad-int-tag"),
    pytest.param(b"hooks: !!timestamp nope\n", id="bad-timestamp-tag"),
    pytest.param(b"hooks: !python/object:os.system x\n", id="unsafe-tag"),
    pytest.param(b"hooks:\n  ? [a, b]\n  : 1\n", id="complex-key"),
    pytest.param(b"hooks:\n  gate: [[[[{command: {a: [1]}}]]]]\n", id="nested-wrong-types"),
    pytest.param(b"hooks:\n  gate:\n    command: [[python3]]\n", id="command-of-lists"),
    pytest.param(b"hooks:\n  gate:\n    env: [A, B]\n", id="env-list"),
    pytest.param(b"defaults: 5\nhooks: {}\n", id="defaults-scalar"),
    pytest.param(b"hooks:\n  gate: ~\n", id="null-hook"),
    pytest.param(b"hooks:\n  gate:\n    <<: {command: [x]}\n", id="merge-key"),
]


@pytest.mark.parametrize("raw", WEIRD_YAML)
def test_weird_input_is_only_ever_a_config_error(tmp_path: Path, raw: bytes) -> None:
    path = tmp_path / "weird.yaml"
    path.write_bytes(raw)
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    assert caught.value.file == str(path)


YAML_KEYS = st.sampled_from(
    [
        "hooks",
        "defaults",
        "kind",
        "command",
        "dir",
        "env",
        "priority",
        "intercept",
        "observe",
        "enabled",
        "on_timeout",
        "gate",
        "me",
        "observer_timeout_ms",
        "manual",
        "process",
    ]
)
YAML_SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(-2, 2)
    | st.floats(allow_nan=False)
    | st.text(max_size=4)
    | st.sampled_from(["manual", "*", "before_tool", "approve_tool", "python3", "gate.py"])
)
YAML_VALUES = st.recursive(
    YAML_SCALARS,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(YAML_KEYS, inner, max_size=4),
    max_leaves=25,
)


@settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(value=YAML_VALUES)
def test_any_yaml_value_loads_or_is_a_config_error(workspace: Path, value: object) -> None:
    path = workspace / "fuzz.yaml"
    path.write_text(yaml.safe_dump(value))
    try:
        load_config(path)
    except ConfigError as error:
        assert error.file == str(path)


@settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(raw=st.binary(max_size=80))
def test_any_bytes_load_or_are_a_config_error(tmp_path: Path, raw: bytes) -> None:
    path = tmp_path / "fuzz.yaml"
    path.write_bytes(raw)
    try:
        load_config(path)
    except ConfigError as error:
        assert error.file == str(path)
