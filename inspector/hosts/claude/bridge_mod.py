"""Where hook-inspector's bridge mod for Claude Code (2.1.287 and later) is shipped: a plugin
folder whose hooks module (mod/hooks/bridge.ts) sends each `tool.call` the mods see to the
inspector's HTTP door and answers with its decision (inspector/docs/claude-code.md, "Mods")."""

from pathlib import Path

BRIDGE_MOD_FOLDER = Path(__file__).with_name("mod")
