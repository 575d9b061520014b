"""Where the checkout, the tests' data and their hook scripts are, for tests in any folder."""

from __future__ import annotations

from pathlib import Path

SUPPORT = Path(__file__).resolve().parent
TESTS = SUPPORT.parent
ROOT = TESTS.parent
PACKAGE = ROOT / "inspector"
HOSTS = PACKAGE / "hosts"
EXAMPLES = PACKAGE / "examples"  # one project per host, named as the host is
HOOKS = TESTS / "hooks"
SCRIPTED = HOOKS / "scripted.py"
DATA = TESTS / "data"
CONFIGS = TESTS / "configs"
