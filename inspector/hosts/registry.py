"""Every host hook-inspector speaks, one line each: adding a host is a folder and a line here.
The first host that recognises a path reads it, so Claude Code's settings.json comes before
PicoClaw's config.json."""

from __future__ import annotations

from pathlib import Path

from inspector.hosts.claude.host import HOST as CLAUDE
from inspector.hosts.codex.host import HOST as CODEX
from inspector.hosts.gemini.host import HOST as GEMINI
from inspector.hosts.host import Host
from inspector.hosts.jcli.host import HOST as JCLI
from inspector.hosts.openclaw.host import HOST as OPENCLAW
from inspector.hosts.picoclaw.host import HOST as PICOCLAW

HOSTS: tuple[Host, ...] = (
    CLAUDE,
    CODEX,
    GEMINI,
    JCLI,
    OPENCLAW,
    PICOCLAW,
)


# hook-inspector's first host: a native YAML file's process and manual hooks, a record that
# names no host, and a relay that greets with neither a command nor a plugin (the JSON-RPC
# process-hook relay) are PicoClaw's.
NATIVE = PICOCLAW


def host_named(name: str) -> Host:
    """The host a config or a record names; PicoClaw for a name none has (old journals)."""
    return next((host for host in HOSTS if host.name == name), NATIVE)


def host_label(name: str) -> str:
    """How a person names the host a record or config names ("Claude Code"); a name no host
    has, as it is."""
    known = name == "" or any(host.name == name for host in HOSTS)
    return host_named(name).label if known else name


def command_host_named(name: object) -> Host | None:
    """The host whose hooks are commands named `name`, or None."""
    return next((host for host in HOSTS if host.runs_commands and host.name == name), None)


def plugin_host_named(name: object) -> Host | None:
    """The host named `name` whose agent runs a bridge plugin of ours, or None."""
    return next((host for host in HOSTS if host.bridge_plugin and host.name == name), None)


def posting_host() -> Host:
    """The host whose hooks POST to the inspector's HTTP endpoint (Claude Code's http hooks)."""
    return next(host for host in HOSTS if host.posts_hooks)


def host_of_path(path: Path) -> Host | None:
    """The host whose config `path` (absolute) is, or None (a native YAML file, or nothing)."""
    return next((host for host in HOSTS if host.recognises(path)), None)


def command_events() -> dict[str, tuple[str, ...]]:
    """The events of each host whose hooks are commands: what a native config may name."""
    return {host.name: host.events for host in HOSTS if host.runs_commands}
