"""j-cli hook configs: both layouts at both levels, j-cli's order, warnings and errors."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from inspector.config.errors import ConfigError
from inspector.hosts.jcli.config import load_jcli, read_jcli
from tests.support.paths import EXAMPLES

EXAMPLE = EXAMPLES / "jcli"


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text).lstrip())
    return path


def hook(root: Path, name: str, text: str, file: str = "HOOK.yaml") -> Path:
    return write(root / name / file, text)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    (root / ".jcli" / "hooks").mkdir(parents=True)
    return root


def user_hooks() -> Path:
    return Path.home() / ".jdata" / "agent" / "hooks"  # HOME is the test's own (conftest.home)


def test_project_folder_layout(project: Path) -> None:
    folder = project / ".jcli" / "hooks"
    hook(
        folder,
        "guard",
        """
        events: [pre_tool_execution, post_tool_execution]
        command: ./guard.sh
        timeout: 3
        retry: 2
        on_error: skip
        filter: {tool_matcher: "Bash|Write", model_prefix: gpt}
        """,
    )
    loaded = read_jcli(project)
    assert loaded.cwd == project and loaded.config.host == "jcli"
    first, second = loaded.config.hooks
    assert (first.name, first.event, second.event) == (
        "project:guard",
        "pre_tool_execution",
        "post_tool_execution",
    )
    assert (first.command, first.timeout_ms, first.retry, first.on_error) == (
        "./guard.sh",
        3000,
        2,
        "skip",
    )
    assert (first.tool_matcher, first.model_prefix, first.tool_name) == ("Bash|Write", "gpt", None)
    assert first.dir == str(folder / "guard") and first.level == "project"
    assert first.host == "jcli" and first.source == str(folder / "guard" / "HOOK.yaml")
    assert loaded.warnings == ()


def test_defaults(project: Path) -> None:
    hook(project / ".jcli" / "hooks", "a", "events: [stop]\ncommand: x\n")
    (spec,) = load_jcli(project).hooks
    assert (spec.timeout_ms, spec.retry, spec.on_error) == (10000, 0, "skip")


def test_user_folder_comes_from_home_and_runs_before_the_project(project: Path) -> None:
    hook(user_hooks(), "zeta", "events: [stop]\ncommand: user\n", file="HOOK.yml")
    hook(project / ".jcli" / "hooks", "alpha", "events: [stop]\ncommand: project\n")
    loaded = read_jcli(project)
    assert [(spec.name, spec.level) for spec in loaded.config.hooks] == [
        ("user:zeta", "user"),
        ("project:alpha", "project"),
    ]
    (yml,) = loaded.warnings
    assert yml.finding.code == "jcli-version-only" and yml.hook == "user:zeta"


def test_legacy_files_at_both_levels_keep_list_order(project: Path) -> None:
    write(
        user_hooks().parent / "hooks.yaml",
        """
        pre_send_message:
          - command: "python3 ~/.jdata/agent/hooks/inject_time.py"
            timeout: 5
        """,
    )
    write(
        project / ".jcli" / "hooks.yaml",
        """
        stop:
          - command: second
          - command: first
          - command: second
        """,
    )
    loaded = read_jcli(project)
    assert [spec.name for spec in loaded.config.hooks] == [
        "user:python3 ~/.jdata/agent/hooks/inject_time",  # 40 characters: j-cli's disable ID
        "project:second",
        "project:first",
        "project:second #2",
    ]
    assert all(spec.dir is None for spec in loaded.config.hooks)
    assert {warning.finding.code for warning in loaded.warnings} == {"jcli-legacy-layout"}


def test_folder_before_legacy_within_a_level_and_folder_order_warning(project: Path) -> None:
    folder = project / ".jcli" / "hooks"
    hook(folder, "b", "events: [stop]\ncommand: b\n")
    hook(folder, "a", "events: [stop, session_end]\ncommand: a\n")
    hook(folder, "example", "events: [stop]\ncommand: skipped\n")  # j-agent skips this name
    write(folder / "c" / "notes.txt", "no HOOK.yaml here")
    write(project / ".jcli" / "hooks.yaml", "stop:\n  - command: legacy\n")
    loaded = read_jcli(project)
    assert [(spec.name, spec.event) for spec in loaded.config.hooks] == [
        ("project:a", "stop"),
        ("project:a", "session_end"),
        ("project:b", "stop"),
        ("project:legacy", "stop"),
    ]
    order = [w for w in loaded.warnings if w.finding.code == "jcli-folder-order"]
    assert [w.hook for w in order] == ["project:b"]


def test_hook_yaml_wins_over_hook_yml(project: Path) -> None:
    folder = project / ".jcli" / "hooks"
    hook(folder, "a", "events: [stop]\ncommand: yaml\n")
    hook(folder, "a", "events: [stop]\ncommand: yml\n", file="HOOK.yml")
    (spec,) = load_jcli(project).hooks
    assert spec.command == "yaml"


@pytest.mark.parametrize("where", [".jcli", ".jcli/hooks", ".jcli/hooks.yaml"])
def test_other_ways_to_point_at_the_project(project: Path, where: str) -> None:
    hook(project / ".jcli" / "hooks", "a", "events: [stop]\ncommand: a\n")
    write(project / ".jcli" / "hooks.yaml", "stop:\n  - command: legacy\n")
    loaded = read_jcli(project / where)
    expected = {
        ".jcli": ["project:a", "project:legacy"],
        ".jcli/hooks": ["project:a"],
        ".jcli/hooks.yaml": ["project:legacy"],
    }[where]
    assert [spec.name for spec in loaded.config.hooks] == expected
    assert loaded.cwd == project


def test_pointing_at_the_user_folder_reads_it_once() -> None:
    hook(user_hooks(), "a", "events: [stop]\ncommand: a\n")
    assert [spec.name for spec in load_jcli(user_hooks()).hooks] == ["user:a"]


def test_files_read_are_listed_for_the_watcher(project: Path) -> None:
    file = hook(project / ".jcli" / "hooks", "a", "events: [stop]\ncommand: a\n")
    assert read_jcli(project).files == (file,)


# ---- warnings ------------------------------------------------------------------------------


def test_unknown_keys_are_warnings_with_file_line_and_key(project: Path) -> None:
    file = hook(
        project / ".jcli" / "hooks",
        "a",
        """
        events: [pre_tool_execution]
        command: a
        on-error: stop
        filter:
          tool: Bash
        """,
    )
    loaded = read_jcli(project)
    assert len(loaded.config.hooks) == 1
    typo, nested = loaded.warnings
    assert (typo.file, typo.line, typo.key) == (str(file), 3, "on-error")
    assert 'did you mean "on_error"' in typo.finding.message
    assert (nested.line, nested.key) == (5, "filter.tool")
    message = 'unknown key "on-error" (did you mean "on_error"?): j-cli ignores it'
    assert str(typo) == f"{file}:3: on-error: {message}"


@pytest.mark.parametrize(
    ("on_error", "code"), [("abort", "jcli-on-error-abort"), ("stop", "jcli-on-error-stop")]
)
def test_on_error_spellings_are_accepted_with_a_version_finding(
    project: Path, on_error: str, code: str
) -> None:
    hook(project / ".jcli" / "hooks", "a", f"events: [stop]\ncommand: a\non_error: {on_error}\n")
    loaded = read_jcli(project)
    assert loaded.config.hooks[0].on_error == on_error
    (warning,) = loaded.warnings
    assert (warning.finding.code, warning.key, warning.line) == (code, "on_error", 3)
    assert "G4" in warning.finding.host_does and "G3" in warning.finding.host_does


def test_llm_hooks_are_not_run_but_reported(project: Path) -> None:
    hook(project / ".jcli" / "hooks", "judge", "events: [stop]\ntype: llm\nprompt: judge\n")
    loaded = read_jcli(project)
    assert loaded.config.hooks == ()
    assert [w.finding.code for w in loaded.warnings] == ["jcli-llm-hook"]


@pytest.mark.parametrize(
    ("extra", "code"),
    [
        ("type: shell", "jcli-version-only"),
        ("runtime: sh", "jcli-runtime"),
        ("timeout: 0", "jcli-timeout-zero"),
        ("filter: {tool_matcher: 'Bash*'}", "jcli-filter-never-matches"),
    ],
)
def test_version_and_pitfall_warnings(project: Path, extra: str, code: str) -> None:
    hook(project / ".jcli" / "hooks", "a", f"events: [pre_tool_execution]\ncommand: a\n{extra}\n")
    assert [w.finding.code for w in read_jcli(project).warnings] == [code]


# ---- errors --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "line", "key", "words"),
    [
        ("events: [stop\ncommand: a\n", 2, None, "invalid YAML"),
        ("events: [stop]\ncommand: a\ntimeout: '5'\n", 3, "timeout", "expected an integer"),
        ("events: [stop]\ncommand: a\nretry: -1\n", 3, "retry", "0 or more"),
        ("events: [stop, pre_tool_use]\ncommand: a\n", 1, "events[1]", "unknown event"),
        ("events: stop\ncommand: a\n", 1, "events", "list of strings"),
        ("events: []\ncommand: a\n", 1, "events", "at least one"),
        ("command: a\n", 1, None, "events is required"),
        ("events: [stop]\n", 1, None, "command is required"),
        ("events: [stop]\ncommand: a\non_error: fail\n", 3, "on_error", "skip, stop, abort"),
        ("events: [stop]\ncommand: a\ntype: python\n", 3, "type", "bash, shell, llm"),
        ("events: [stop]\ncommand: a\nfilter: {tool_name: 3}\n", 3, "filter.tool_name", "string"),
    ],
)
def test_real_errors_name_file_line_and_key(
    project: Path, text: str, line: int, key: str | None, words: str
) -> None:
    file = hook(project / ".jcli" / "hooks", "a", text)
    with pytest.raises(ConfigError) as caught:
        load_jcli(project)
    error = caught.value
    assert (error.file, error.line, error.key) == (str(file), line, key)
    assert words in error.message


def test_legacy_errors(project: Path) -> None:
    legacy = project / ".jcli" / "hooks.yaml"
    write(legacy, "pre_send:\n  - command: a\n")
    with pytest.raises(ConfigError, match='unknown event "pre_send"') as caught:
        load_jcli(project)
    assert (caught.value.line, caught.value.key) == (1, "pre_send")
    write(legacy, "stop:\n  command: a\n")
    with pytest.raises(ConfigError, match="expected a list of hooks"):
        load_jcli(project)


def test_a_missing_path_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="no such file"):
        load_jcli(tmp_path / "nowhere")


def test_the_shipped_example_loads_cleanly() -> None:
    loaded = read_jcli(EXAMPLE)
    assert [spec.name for spec in loaded.config.hooks] == [
        "project:guard_dangerous",
        "project:project_rules",
        "project:redact_secrets",
    ]
    assert loaded.warnings == ()
