"""The hook event names: hook-inspector knows exactly the ones each tested Claude Code knows,
read again here out of each installed CLI's program, so a list that drifts from its release
fails."""

from __future__ import annotations

import mmap
from pathlib import Path

from claude_cli import VERSIONS, ClaudeCli
from claude_fixtures import claude_cli  # noqa: F401 (fixture used by name)

from inspector.hosts.claude.events import EVENTS, EVENTS_BY_VERSION, NEWEST_VERSION

# The CLI's lists of hook event names start so: the whole list (its settings schema and its hook
# runner share it) and shorter ones of the events that share some trait, each a part of it.
LIST_START = b'"PreToolUse","PostToolUse","PostToolUseFailure","PostToolBatch",'


def event_lists(program: Path) -> list[tuple[str, ...]]:
    """Every list of event names in `program` that starts with LIST_START, as written there."""
    found = []
    with program.open("rb") as file, mmap.mmap(file.fileno(), 0, access=mmap.ACCESS_READ) as image:
        start = image.find(LIST_START)
        while start >= 0:
            end = image.find(b"]", start)
            found.append(tuple(name.strip('"') for name in image[start:end].decode().split(",")))
            start = image.find(LIST_START, end)
    return found


def test_the_event_names_are_the_installed_clis(claude_cli: ClaudeCli) -> None:
    lists = event_lists(claude_cli.executable.resolve())
    assert lists, "the CLI's event list was not found"
    events = max(lists, key=len)
    assert all(set(names) <= set(events) for names in lists)
    assert events == EVENTS_BY_VERSION[claude_cli.version]


def test_the_settings_reader_knows_every_tested_release_and_reads_the_newests() -> None:
    assert tuple(EVENTS_BY_VERSION) == VERSIONS
    assert (VERSIONS[-1], EVENTS_BY_VERSION[VERSIONS[-1]]) == (NEWEST_VERSION, EVENTS)
