"""Every host hook-inspector speaks, one line each: adding a host is a folder and a line here.
The first host that recognises a path reads it, so Claude Code's settings.json comes before
PicoClaw's config.json."""

from __future__ import annotations

from pathlib import Path

from inspector.hosts.claude.host import HOST as CLAUDE
from inspector.hosts.host import Host
from inspector.hosts.jcli.host import HOST as JCLI
from inspector.hosts.openclaw.host import HOST as OPENCLAW
from inspector.hosts.picoclaw.host import HOST as PICOCLAW

HOSTS: tuple[Host, ...] = (
    CLAUDE,
    JCLI,
    OPENCLAW,
    PICOCLAW,
)


def host_named(name: str) -> Host:
    """The host a config or a record names; PicoClaw for a name none has (old journals)."""
    return next((host for host in HOSTS if host.name == name), PICOCLAW)


def host_of_path(path: Path) -> Host | None:
    """The host whose config `path` (absolute) is, or None (a native YAML file, or nothing)."""
    return next((host for host in HOSTS if host.recognises(path)), None)


def command_events() -> dict[str, tuple[str, ...]]:
    """The events of each host whose hooks are commands: what a native config may name."""
    return {host.name: host.events for host in HOSTS if host.runs_commands}
