"""hook-inspector's bridge mod for Claude Code (2.1.287 and later): a plugin folder whose hooks
module (mod/hooks/bridge.ts) sends each `tool.call` the mods see to the inspector's HTTP door and
answers with its decision (inspector/docs/claude-code.md, "Mods"). Claude Code loads a plugin
folder from its command line or environment only, so `install claude --mod` changes no settings:
it makes the door's endpoint (the port and token the mod reads) and says how to load the mod."""

from __future__ import annotations

import shlex
from pathlib import Path

from inspector.hosts.http_endpoint import endpoint_file, ensure_endpoint

BRIDGE_MOD_FOLDER = Path(__file__).with_name("mod")
FIRST_VERSION = "2.1.287"  # the first Claude Code that runs mods


def install_mod() -> str:
    """The endpoint made (or reused) for the mod; returns how to load the mod, for the user."""
    endpoint = ensure_endpoint()
    folder = shlex.quote(str(BRIDGE_MOD_FOLDER))
    return (
        f"the bridge mod finds the inspector at 127.0.0.1:{endpoint.port} ({endpoint_file()});"
        f" load it with `claude --plugin-dir {folder}` (before your own mods' --plugin-dir, so it"
        f" sees their calls first) or `export CLAUDE_CODE_PLUGIN_DIRS={folder}`"
        f" (Claude Code {FIRST_VERSION} or later)"
    )
