"""The hook event names: hook-inspector knows exactly the ones the pinned Claude Code knows."""

from __future__ import annotations

import mmap

from claude_cli import ClaudeCli
from claude_fixtures import claude_cli  # noqa: F401 (fixture used by name)

from inspector.hosts.claude.events import CLI_VERSION, EVENTS

# The CLI's own list of hook event names starts so (its settings schema and its hook runner
# share it); the test reads the whole list out of the installed program.
LIST_START = b'"PreToolUse","PostToolUse","PostToolUseFailure","PostToolBatch",'


def test_the_event_names_are_the_installed_clis(claude_cli: ClaudeCli) -> None:
    with (
        claude_cli.executable.resolve().open("rb") as program,
        mmap.mmap(program.fileno(), 0, access=mmap.ACCESS_READ) as image,
    ):
        start = image.find(LIST_START)
        assert start >= 0, "the CLI's event list was not found"
        end = image.find(b"]", start)
        listed = image[start:end].decode()
    assert tuple(name.strip('"') for name in listed.split(",")) == EVENTS
    assert len(EVENTS) == 30 and CLI_VERSION == "2.1.197"
