"""Every hook in OpenClaw's plugin hook catalogue (2026.9.6, docs/plugins/hooks.md, and the hooks
seen firing in a real turn): the methods an OpenClaw handler's exchange can have."""

from __future__ import annotations

HOOK_NAMES: tuple[str, ...] = (
    # agent turn
    "before_model_resolve",
    "before_prompt_build",
    "before_agent_start",
    "before_agent_reply",
    "before_agent_finalize",
    "before_agent_run",
    "agent_turn_prepare",
    "agent_end",
    # conversation observation
    "model_call_started",
    "model_call_ended",
    "llm_input",
    "llm_output",
    # tools
    "before_tool_call",
    "after_tool_call",
    "tool_result_persist",
    "before_message_write",
    "resolve_exec_env",
    # messages and delivery
    "inbound_claim",
    "message_received",
    "message_sending",
    "message_sent",
    "before_dispatch",
    "reply_dispatch",
    "reply_payload_sending",
    # sessions and compaction
    "session_start",
    "session_end",
    "before_compaction",
    "after_compaction",
    "before_reset",
    # subagents
    "subagent_spawning",
    "subagent_delivery_target",
    "subagent_spawned",
    "subagent_ended",
    # lifecycle
    "gateway_start",
    "gateway_stop",
    "before_install",
)
