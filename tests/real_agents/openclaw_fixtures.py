"""Fixtures for the tests against the real OpenClaw Gateway, imported by the test modules (a
conftest.py here would shadow tests/conftest.py, which the other test modules import by name).

`openclaw` installs the pinned OpenClaw and node 24 once per machine (see openclaw_cli.py). When
that cannot be done, or a Gateway cannot start, the tests are skipped with the reason, except in
CI (CI set), where a skipped real-agent test would hide a regression: there they fail.
"""

from __future__ import annotations

import os
from typing import NoReturn

import openclaw_cli
import pytest


def unavailable(reason: str) -> NoReturn:
    if os.environ.get("CI"):
        pytest.fail(f"the real OpenClaw is needed in CI: {reason}", pytrace=False)
    pytest.skip(f"the real OpenClaw is not available: {reason}")


@pytest.fixture(scope="session")
def openclaw() -> openclaw_cli.OpenClaw:
    try:
        return openclaw_cli.install(openclaw_cli.cache_folder())
    except openclaw_cli.Unavailable as error:
        unavailable(str(error))
