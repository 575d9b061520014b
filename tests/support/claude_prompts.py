"""One prompt of a live Claude Code session as its command hooks get it, for a relay to bring:
UserPromptSubmit, a Bash PreToolUse and Stop, every one naming the prompt (prompt_id)."""

from __future__ import annotations

from typing import Any

from tests.support.command_relay import pre_tool_use


def claude_prompt(prompt_id: str) -> list[dict[str, Any]]:
    tool = pre_tool_use("ls") | {"prompt_id": prompt_id}
    common = {key: tool[key] for key in ("session_id", "transcript_path", "cwd")}
    common |= {"prompt_id": prompt_id, "permission_mode": "default"}
    prompt = {"hook_event_name": "UserPromptSubmit", "prompt": "List the folder."}
    stop = {"hook_event_name": "Stop", "stop_hook_active": False, "last_assistant_message": "Done."}
    return [common | prompt, tool, common | stop]
