"""Which Bash commands the emulated permission layer lets run unasked, command by command."""

from __future__ import annotations

from pathlib import Path

import pytest

from inspector.hosts.claude.bash_permissions import REQUIRES_APPROVAL, judge
from inspector.hosts.claude.versions import claude_version


def verdict_of(
    command: str, project: Path, *, accept_edits: bool = False, release: str = "2.1.332"
) -> tuple[bool, str]:
    version = claude_version(release)
    verdict = judge(command, project, accept_edits=accept_edits, version=version)
    return verdict.runs, verdict.message


NESTED = {
    "2.1.197": "Contains command_substitution",
    "2.1.332": "A nested command in this command can't be checked before it runs",
}
AS_A_FILE = {
    "2.1.197": "Contains process_substitution",
    "2.1.332": "A command used as a file in this command can't be checked before it runs",
}


@pytest.mark.parametrize("release", sorted(NESTED))
@pytest.mark.parametrize(
    ("command", "words"),
    [
        ("echo $(rm -rf ~)", NESTED),
        ('echo "$(rm -rf ~)"', NESTED),
        ("cat `rm -rf ~`", NESTED),
        ("ls $(touch made)", NESTED),
        ('ls && echo "`touch made`"', NESTED),
        ("cat <(rm -rf scratch)", AS_A_FILE),
        ("diff >(rm -rf scratch) a", AS_A_FILE),
    ],
)
def test_command_and_process_substitution_need_approval_in_the_releases_words(
    tmp_path: Path, release: str, command: str, words: dict[str, str]
) -> None:
    for accept_edits in (False, True):
        runs = verdict_of(command, tmp_path, accept_edits=accept_edits, release=release)
        assert runs == (False, words[release])


@pytest.mark.parametrize("command", ["echo '$(touch made)'", "echo 'a `b` <(c)'", "echo \\$(x"])
def test_a_substitution_in_single_quotes_or_escaped_is_plain_text(
    tmp_path: Path, command: str
) -> None:
    assert verdict_of(command, tmp_path) == (True, "")


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
