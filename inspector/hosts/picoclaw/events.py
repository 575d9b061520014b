"""What PicoClaw's hooks are called with: its JSON-RPC methods, and the stages a decision names
bare (before_tool) where an exchange names the method (hook.before_tool)."""

from __future__ import annotations

from inspector.hosts.picoclaw.catalogue import METHODS
from inspector.jsonrpc.stages import STAGES

EVENTS: tuple[str, ...] = (*METHODS, *STAGES)
