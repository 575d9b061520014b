"""Same role, same file: every host in the registry has its folder under inspector/hosts/, holding
one module per role (docs/architecture.md lists them), so a newcomer finds a host's findings or
its config reader in the same place in every folder."""

from __future__ import annotations

import tomllib

import pytest

from inspector.hosts.registry import HOSTS
from tests.support.paths import ROOT

ROLES = (
    "host.py",  # the Host the registry lists
    "config.py",  # reads its config files into a Config
    "events.py",  # the events or methods its hooks are called with
    "chain.py",  # runs a stage's hooks by its rules
    "turn.py",  # plays a scenario
    "findings.py",  # its finding codes and the findings made from them
    "templates.py",  # sample payloads
    "relay_answer.py",  # answers a call relayed from its live agent
    "install.py",  # what `install HOST` does for it
    "runtime.py",  # what a session holds while it runs
)


@pytest.mark.parametrize("host", [host.name for host in HOSTS])
def test_every_host_folder_holds_every_role(host: str) -> None:
    folder = ROOT / "inspector" / "hosts" / host
    assert [role for role in ROLES if not (folder / role).is_file()] == []


def test_the_import_contract_names_every_host_folder() -> None:
    """A host's folder is under the layer, the "nothing above the registry names a host" and the
    independence contracts once it is in the registry (import-linter cannot glob the folders)."""
    contracts = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
    (layers,) = [c for c in contracts["contracts"] if c["type"] == "layers"]
    (above,) = [
        c for c in contracts["contracts"] if "inspector.engine" in c.get("source_modules", ())
    ]
    (independence,) = [c for c in contracts["contracts"] if c["type"] == "independence"]
    listed = {
        "layers": _names(layers["layers"]),
        "forbidden": _names(above["forbidden_modules"]),
        "independence": _names(independence["modules"]),
    }
    missing = [
        f"inspector.hosts.{host.name} in the {kind} contract"
        for host in HOSTS
        for kind, names in listed.items()
        if f"inspector.hosts.{host.name}" not in names
    ]
    assert missing == []


def _names(entries: list[str]) -> set[str]:
    return {name.strip() for entry in entries for name in entry.split("|")}
