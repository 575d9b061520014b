"""This process's open file descriptors, for tests that check nothing leaks (Linux)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

needs_proc = pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="needs /proc")


def open_fds() -> set[str]:
    """This process's open file descriptors (Linux)."""
    return set(os.listdir("/proc/self/fd"))
