"""The Go types PicoClaw decodes hook answers into and sends as params, field for field (JSON
name, Go type, omitempty), as declared at sipeed/picoclaw cf67dd38. Fields tagged `json:"-"` and
unexported fields are left out: encoding/json never reads or writes them."""

from __future__ import annotations

from typing import Any

from inspector.hosts.picoclaw.gojson.types import (
    ANY,
    BOOL,
    INT,
    RAW,
    STRING,
    TIME,
    UINT64,
    Field,
    Map,
    Pointer,
    Scalar,
    Slice,
    Struct,
)

STRINGS = Slice(STRING)
STRING_MAP = Map(STRING)
ANY_MAP = Map(ANY)
HOOK_ACTION = Scalar("string", "agent.HookAction")
DURATION = Scalar("int", "time.Duration")


def _fields(*specs: tuple[Any, ...]) -> tuple[Field, ...]:
    """Each spec is (JSON name, Go type) or (JSON name, Go type, omitempty)."""
    return tuple(Field(*spec) for spec in specs)


# pkg/agent/events.go HookMeta (no JSON tags: Go field names)
HOOK_META = Struct(
    "agent.HookMeta",
    _fields(
        ("AgentID", STRING),
        ("TurnID", STRING),
        ("ParentTurnID", STRING),
        ("SessionKey", STRING),
        ("Iteration", INT),
        ("TracePath", STRING),
        ("Source", STRING),
    ),
)

# pkg/bus/types.go InboundContext
INBOUND_CONTEXT = Struct(
    "bus.InboundContext",
    _fields(
        ("channel", STRING),
        ("account", STRING, True),
        ("chat_id", STRING),
        ("chat_type", STRING, True),
        ("topic_id", STRING, True),
        ("space_id", STRING, True),
        ("space_type", STRING, True),
        ("sender_id", STRING),
        ("message_id", STRING, True),
        ("mentioned", BOOL, True),
        ("reply_to_message_id", STRING, True),
        ("reply_to_sender_id", STRING, True),
        ("reply_handles", STRING_MAP, True),
        ("raw", STRING_MAP, True),
    ),
)

# pkg/routing/route.go SessionPolicy and ResolvedRoute (no JSON tags)
SESSION_POLICY = Struct(
    "routing.SessionPolicy",
    _fields(("Dimensions", STRINGS), ("IdentityLinks", Map(STRINGS))),
)
RESOLVED_ROUTE = Struct(
    "routing.ResolvedRoute",
    _fields(
        ("AgentID", STRING),
        ("Channel", STRING),
        ("AccountID", STRING),
        ("SessionPolicy", SESSION_POLICY),
        ("MatchedBy", STRING),
    ),
)

# pkg/session/scope.go SessionScope
SESSION_SCOPE = Struct(
    "session.SessionScope",
    _fields(
        ("version", INT),
        ("agent_id", STRING),
        ("channel", STRING),
        ("account", STRING),
        ("dimensions", STRINGS),
        ("values", STRING_MAP),
    ),
)

# pkg/agent/turn_context.go TurnContext
TURN_CONTEXT = Struct(
    "agent.TurnContext",
    _fields(
        ("inbound", Pointer(INBOUND_CONTEXT), True),
        ("route", Pointer(RESOLVED_ROUTE), True),
        ("scope", Pointer(SESSION_SCOPE), True),
    ),
)

# pkg/providers/protocoltypes/types.go
FUNCTION_CALL = Struct(
    "protocoltypes.FunctionCall",
    _fields(("name", STRING), ("arguments", STRING), ("thought_signature", STRING, True)),
)
GOOGLE_EXTRA = Struct("protocoltypes.GoogleExtra", _fields(("thought_signature", STRING, True)))
EXTRA_CONTENT = Struct(
    "protocoltypes.ExtraContent",
    _fields(
        ("google", Pointer(GOOGLE_EXTRA), True),
        ("tool_feedback_explanation", STRING, True),
    ),
)
TOOL_CALL = Struct(
    "protocoltypes.ToolCall",
    _fields(
        ("id", STRING),
        ("type", STRING, True),
        ("function", Pointer(FUNCTION_CALL), True),
        ("extra_content", Pointer(EXTRA_CONTENT), True),
    ),
)
CACHE_CONTROL = Struct("protocoltypes.CacheControl", _fields(("type", STRING)))
CONTENT_BLOCK = Struct(
    "protocoltypes.ContentBlock",
    _fields(("type", STRING), ("text", STRING), ("cache_control", Pointer(CACHE_CONTROL), True)),
)
ATTACHMENT = Struct(
    "protocoltypes.Attachment",
    _fields(
        ("type", STRING, True),
        ("ref", STRING, True),
        ("url", STRING, True),
        ("filename", STRING, True),
        ("content_type", STRING, True),
    ),
)
MESSAGE = Struct(
    "protocoltypes.Message",
    _fields(
        ("role", STRING),
        ("content", STRING),
        ("model_name", STRING, True),
        ("created_at", Pointer(TIME), True),
        ("media", STRINGS, True),
        ("attachments", Slice(ATTACHMENT), True),
        ("reasoning_content", STRING, True),
        ("system_parts", Slice(CONTENT_BLOCK), True),
        ("tool_calls", Slice(TOOL_CALL), True),
        ("tool_call_id", STRING, True),
    ),
)
TOOL_FUNCTION_DEFINITION = Struct(
    "protocoltypes.ToolFunctionDefinition",
    _fields(("name", STRING), ("description", STRING), ("parameters", ANY_MAP)),
)
TOOL_DEFINITION = Struct(
    "protocoltypes.ToolDefinition",
    _fields(("type", STRING), ("function", TOOL_FUNCTION_DEFINITION)),
)
USAGE_INFO = Struct(
    "protocoltypes.UsageInfo",
    _fields(("prompt_tokens", INT), ("completion_tokens", INT), ("total_tokens", INT)),
)
REASONING_DETAIL = Struct(
    "protocoltypes.ReasoningDetail",
    _fields(("format", STRING), ("index", INT), ("type", STRING), ("text", STRING)),
)
LLM_RESPONSE = Struct(
    "protocoltypes.LLMResponse",
    _fields(
        ("content", STRING),
        ("reasoning_content", STRING, True),
        ("tool_calls", Slice(TOOL_CALL), True),
        ("finish_reason", STRING),
        ("usage", Pointer(USAGE_INFO), True),
        ("reasoning", STRING),
        ("reasoning_details", Slice(REASONING_DETAIL)),
    ),
)

# pkg/tools/shared/result.go ToolResult
TOOL_RESULT = Struct(
    "toolshared.ToolResult",
    _fields(
        ("for_llm", STRING),
        ("for_user", STRING, True),
        ("silent", BOOL),
        ("is_error", BOOL),
        ("async", BOOL),
        ("media", STRINGS, True),
        ("artifact_tags", STRINGS, True),
        ("response_handled", BOOL, True),
    ),
)

# pkg/agent/hooks.go: what each stage sends (and what a replacement object must be)
_META_CONTEXT = (("meta", HOOK_META), ("context", Pointer(TURN_CONTEXT), True))
LLM_HOOK_REQUEST = Struct(
    "agent.LLMHookRequest",
    _fields(
        *_META_CONTEXT,
        ("model", STRING),
        ("messages", Slice(MESSAGE), True),
        ("tools", Slice(TOOL_DEFINITION), True),
        ("options", ANY_MAP, True),
        ("graceful_terminal", BOOL, True),
    ),
)
LLM_HOOK_RESPONSE = Struct(
    "agent.LLMHookResponse",
    _fields(
        *_META_CONTEXT,
        ("model", STRING),
        ("response", Pointer(LLM_RESPONSE), True),
    ),
)
TOOL_CALL_HOOK_REQUEST = Struct(
    "agent.ToolCallHookRequest",
    _fields(
        *_META_CONTEXT,
        ("tool", STRING),
        ("arguments", ANY_MAP, True),
        ("channel", STRING, True),
        ("chat_id", STRING, True),
        ("hook_result", Pointer(TOOL_RESULT), True),
    ),
)
TOOL_APPROVAL_REQUEST = Struct(
    "agent.ToolApprovalRequest",
    _fields(*_META_CONTEXT, ("tool", STRING), ("arguments", ANY_MAP, True)),
)
TOOL_RESULT_HOOK_RESPONSE = Struct(
    "agent.ToolResultHookResponse",
    _fields(
        *_META_CONTEXT,
        ("tool", STRING),
        ("arguments", ANY_MAP, True),
        ("result", Pointer(TOOL_RESULT), True),
        ("duration", DURATION),
    ),
)

# pkg/agent/hook_process.go: the answers (processHookDecisionResponse is embedded, so action and
# reason sit at the top level) and hooks.go ApprovalDecision
_DECISION = (("action", HOOK_ACTION), ("reason", STRING, True))
BEFORE_LLM_ANSWER = Struct(
    "agent.processHookBeforeLLMResponse",
    _fields(*_DECISION, ("request", Pointer(LLM_HOOK_REQUEST), True)),
)
AFTER_LLM_ANSWER = Struct(
    "agent.processHookAfterLLMResponse",
    _fields(*_DECISION, ("response", Pointer(LLM_HOOK_RESPONSE), True)),
)
BEFORE_TOOL_ANSWER = Struct(
    "agent.processHookBeforeToolResponse",
    _fields(
        *_DECISION,
        ("call", Pointer(TOOL_CALL_HOOK_REQUEST), True),
        ("result", Pointer(TOOL_RESULT), True),
    ),
)
AFTER_TOOL_ANSWER = Struct(
    "agent.processHookAfterToolResponse",
    _fields(*_DECISION, ("result", Pointer(TOOL_RESULT_HOOK_RESPONSE), True)),
)
APPROVAL_DECISION = Struct(
    "agent.ApprovalDecision", _fields(("approved", BOOL), ("reason", STRING, True))
)
HELLO_RESULT = ANY_MAP

# pkg/agent/hook_process.go processHookRPCMessage and processHookRPCError
RPC_ERROR = Struct("agent.processHookRPCError", _fields(("code", INT), ("message", STRING)))
RPC_MESSAGE = Struct(
    "agent.processHookRPCMessage",
    _fields(
        ("jsonrpc", STRING, True),
        ("id", UINT64, True),
        ("method", STRING, True),
        ("params", RAW, True),
        ("result", RAW, True),
        ("error", Pointer(RPC_ERROR), True),
    ),
)

# Per stage: what PicoClaw sends, what it decodes the answer into, and the answer's member that
# carries the replacement object.
PARAMS = {
    "before_llm": LLM_HOOK_REQUEST,
    "after_llm": LLM_HOOK_RESPONSE,
    "before_tool": TOOL_CALL_HOOK_REQUEST,
    "approve_tool": TOOL_APPROVAL_REQUEST,
    "after_tool": TOOL_RESULT_HOOK_RESPONSE,
}
ANSWERS = {
    "before_llm": BEFORE_LLM_ANSWER,
    "after_llm": AFTER_LLM_ANSWER,
    "before_tool": BEFORE_TOOL_ANSWER,
    "approve_tool": APPROVAL_DECISION,
    "after_tool": AFTER_TOOL_ANSWER,
}
REPLACEMENT_KEY = {
    "before_llm": "request",
    "after_llm": "response",
    "before_tool": "call",
    "after_tool": "result",
}
