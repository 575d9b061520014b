"""The type check in pyproject.toml ([tool.mypy]): the whole package passes mypy."""

from __future__ import annotations

import os

import pytest
from mypy import api

from tests.support.paths import ROOT


def test_the_package_type_checks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)  # [tool.mypy] names its files from the project's root
    # No cache: a full check, and nothing written into the checkout.
    report, errors, status = api.run(
        ["--config-file", str(ROOT / "pyproject.toml"), "--cache-dir", os.devnull]
    )
    assert status == 0, report + errors
    assert report.startswith("Success: no issues found"), report
