"""The command relay's flags: the quick reading (no argparse) and argparse agree, and a bad
command line is one line on stderr and exit 2."""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from inspector.hosts.install_relay import relay_command
from inspector.relay.command_args import CommandArgs, _with_argparse, parse


@pytest.mark.parametrize(
    "argv",
    [
        ["--host", "claude"],
        ["--host=jcli", "--timeout", "1.5", "--name", "agent-1"],
        ["--host", "claude", "--socket", "/tmp/x.sock", "--timeout=90"],
        ["--host", "claude", "--connect", "[::1]:7777", "--token-file", "/tmp/token"],
        ["--host", "gemini", "--timeout", "60", "--quiet"],
    ],
)
def test_the_quick_reading_agrees_with_argparse(argv: list[str]) -> None:
    assert parse(argv) == _with_argparse(argv)


def test_flags_are_read_as_the_host_config_gives_them() -> None:
    argv = ["--host", "claude", "--socket", "/tmp/x.sock", "--timeout", "1.5"]
    assert parse(argv) == CommandArgs("claude", "/tmp/x.sock", None, None, None, 1500)
    assert parse(["--host", "jcli"]).timeout_ms is None  # the inspector's welcome says it


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--host", "claude", "--timeout", "nope"], "expected a positive number of seconds"),
        (["--host", "claude", "--timeout", "0.01"], "leaves no time to answer"),
        (["--host", "claude", "--connect", "127.0.0.1:7777"], "--connect needs --token-file"),
        (["--host", "claude", "--connect", "nowhere"], "expected HOST:PORT"),
        (["--host", "claude", "--socket", "a", "--connect", "h:1"], "not allowed with"),
        (["--host", "claude", "--colour"], "unrecognized arguments: --colour"),
        (["--host", "claude", "--name"], "expected one argument"),
    ],
)
def test_a_bad_command_line_is_one_line_and_exit_2(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_:
        parse(argv)
    assert exit_.value.code == 2
    error = capsys.readouterr().err.splitlines()[-1]
    assert error.startswith("hook-inspector relay: error:") and message in error


def test_a_command_relay_run_imports_no_pathlib_argparse_typing_or_dataclasses(
    tmp_path: Path,
) -> None:
    """It starts once per hook event: pathlib (with re, fnmatch, urllib), argparse, typing and
    dataclasses are most of the start-up a relay can avoid."""
    run_then_list_modules = (
        "import sys\n"
        "from inspector.relay.main import main\n"
        "code = main(sys.argv[1:])\n"
        "print(' '.join(sorted(sys.modules)), file=sys.stderr)\n"
        "sys.exit(code)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", run_then_list_modules, "--host", "claude"],
        input=b'{"hook_event_name":"PreToolUse"}\n',
        capture_output=True,
        env={**os.environ, "XDG_RUNTIME_DIR": str(tmp_path)},
        timeout=20,
    )
    said = done.stderr.decode()
    assert done.returncode == 0 and done.stdout == b""
    assert "no hook-inspector at" in said  # it really ran: no inspector listens there
    modules = said.splitlines()[-1].split()
    assert "inspector.relay.command" in modules
    assert not {"pathlib", "argparse", "typing", "dataclasses"} & set(modules)


def test_the_installed_relay_command_runs_without_site(tmp_path: Path) -> None:
    words = shlex.split(relay_command("claude", 600, tmp_path / "none.sock"))
    python, flags, relay_file, arguments = words[0], words[1:3], words[3], words[4:]
    done = subprocess.run(
        [python, *flags, "-X", "importtime", relay_file, *arguments],
        input=b'{"hook_event_name":"PreToolUse"}\n',
        capture_output=True,
        timeout=20,
    )
    said = done.stderr.decode()
    modules = {line.split("|")[-1].strip() for line in said.splitlines() if "|" in line}
    assert done.returncode == 0 and done.stdout == b"" and "no hook-inspector at" in said
    assert "inspector.relay.command_main" in modules
    assert not {"site", "typing", "dataclasses", "pathlib", "argparse", "inspector.cli"} & modules


def test_the_console_script_sends_relay_straight_to_the_relay(tmp_path: Path) -> None:
    script = Path(sys.executable).parent / "hook-inspector"
    done = subprocess.run(
        [sys.executable, "-X", "importtime", str(script), "relay", "--host", "claude"],
        input=b'{"hook_event_name":"PreToolUse"}\n',
        capture_output=True,
        env={**os.environ, "XDG_RUNTIME_DIR": str(tmp_path)},
        timeout=20,
    )
    said = done.stderr.decode()
    modules = {line.split("|")[-1].strip() for line in said.splitlines() if "|" in line}
    assert done.returncode == 0 and "no hook-inspector at" in said
    assert "inspector.relay.command_main" in modules
    assert not {"inspector.cli", "pathlib", "argparse"} & modules


def test_a_quiet_relay_with_no_inspector_says_nothing_and_passes(tmp_path: Path) -> None:
    """Gemini CLI takes a hook's stderr for its answer when stdout is empty, so the relay
    install gemini writes must pass in silence."""
    words = shlex.split(relay_command("gemini", 60, tmp_path / "none.sock", quiet=True))
    assert words[-1] == "--quiet"
    done = subprocess.run(
        words, input=b'{"hook_event_name":"BeforeTool"}', capture_output=True, timeout=20
    )
    assert (done.returncode, done.stdout, done.stderr) == (0, b"", b"")
