"""The import contract in pyproject.toml ([tool.importlinter]): layers import only downward,
with no cycle, and the agent's relay imports nothing of the inspector but its own package."""

from __future__ import annotations

import pytest
from importlinter.cli import EXIT_STATUS_SUCCESS, lint_imports

from tests.support.paths import ROOT


def test_the_import_contract_holds(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(ROOT)
    status = lint_imports(config_filename=str(ROOT / "pyproject.toml"), no_cache=True, no_logo=True)
    report = capsys.readouterr().out
    assert status == EXIT_STATUS_SUCCESS, report
    assert "0 broken" in report
