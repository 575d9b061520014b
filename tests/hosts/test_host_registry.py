"""The registry hands each config to its own host, whatever the order hosts are tried in."""

from __future__ import annotations

from pathlib import Path

import pytest

from inspector.cli.main import main
from inspector.config.errors import ConfigError
from inspector.hosts.claude import NAME as CLAUDE
from inspector.hosts.codex import NAME as CODEX
from inspector.hosts.gemini import NAME as GEMINI
from inspector.hosts.jcli import NAME as JCLI
from inspector.hosts.load import load_config
from inspector.hosts.openclaw import NAME as OPENCLAW
from inspector.hosts.picoclaw import NAME as PICOCLAW
from inspector.hosts.registry import HOSTS, NATIVE, host_named, host_of_path
from tests.support.paths import PACKAGE


@pytest.mark.parametrize(
    ("where", "host"),
    [
        ("examples/jcli", JCLI),
        ("examples/jcli/.jcli", JCLI),
        ("examples/jcli/.jcli/hooks/guard_dangerous/HOOK.yaml", JCLI),
        ("examples/claude", CLAUDE),
        ("examples/claude/.claude/settings.json", CLAUDE),
        ("examples/codex", CODEX),
        ("examples/codex/.codex/hooks.json", CODEX),
        ("examples/gemini", GEMINI),
        ("examples/gemini/.gemini/settings.json", GEMINI),
        ("examples/picoclaw/demo.yaml", None),  # native YAML: read by the loader, for any host
    ],
)
def test_each_example_is_read_by_its_own_host(where: str, host: str | None) -> None:
    found = host_of_path(PACKAGE / where)
    assert (found.name if found else None) == host


def test_a_picoclaw_config_json_is_picoclaw_s(tmp_path: Path) -> None:
    config = tmp_path / "config.json"
    config.write_text('{"hooks": {}}')
    found = host_of_path(config)
    assert found is not None and found.name == PICOCLAW


def test_hosts_have_one_name_each_and_an_unknown_name_is_picoclaw() -> None:
    names = [host.name for host in HOSTS]
    assert sorted(names) == sorted({PICOCLAW, JCLI, CLAUDE, CODEX, OPENCLAW, GEMINI})
    assert all(host_named(name).name == name for name in names)
    assert host_named("").name == PICOCLAW  # journals written before records named their host


def test_a_folder_no_host_reads_is_refused_naming_every_host_s_project(tmp_path: Path) -> None:
    with pytest.raises(ConfigError) as error:
        load_config(tmp_path)
    for host in HOSTS:
        if host is not NATIVE:  # PicoClaw's config is a file, never a folder
            assert host.label in str(error.value)


def test_run_help_names_every_host_s_config(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["run", "--help"])
    said = " ".join(capsys.readouterr().out.split())
    for host in HOSTS:
        assert host.label in said
