"""inspector/examples/ holds one project per host, for a user to copy: its config or settings,
its hooks and a scenario beside them, and `check` passes on each."""

from __future__ import annotations

import shutil

import pytest

from inspector.demo import DEMO_CONFIG, EXAMPLES, default_scenario
from inspector.hosts.openclaw import NAME as OPENCLAW
from inspector.hosts.picoclaw import NAME as PICOCLAW
from inspector.hosts.registry import HOSTS
from tests.cli.test_cli import hook_inspector

# PicoClaw's config is a file (the demo's); every other host's project is its folder.
CONFIGS = {host.name: EXAMPLES / host.name for host in HOSTS} | {PICOCLAW: DEMO_CONFIG}


def test_every_host_has_an_example_and_nothing_else_is_there() -> None:
    found = sorted(path.name for path in EXAMPLES.iterdir() if path.name != "__pycache__")
    assert found == sorted(CONFIGS)


@pytest.mark.parametrize("host", sorted(CONFIGS))
def test_each_example_plays_its_own_scenario_and_passes_check(host: str) -> None:
    if host == OPENCLAW and shutil.which("node") is None:
        pytest.skip("node is not installed")
    config = CONFIGS[host]
    assert default_scenario(config).parent == EXAMPLES / host
    result = hook_inspector("check", str(config))
    assert result.returncode == 0, result.stdout + result.stderr
    assert "hook(s) pass" in result.stdout
