"""The variables Claude Code 2.1.332 gives every hook about its own process, as the emulation gives
them: CLAUDE_PID (the process that runs the hooks: here the inspector) and
CLAUDE_CODE_CHILD_NOTES_DIR (the session's notes folder, made before the hooks run, where the real
CLI makes it). 2.1.197 gives neither."""

from __future__ import annotations

import os
import re
import tempfile
from pathlib import Path

from inspector.hosts.claude.templates import ClaudeSession
from inspector.hosts.claude.versions import claude_version

SESSION = "9f938600-cb4d-40dd-aa5b-197ddc52446d"


def test_2_1_332_names_the_process_that_runs_the_hooks_and_the_sessions_notes_folder(
    tmp_path: Path,
) -> None:
    session = ClaudeSession(SESSION, str(tmp_path), "default", version=claude_version("2.1.332"))
    env = session.env("PreToolUse")
    slug = re.sub(r"[^A-Za-z0-9]", "-", str(tmp_path))
    notes = Path(tempfile.gettempdir()) / f"claude-{os.getuid()}" / slug / SESSION / "started"
    assert env["CLAUDE_PID"] == str(os.getpid())
    assert env["CLAUDE_CODE_CHILD_NOTES_DIR"] == str(notes)
    assert notes.is_dir()


def test_2_1_197_gives_no_process_variables(tmp_path: Path) -> None:
    session = ClaudeSession(SESSION, str(tmp_path), "default", version=claude_version("2.1.197"))
    env = session.env("PreToolUse")
    assert "CLAUDE_PID" not in env and "CLAUDE_CODE_CHILD_NOTES_DIR" not in env
