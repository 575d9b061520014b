"""Which Bash commands the emulated permission layer lets run unasked, command by command."""

from __future__ import annotations

from pathlib import Path

import pytest

from inspector.hosts.claude.bash_permissions import REQUIRES_APPROVAL, judge
from inspector.hosts.claude.versions import claude_version


def verdict_of(command: str, project: Path, *, accept_edits: bool = False) -> tuple[bool, str]:
    verdict = judge(command, project, accept_edits=accept_edits, version=claude_version("2.1.332"))
    return verdict.runs, verdict.message


@pytest.mark.parametrize(
    "command",
    [
        "echo $(rm -rf ~)",
        'echo "$(rm -rf ~)"',
        "cat `rm -rf ~`",
        "cat <(rm -rf scratch)",
        "diff >(rm -rf scratch) a",
        "ls $(touch made)",
    ],
)
def test_command_and_process_substitution_need_approval(tmp_path: Path, command: str) -> None:
    assert verdict_of(command, tmp_path) == (False, REQUIRES_APPROVAL)
    assert verdict_of(command, tmp_path, accept_edits=True) == (False, REQUIRES_APPROVAL)


@pytest.mark.parametrize("newlines", ["\n", "\n\n", ";\n", "&&\n", "\r\n"])
def test_a_newline_separates_commands_as_a_semicolon_does(tmp_path: Path, newlines: str) -> None:
    runs, message = verdict_of(f"echo hi{newlines}rm -rf ~", tmp_path)
    assert not runs
    assert message.startswith(f"rm in '{Path.home()}' needs approval")
    assert verdict_of(f"echo hi{newlines}ls", tmp_path)[0]


def test_a_newline_inside_quotes_stays_in_its_word(tmp_path: Path) -> None:
    assert verdict_of("echo 'hi\nrm -rf ~'", tmp_path)[0]


@pytest.mark.parametrize(
    "command",
    [
        "git diff --output=/tmp/x",
        "git log -p --output=patch.txt",
        "date -s '2020-01-01'",
        "date --set=2020-01-01",
        "date 010100002020",
    ],
)
def test_commands_that_write_by_an_argument_need_approval(tmp_path: Path, command: str) -> None:
    assert verdict_of(command, tmp_path) == (False, REQUIRES_APPROVAL)


@pytest.mark.parametrize(
    "command", ["git diff", "git log --oneline", "date", "date +%s", "date -d yesterday +%F"]
)
def test_the_same_commands_only_reading_still_run(tmp_path: Path, command: str) -> None:
    assert verdict_of(command, tmp_path) == (True, "")
