"""Write tests/data/picoclaw_corpus/cases.json: the hook answers the corpus
feeds PicoClaw's host. Edit the case lists here, rerun this, then rerun
regenerate.py to record what PicoClaw does with them."""

import base64
import copy
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

CASES_PATH = Path(__file__).resolve().parents[1] / "cases.json"  # the data above this folder
MIB = 1024 * 1024
Case = dict[str, Any]
Line = dict[str, Any]


def meta(trace_path: str) -> dict[str, Any]:
    return {
        "AgentID": "main",
        "TurnID": "turn-7",
        "ParentTurnID": "",
        "SessionKey": "agent:main:cli:direct",
        "Iteration": 1,
        "TracePath": trace_path,
        "Source": "runTurn",
    }


CONTEXT = {"inbound": {"channel": "cli", "chat_id": "direct", "sender_id": "user"}}
SYSTEM = {"role": "system", "content": "You are PicoClaw."}
USER = {"role": "user", "content": "say <hi> & bye"}
TOOL_DEF = {
    "type": "function",
    "function": {
        "name": "echo_text",
        "description": "Echo the text back",
        "parameters": {
            "type": "object",
            "properties": {"text": {"type": "string"}},
            "required": ["text"],
        },
    },
}
TOOL_RESULT = {"for_llm": "hi", "silent": False, "is_error": False, "async": False}
INPUTS: dict[str, dict[str, Any]] = {
    "before_llm": {
        "meta": meta("turn.llm.request"),
        "context": CONTEXT,
        "model": "model-a",
        "messages": [SYSTEM, USER],
        "tools": [TOOL_DEF],
        "options": {"max_tokens": 512, "temperature": 0.7},
    },
    "after_llm": {
        "meta": meta("turn.llm.response"),
        "context": CONTEXT,
        "model": "model-a",
        "response": {
            "content": "calling echo",
            "tool_calls": [
                {
                    "id": "call-1",
                    "type": "function",
                    "function": {"name": "echo_text", "arguments": '{"text":"hi"}'},
                }
            ],
            "finish_reason": "tool_calls",
            "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15},
            "reasoning": "",
            "reasoning_details": None,
        },
    },
    "before_tool": {
        "meta": meta("turn.tool.before"),
        "context": CONTEXT,
        "tool": "echo_text",
        "arguments": {"text": "hi"},
    },
    "approve_tool": {
        "meta": meta("turn.tool.approve"),
        "context": CONTEXT,
        "tool": "echo_text",
        "arguments": {"text": "hi"},
    },
    "after_tool": {
        "meta": meta("turn.tool.after"),
        "context": CONTEXT,
        "tool": "echo_text",
        "arguments": {"text": "hi"},
        "result": TOOL_RESULT,
        "duration": 1500000,
    },
}
INTERCEPTORS = ("before_llm", "after_llm", "before_tool", "after_tool")
# The result member that carries a replacement object, per interceptor stage.
CARRIER = {
    "before_llm": "request",
    "after_llm": "response",
    "before_tool": "call",
    "after_tool": "result",
}
ACTIONS = ("continue", "modify", "respond", "deny_tool", "abort_turn", "hard_abort")


def echo(stage: str) -> dict[str, Any]:
    return copy.deepcopy(INPUTS[stage])


def answer(result: Any, **extra: Any) -> list[Line]:
    return [{"result": result, **extra}]


def case(
    case_id: str, category: str, stage: str, lines: list[Line], note: str = "", **extra: Any
) -> Case:
    return {
        "id": case_id,
        "category": category,
        "stage": stage,
        "note": note,
        "answer": lines,
        **extra,
    }


def set_path(obj: dict[str, Any], path: list[Any], value: Any) -> dict[str, Any]:
    target: Any = obj
    for step in path[:-1]:
        target = target[step]
    target[path[-1]] = value
    return obj


def modified(stage: str, path: list[Any], value: Any) -> dict[str, Any]:
    """A stage's echo with one value replaced, as the carrier of a modify answer."""
    return {"action": "modify", CARRIER[stage]: set_path(echo(stage), path, value)}


def rpc_line(members: str) -> Line:
    """A literal response line: the jsonrpc member, then the given members."""
    return {"text": '{"jsonrpc":"2.0",' + members + "}"}


def b64(raw: bytes) -> str:
    return base64.b64encode(raw).decode()


def baseline() -> Iterator[Case]:
    for stage in INTERCEPTORS:
        yield case(
            f"baseline/{stage}/echo-continue",
            "baseline",
            stage,
            answer({"action": "continue", CARRIER[stage]: echo(stage)}),
        )
        yield case(f"baseline/{stage}/empty-object", "baseline", stage, answer({}))
    yield case(
        "baseline/approve_tool/approved", "baseline", "approve_tool", answer({"approved": True})
    )
    yield case(
        "baseline/before_tool/modify-arguments",
        "baseline",
        "before_tool",
        answer(modified("before_tool", ["arguments", "text"], "ipc")),
    )


def key_case() -> Iterator[Case]:
    cat = "key_case"
    yield case("key_case/approve/Approved", cat, "approve_tool", answer({"Approved": True}))
    yield case(
        "key_case/approve/APPROVED", cat, "approve_tool", answer({"APPROVED": True, "REASON": "ok"})
    )
    yield case("key_case/approve/aPpRoVeD", cat, "approve_tool", answer({"aPpRoVeD": True}))
    yield case(
        "key_case/approve/duplicate-last-wins",
        cat,
        "approve_tool",
        [{"result_text": '{"approved":true,"Approved":false}'}],
        "two keys differing only in case set the same field",
    )
    yield case(
        "key_case/approve/duplicate-exact-first",
        cat,
        "approve_tool",
        [{"result_text": '{"Approved":false,"approved":true}'}],
    )
    yield case(
        "key_case/before_tool/Action-Reason-deny",
        cat,
        "before_tool",
        answer({"Action": "deny_tool", "Reason": "x"}),
    )
    yield case(
        "key_case/before_tool/ACTION-value-uppercase",
        cat,
        "before_tool",
        answer({"action": "DENY_TOOL", "reason": "x"}),
        "action values are case-sensitive",
    )
    call = {"Meta": meta("turn.tool.before"), "TOOL": "echo_text", "Arguments": {"Text": "ipc"}}
    yield case(
        "key_case/before_tool/Call-nested-keys",
        cat,
        "before_tool",
        answer({"Action": "modify", "Call": call}),
        "map keys inside arguments keep their case",
    )
    yield case(
        "key_case/before_tool/Result-respond",
        cat,
        "before_tool",
        answer({"ACTION": "respond", "RESULT": {"FOR_LLM": "direct", "Silent": True}}),
    )
    envelope = {
        "Tool": "echo_text",
        "Result": {"For_LLM": "ipc:hi", "Is_Error": False},
        "Duration": 7,
    }
    yield case(
        "key_case/after_tool/Result-envelope",
        cat,
        "after_tool",
        answer({"Action": "modify", "Result": envelope}),
    )
    yield case(
        "key_case/after_llm/Response-envelope",
        cat,
        "after_llm",
        answer(
            {
                "action": "modify",
                "Response": {
                    "Model": "m2",
                    "Response": {"Content": "new", "Finish_Reason": "stop"},
                },
            }
        ),
    )
    request = echo("before_llm")
    request["Model"] = request.pop("model") + "-upper"
    yield case(
        "key_case/before_llm/Request-Model",
        cat,
        "before_llm",
        answer({"action": "modify", "REQUEST": request}),
    )
    yield case(
        "key_case/before_tool/meta-lowercase",
        cat,
        "before_tool",
        answer(
            {
                "action": "modify",
                "call": {"meta": {"agentid": "x", "iteration": 3}, "tool": "echo_text"},
            }
        ),
        "HookMeta has no JSON tags; its keys match case-insensitively",
    )
    yield case(
        "key_case/before_tool/hook_result-HookResult",
        cat,
        "before_tool",
        answer(
            {"action": "respond", "call": {**echo("before_tool"), "HookResult": {"for_llm": "x"}}}
        ),
        "the Go field name HookResult is not the JSON name hook_result",
    )


def bad_utf8() -> Iterator[Case]:
    cat = "bad_utf8"

    def raw(body: bytes) -> list[Line]:
        return [{"b64": b64(b'{"jsonrpc":"2.0","id":2,"result":' + body + b"}")}]

    yield case(
        "bad_utf8/before_tool/reason-ff",
        cat,
        "before_tool",
        raw(b'{"action":"deny_tool","reason":"bad \xff byte"}'),
    )
    yield case(
        "bad_utf8/approve/reason-ff",
        cat,
        "approve_tool",
        raw(b'{"approved":false,"reason":"\xfe\xff"}'),
    )
    yield case(
        "bad_utf8/approve/approved-true-bad-reason",
        cat,
        "approve_tool",
        raw(b'{"approved":true,"reason":"ok\xc3"}'),
    )
    yield case(
        "bad_utf8/before_tool/truncated-sequence",
        cat,
        "before_tool",
        raw(b'{"action":"deny_tool","reason":"caf\xc3"}'),
    )
    yield case(
        "bad_utf8/before_tool/overlong-slash",
        cat,
        "before_tool",
        raw(b'{"action":"deny_tool","reason":"a\xc0\xafb"}'),
    )
    yield case(
        "bad_utf8/before_tool/surrogate-bytes",
        cat,
        "before_tool",
        raw(b'{"action":"deny_tool","reason":"\xed\xa0\x80"}'),
    )
    yield case(
        "bad_utf8/before_tool/in-argument-value",
        cat,
        "before_tool",
        raw(b'{"action":"modify","call":{"tool":"echo_text","arguments":{"text":"x\xffy"}}}'),
    )
    yield case(
        "bad_utf8/before_tool/in-argument-key",
        cat,
        "before_tool",
        raw(b'{"action":"modify","call":{"tool":"echo_text","arguments":{"t\xffext":"y"}}}'),
    )
    yield case(
        "bad_utf8/before_tool/in-action-value",
        cat,
        "before_tool",
        raw(b'{"action":"deny_tool\xff","reason":"x"}'),
    )
    yield case(
        "bad_utf8/before_tool/in-key-name",
        cat,
        "before_tool",
        raw(b'{"act\xffion":"deny_tool","reason":"x"}'),
    )
    yield case(
        "bad_utf8/after_tool/in-for_llm",
        cat,
        "after_tool",
        raw(b'{"action":"modify","result":{"tool":"echo_text","result":{"for_llm":"\xff\xfe"}}}'),
    )
    yield case(
        "bad_utf8/before_tool/truncated-3-byte",
        cat,
        "before_tool",
        raw(b'{"action":"deny_tool","reason":"a\xe2\x82b"}'),
        "Go replaces each byte of an incomplete sequence; Python's 'replace' uses one U+FFFD",
    )
    yield case(
        "bad_utf8/before_tool/truncated-4-byte",
        cat,
        "before_tool",
        raw(b'{"action":"deny_tool","reason":"a\xf0\x9f\x98b"}'),
    )
    yield case(
        "bad_utf8/before_tool/latin1-line",
        cat,
        "before_tool",
        raw(b'{"action":"deny_tool","reason":"caf\xe9"}'),
    )


# (path from the answer's result object, wrong value) per stage: a wrong type at
# every depth of every stage's result.
WRONG_TYPES: dict[str, list[tuple[list[Any], Any]]] = {
    "before_tool": [
        (["action"], 1),
        (["action"], True),
        (["action"], ["deny_tool"]),
        (["action"], {"name": "deny_tool"}),
        (["reason"], 42),
        (["reason"], ["x"]),
        (["call"], "echo_text"),
        (["call"], ["echo_text"]),
        (["call"], 1),
        (["call", "tool"], 7),
        (["call", "tool"], ["echo_text"]),
        (["call", "arguments"], '{"text":"hi"}'),
        (["call", "arguments"], [["text", "hi"]]),
        (["call", "arguments"], 3),
        (["call", "meta"], "meta"),
        (["call", "meta", "Iteration"], "1"),
        (["call", "meta", "Iteration"], 1.5),
        (["call", "meta", "Iteration"], 1e2),
        (["call", "meta", "AgentID"], 5),
        (["call", "context"], "cli"),
        (["call", "context", "inbound"], ["cli"]),
        (["call", "context", "inbound", "chat_id"], 12),
        (["call", "context", "inbound", "mentioned"], "yes"),
        (["call", "context", "inbound", "raw"], {"k": 1}),
        (["call", "context", "route"], {"SessionPolicy": {"Dimensions": "chat"}}),
        (["call", "context", "scope"], {"version": "1"}),
        (["call", "channel"], 1),
        (["call", "hook_result"], "done"),
        (["call", "hook_result", "for_llm"], 1),
        (["call", "hook_result", "media"], "m.png"),
        (["call", "hook_result", "media"], [1]),
        (["result"], "done"),
        (["result", "for_llm"], 1),
        (["result", "silent"], "true"),
        (["result", "is_error"], 0),
        (["result", "artifact_tags"], "tag"),
        (["result", "response_handled"], "yes"),
    ],
    "after_tool": [
        (["action"], 0),
        (["result"], "ipc:hi"),
        (["result"], []),
        (["result", "tool"], 1),
        (["result", "arguments"], ["text"]),
        (["result", "meta", "Iteration"], "1"),
        (["result", "result"], "ipc:hi"),
        (["result", "result", "for_llm"], 123),
        (["result", "result", "async"], "no"),
        (["result", "result", "media"], {"a": "b"}),
        (["result", "duration"], 1.5),
        (["result", "duration"], "1.5ms"),
        (["result", "duration"], 1e3),
        (["result", "duration"], 9223372036854775808),
        (["result", "duration"], True),
    ],
    "before_llm": [
        (["action"], False),
        (["request"], "model-b"),
        (["request", "model"], 2),
        (["request", "messages"], {"role": "user"}),
        (["request", "messages", 1], "hello"),
        (["request", "messages", 1, "role"], 1),
        (["request", "messages", 1, "content"], ["part"]),
        (["request", "messages", 1, "created_at"], "yesterday"),
        (["request", "messages", 1, "media"], [1]),
        (["request", "messages", 1, "tool_calls"], {"id": "x"}),
        (
            ["request", "messages", 1, "tool_calls"],
            [{"id": "c", "function": {"name": "f", "arguments": {"a": 1}}}],
        ),
        (
            ["request", "messages", 0, "system_parts"],
            [{"type": "text", "text": "x", "cache_control": "ephemeral"}],
        ),
        (["request", "tools"], {"echo_text": {}}),
        (["request", "tools", 0, "function"], "echo_text"),
        (["request", "tools", 0, "function", "name"], 1),
        (["request", "tools", 0, "function", "parameters"], ["text"]),
        (["request", "options"], ["max_tokens", 512]),
        (["request", "graceful_terminal"], "yes"),
        (["request", "context", "scope", "dimensions"], "chat"),
    ],
    "after_llm": [
        (["action"], None),
        (["response"], "new text"),
        (["response", "model"], 3),
        (["response", "response"], "new text"),
        (["response", "response", "content"], 1),
        (["response", "response", "tool_calls"], {"id": "call-1"}),
        (["response", "response", "tool_calls", 0, "id"], 1),
        (["response", "response", "tool_calls", 0, "function"], "echo_text"),
        (["response", "response", "tool_calls", 0, "function", "arguments"], {"text": "hi"}),
        (["response", "response", "usage"], "15"),
        (["response", "response", "usage", "total_tokens"], 1.5),
        (["response", "response", "usage", "total_tokens"], "15"),
        (["response", "response", "reasoning_details"], {"format": "x"}),
        (["response", "response", "reasoning_details"], [{"index": "0"}]),
        (["response", "response", "finish_reason"], ["stop"]),
    ],
    "approve_tool": [
        (["approved"], "true"),
        (["approved"], 1),
        (["approved"], [True]),
        (["approved"], {"value": True}),
        (["reason"], 404),
    ],
}


def wrong_answer_base(stage: str) -> dict[str, Any]:
    """The otherwise-valid answer each wrong-type case starts from: one that
    would visibly change something if it were applied."""
    if stage == "approve_tool":
        return {"approved": True, "reason": "fine"}
    base: dict[str, Any] = {"action": "modify", "reason": "r", CARRIER[stage]: echo(stage)}
    if stage == "before_tool":
        base["call"]["arguments"]["text"] = "ipc"
        base["call"]["hook_result"] = {"for_llm": "x"}
        base["result"] = {"for_llm": "direct"}
    elif stage == "after_tool":
        base["result"]["result"]["for_llm"] = "ipc:hi"
    elif stage == "before_llm":
        base["request"]["model"] = "model-b"
        base["request"]["messages"][1]["tool_calls"] = [
            {"id": "c", "function": {"name": "f", "arguments": "{}"}}
        ]
        base["request"]["messages"][1]["created_at"] = "2026-06-13T18:19:35Z"
        base["request"]["messages"][0]["system_parts"] = [
            {"type": "text", "text": "You are PicoClaw."}
        ]
        base["request"]["context"]["scope"] = {"version": 1}
    elif stage == "after_llm":
        base["response"]["response"]["content"] = "changed"
        base["response"]["response"]["reasoning_details"] = [
            {"format": "f", "index": 0, "type": "t", "text": "x"}
        ]
    return base


def wrong_types() -> Iterator[Case]:
    for stage, variants in WRONG_TYPES.items():
        for path, value in variants:
            result = wrong_answer_base(stage)
            set_path_creating(result, path, value)
            label = ".".join(str(step) for step in path)
            yield case(
                f"wrong_type/{stage}/{label}={json.dumps(value)}",
                "wrong_type",
                stage,
                answer(result),
            )
    # The same base answers with correct types, so every wrong-type case has a
    # twin that shows what the answer does when it decodes.
    for stage in WRONG_TYPES:
        yield case(
            f"wrong_type/{stage}/control",
            "wrong_type",
            stage,
            answer(wrong_answer_base(stage)),
            "correct types",
        )


def set_path_creating(obj: dict[str, Any], path: list[Any], value: Any) -> None:
    target: Any = obj
    for step in path[:-1]:
        if isinstance(step, str) and step not in target:
            target[step] = {}
        target = target[step]
    target[path[-1]] = value


def unknown_and_missing() -> Iterator[Case]:
    cat = "unknown_missing"
    yield case(
        "unknown/before_tool/extra-top-level-keys",
        cat,
        "before_tool",
        answer(
            {
                "action": "deny_tool",
                "reason": "x",
                "decision": "allow",
                "permissionDecision": "allow",
            }
        ),
    )
    yield case(
        "unknown/approve/claude-shape",
        cat,
        "approve_tool",
        answer({"decision": "approve", "hookSpecificOutput": {"permissionDecision": "allow"}}),
    )
    yield case(
        "unknown/approve/extra-keys-with-approved",
        cat,
        "approve_tool",
        answer({"approved": True, "why": "because", "ttl": 5}),
    )
    call = {**echo("before_tool"), "extra": 1, "args": {"text": "no"}}
    yield case(
        "unknown/before_tool/call-extra-and-args",
        cat,
        "before_tool",
        answer({"action": "modify", "call": call}),
        "args is not arguments (issue #3258)",
    )
    yield case(
        "unknown/before_tool/hook_result-extra",
        cat,
        "before_tool",
        answer({"action": "respond", "result": {"for_llm": "x", "content": "y", "exit_code": 0}}),
    )
    yield case(
        "missing/before_tool/action",
        cat,
        "before_tool",
        answer(
            {
                "reason": "only a reason",
                "call": modified("before_tool", ["arguments", "text"], "ipc")["call"],
            }
        ),
    )
    yield case(
        "missing/before_tool/call-tool",
        cat,
        "before_tool",
        answer({"action": "modify", "call": {"arguments": {"text": "ipc"}}}),
    )
    yield case(
        "missing/before_tool/call-arguments",
        cat,
        "before_tool",
        answer({"action": "modify", "call": {"tool": "echo_text"}}),
    )
    yield case(
        "missing/before_tool/call-meta-context",
        cat,
        "before_tool",
        answer({"action": "modify", "call": {"tool": "echo_text", "arguments": {"text": "ipc"}}}),
    )
    yield case(
        "missing/approve/approved-with-reason",
        cat,
        "approve_tool",
        answer({"reason": "looks fine"}),
    )
    yield case(
        "missing/after_tool/result-result",
        cat,
        "after_tool",
        answer({"action": "modify", "result": {"tool": "renamed", "duration": 5}}),
    )
    yield case(
        "missing/after_llm/response-response",
        cat,
        "after_llm",
        answer({"action": "modify", "response": {"model": "m2"}}),
    )
    request = echo("before_llm")
    del request["options"], request["model"]
    yield case(
        "missing/before_llm/options-and-model",
        cat,
        "before_llm",
        answer({"action": "modify", "request": request}),
    )


def flattened() -> Iterator[Case]:
    cat = "flattened"
    yield case(
        "flattened/after_tool/result-is-ToolResult",
        cat,
        "after_tool",
        answer({"action": "modify", "result": {"for_llm": "ipc:hi"}}),
    )
    yield case(
        "flattened/after_tool/result-is-ToolResult-full",
        cat,
        "after_tool",
        answer(
            {
                "action": "modify",
                "result": {"for_llm": "ipc:hi", "silent": False, "is_error": True, "async": False},
            }
        ),
    )
    yield case(
        "flattened/after_llm/response-is-LLMResponse",
        cat,
        "after_llm",
        answer({"action": "modify", "response": {"content": "new", "finish_reason": "stop"}}),
    )
    yield case(
        "flattened/before_tool/call-is-arguments",
        cat,
        "before_tool",
        answer({"action": "modify", "call": {"text": "ipc"}}),
    )
    yield case(
        "flattened/before_tool/top-level-tool-arguments",
        cat,
        "before_tool",
        answer({"action": "modify", "tool": "echo_text", "arguments": {"text": "ipc"}}),
    )
    yield case(
        "flattened/before_tool/action-inside-call",
        cat,
        "before_tool",
        answer({"call": {"action": "deny_tool", "reason": "x", "tool": "echo_text"}}),
    )
    yield case(
        "flattened/before_llm/request-fields-top-level",
        cat,
        "before_llm",
        answer({"action": "modify", "model": "model-b", "messages": [USER]}),
    )
    yield case(
        "flattened/after_tool/for_llm-top-level",
        cat,
        "after_tool",
        answer({"action": "modify", "for_llm": "ipc:hi"}),
    )
    yield case(
        "flattened/before_tool/respond-result-in-call",
        cat,
        "before_tool",
        answer({"action": "respond", "call": {"tool": "echo_text", "for_llm": "direct"}}),
    )


def null_vs_absent() -> Iterator[Case]:
    cat = "null_vs_absent"
    yield case("null/before_tool/result-null", cat, "before_tool", [{"result_text": "null"}])
    yield case(
        "absent/before_tool/no-result-member",
        cat,
        "before_tool",
        [{"text": '{"jsonrpc":"2.0","id":2}'}],
    )
    yield case("null/approve/result-null", cat, "approve_tool", [{"result_text": "null"}])
    yield case(
        "absent/approve/no-result-member",
        cat,
        "approve_tool",
        [{"text": '{"jsonrpc":"2.0","id":2}'}],
    )
    yield case(
        "null/before_tool/action-null", cat, "before_tool", answer({"action": None, "reason": None})
    )
    yield case(
        "null/before_tool/call-null", cat, "before_tool", answer({"action": "modify", "call": None})
    )
    yield case(
        "null/before_tool/arguments-null",
        cat,
        "before_tool",
        answer(modified("before_tool", ["arguments"], None)),
    )
    yield case(
        "null/before_tool/tool-null",
        cat,
        "before_tool",
        answer(modified("before_tool", ["tool"], None)),
    )
    yield case(
        "null/before_tool/context-null",
        cat,
        "before_tool",
        answer(modified("before_tool", ["context"], None)),
    )
    yield case(
        "null/before_tool/meta-null",
        cat,
        "before_tool",
        answer(modified("before_tool", ["meta"], None)),
    )
    yield case(
        "null/after_tool/result-null",
        cat,
        "after_tool",
        answer({"action": "modify", "result": None}),
    )
    yield case(
        "null/after_tool/result-result-null",
        cat,
        "after_tool",
        answer(modified("after_tool", ["result"], None)),
    )
    yield case(
        "null/after_tool/duration-null",
        cat,
        "after_tool",
        answer(modified("after_tool", ["duration"], None)),
    )
    yield case(
        "null/after_llm/response-response-null",
        cat,
        "after_llm",
        answer(modified("after_llm", ["response"], None)),
    )
    yield case(
        "null/after_llm/tool_calls-null",
        cat,
        "after_llm",
        answer(modified("after_llm", ["response", "tool_calls"], None)),
    )
    yield case(
        "null/before_llm/request-null",
        cat,
        "before_llm",
        answer({"action": "modify", "request": None}),
    )
    yield case(
        "null/before_llm/options-null",
        cat,
        "before_llm",
        answer(modified("before_llm", ["options"], None)),
    )
    yield case(
        "null/before_llm/model-null",
        cat,
        "before_llm",
        answer(modified("before_llm", ["model"], None)),
    )
    yield case(
        "null/approve/approved-null",
        cat,
        "approve_tool",
        answer({"approved": None, "reason": "null approval"}),
    )
    yield case(
        "null/approve/reason-null", cat, "approve_tool", answer({"approved": True, "reason": None})
    )


def empty_containers() -> Iterator[Case]:
    cat = "empty"
    yield case(
        "empty/before_tool/arguments-object",
        cat,
        "before_tool",
        answer(modified("before_tool", ["arguments"], {})),
    )
    yield case(
        "empty/before_tool/call-object",
        cat,
        "before_tool",
        answer({"action": "modify", "call": {}}),
    )
    yield case(
        "empty/before_tool/input-arguments-empty",
        cat,
        "before_tool",
        answer({"action": "continue"}),
        input={**echo("before_tool"), "arguments": {}},
    )
    yield case(
        "empty/before_tool/input-arguments-absent",
        cat,
        "before_tool",
        answer({"action": "continue"}),
        input={k: v for k, v in echo("before_tool").items() if k != "arguments"},
    )
    yield case(
        "empty/before_tool/respond-result-object",
        cat,
        "before_tool",
        answer({"action": "respond", "result": {}}),
    )
    yield case(
        "empty/before_tool/hook_result-media-array",
        cat,
        "before_tool",
        answer({"action": "respond", "result": {"for_llm": "x", "media": [], "artifact_tags": []}}),
    )
    yield case(
        "empty/after_tool/result-object",
        cat,
        "after_tool",
        answer({"action": "modify", "result": {}}),
    )
    yield case(
        "empty/after_tool/result-result-object",
        cat,
        "after_tool",
        answer(modified("after_tool", ["result"], {})),
    )
    yield case(
        "empty/after_llm/response-object",
        cat,
        "after_llm",
        answer({"action": "modify", "response": {}}),
    )
    yield case(
        "empty/after_llm/tool_calls-array",
        cat,
        "after_llm",
        answer(modified("after_llm", ["response", "tool_calls"], [])),
    )
    yield case(
        "empty/before_llm/request-object",
        cat,
        "before_llm",
        answer({"action": "modify", "request": {}}),
    )
    yield case(
        "empty/before_llm/options-object",
        cat,
        "before_llm",
        answer(modified("before_llm", ["options"], {})),
    )
    yield case(
        "empty/before_llm/messages-array",
        cat,
        "before_llm",
        answer(modified("before_llm", ["messages"], [])),
    )
    yield case(
        "empty/before_llm/tools-array",
        cat,
        "before_llm",
        answer(modified("before_llm", ["tools"], [])),
    )
    yield case("empty/approve/result-object", cat, "approve_tool", answer({}))
    yield case("empty/approve/result-array", cat, "approve_tool", answer([]))
    yield case("empty/before_tool/result-array", cat, "before_tool", answer([]))
    yield case(
        "empty/before_tool/reason-empty-deny",
        cat,
        "before_tool",
        answer({"action": "deny_tool", "reason": ""}),
    )


def actions_by_stage() -> Iterator[Case]:
    for stage in INTERCEPTORS:
        for action in ACTIONS:
            result: dict[str, Any] = {"action": action, "reason": f"{action} at {stage}"}
            if stage == "before_tool" and action == "respond":
                result["result"] = {"for_llm": "direct"}
            if action == "modify":
                result[CARRIER[stage]] = wrong_answer_base(stage)[CARRIER[stage]]
            yield case(f"action/{stage}/{action}", "action", stage, answer(result))
        for typo in ("MODIFY", "Continue", "deny", "allow", " continue"):
            yield case(
                f"action/{stage}/unknown-{json.dumps(typo)}",
                "action",
                stage,
                answer({"action": typo, "reason": "typo"}),
            )
    yield case(
        "action/before_tool/empty-string-with-call",
        "action",
        "before_tool",
        answer(
            {
                "action": "",
                **{"call": modified("before_tool", ["arguments", "text"], "ipc")["call"]},
            }
        ),
    )
    yield case(
        "action/before_tool/continue-with-call-applies",
        "action",
        "before_tool",
        answer(
            {
                "action": "continue",
                "call": modified("before_tool", ["arguments", "text"], "ipc")["call"],
            }
        ),
    )


def ids() -> Iterator[Case]:
    cat = "ids"
    deny = {"action": "deny_tool", "reason": "id case"}
    for label, id_text in (
        ("string-2", '"2"'),
        ("float-2.0", "2.0"),
        ("exp-2e0", "2e0"),
        ("negative", "-2"),
        ("zero", "0"),
        ("null", "null"),
        ("true", "true"),
        ("uint64-max", "18446744073709551615"),
        ("uint64-max-plus-1", "18446744073709551616"),
        ("huge-1e400", "1e400"),
        ("not-pending-3", "3"),
        ("hello-id-1", "1"),
        ("leading-zero", "02"),
    ):
        yield case(f"ids/{label}", cat, "before_tool", answer(deny, id_text=id_text))
    yield case("ids/absent", cat, "before_tool", answer(deny, id_text=None))
    yield case(
        "ids/wrong-then-right",
        cat,
        "before_tool",
        [{"result": {"action": "deny_tool", "reason": "first"}, "id_text": "3"}, {"result": deny}],
    )
    yield case(
        "ids/string-then-right",
        cat,
        "before_tool",
        [
            {"result": {"action": "deny_tool", "reason": "first"}, "id_text": '"2"'},
            {"result": deny},
        ],
    )
    yield case(
        "ids/duplicate-answers",
        cat,
        "before_tool",
        [{"result": deny}, {"result": {"action": "continue"}}],
        "the second answer finds no pending id",
    )
    yield case(
        "ids/hello-string-id",
        cat,
        "hello",
        [],
        hooks=[
            {"name": "hook", "hello": [{"result": {}, "id_text": '"1"'}, {"result": {"ok": True}}]}
        ],
    )


def approvals() -> Iterator[Case]:
    cat = "approval"
    st = "approve_tool"
    yield case("approval/true", cat, st, answer({"approved": True}))
    yield case("approval/true-with-reason", cat, st, answer({"approved": True, "reason": "fine"}))
    yield case("approval/false", cat, st, answer({"approved": False}))
    yield case(
        "approval/false-with-reason",
        cat,
        st,
        answer({"approved": False, "reason": "blocked by ipc hook"}),
    )
    yield case("approval/bare-true", cat, st, [{"result_text": "true"}])
    yield case("approval/bare-string", cat, st, answer("approved"))
    yield case("approval/error-response", cat, st, [{"error": {"code": -32000, "message": "nope"}}])
    yield case(
        "approval/error-and-result",
        cat,
        st,
        [rpc_line('"id":2,"result":{"approved":true},"error":{"code":1,"message":"both"}')],
    )
    yield case("approval/error-without-message", cat, st, [{"error": {"code": -32601}}])
    yield case("approval/no-answer-timeout", cat, st, [])
    yield case(
        "approval/exit-before-answer",
        cat,
        st,
        [],
        hooks=[{"name": "hook", "answer": [], "exit_code": 3}],
    )
    yield case(
        "approval/exit-0-before-answer",
        cat,
        st,
        [],
        hooks=[{"name": "hook", "answer": [], "exit_code": 0}],
    )
    yield case("approval/allow-once-string", cat, st, answer({"approved": "allow-once"}))
    yield case("approval/nested-decision", cat, st, answer({"decision": {"approved": True}}))
    yield case(
        "approval/chain-approve-then-deny",
        cat,
        st,
        [],
        hooks=[
            {"name": "a-first", "answer": [{"result": {"approved": True, "reason": "a ok"}}]},
            {
                "name": "b-second",
                "answer": [{"result": {"approved": False, "reason": "b says no"}}],
            },
        ],
    )
    yield case(
        "approval/chain-deny-stops",
        cat,
        st,
        [],
        hooks=[
            {"name": "a-first", "answer": [{"result": {"reason": "a forgot approved"}}]},
            {"name": "b-second", "answer": [{"result": {"approved": True}}]},
        ],
    )
    yield case(
        "approval/chain-priority-order",
        cat,
        st,
        [],
        hooks=[
            {
                "name": "a-late",
                "priority": 10,
                "answer": [{"result": {"approved": False, "reason": "a"}}],
            },
            {
                "name": "z-early",
                "priority": -5,
                "answer": [{"result": {"approved": False, "reason": "z"}}],
            },
        ],
    )
    yield case(
        "approval/chain-failure-names-hook",
        cat,
        st,
        [],
        hooks=[
            {"name": "a-ok", "answer": [{"result": {"approved": True}}]},
            {"name": "b-broken", "answer": [{"result": {"approved": "yes"}}]},
        ],
    )


def guard_messages() -> list[dict[str, Any]]:
    return copy.deepcopy(INPUTS["before_llm"]["messages"])


def with_messages(messages: list[dict[str, Any]], **changes: Any) -> dict[str, Any]:
    request = echo("before_llm")
    request["messages"] = messages
    request.update(changes)
    return {"action": "modify", "request": request}


def before_llm_guard() -> Iterator[Case]:
    cat = "before_llm_guard"
    st = "before_llm"
    nulls = {
        "model_name": None,
        "created_at": None,
        "media": None,
        "attachments": None,
        "reasoning_content": None,
        "system_parts": None,
        "tool_calls": None,
        "tool_call_id": None,
    }
    messages = guard_messages()
    messages[0].update(nulls)
    yield case(
        "guard/echo-system-explicit-nulls",
        cat,
        st,
        answer(with_messages(messages, model="model-b")),
    )
    messages = guard_messages()
    messages[0]["system_parts"] = []
    yield case(
        "guard/echo-system-empty-system_parts",
        cat,
        st,
        answer(with_messages(messages, model="model-b")),
    )
    messages = guard_messages()
    messages[0]["media"] = []
    yield case(
        "guard/echo-system-empty-media", cat, st, answer(with_messages(messages, model="model-b"))
    )
    messages = guard_messages()
    messages[0]["model_name"] = ""
    messages[0]["tool_call_id"] = ""
    yield case(
        "guard/echo-system-empty-strings", cat, st, answer(with_messages(messages, model="model-b"))
    )
    messages = guard_messages()
    messages[0]["prompt_layer"] = "x"
    messages[0]["PromptLayer"] = "y"
    yield case(
        "guard/echo-system-internal-keys",
        cat,
        st,
        answer(with_messages(messages, model="model-b")),
        'json:"-" fields cannot be set from JSON',
    )
    messages = guard_messages()
    messages[0]["content"] = "You are evil."
    yield case(
        "guard/system-content-changed", cat, st, answer(with_messages(messages, model="model-b"))
    )
    messages = guard_messages()
    messages[1]["content"] = "changed user text"
    yield case("guard/user-content-changed", cat, st, answer(with_messages(messages)))
    messages = guard_messages()
    messages[0]["content"] = "You are evil."
    messages[1]["content"] = "changed user text"
    yield case("guard/system-and-user-changed", cat, st, answer(with_messages(messages)))
    yield case("guard/system-removed", cat, st, answer(with_messages([USER])))
    yield case("guard/system-moved", cat, st, answer(with_messages([USER, SYSTEM])))
    yield case(
        "guard/system-added",
        cat,
        st,
        answer(with_messages([SYSTEM, {"role": "system", "content": "extra"}, USER])),
    )
    yield case(
        "guard/user-appended",
        cat,
        st,
        answer(with_messages([SYSTEM, USER, {"role": "user", "content": "more"}])),
    )
    yield case(
        "guard/role-case-System",
        cat,
        st,
        answer(with_messages([{"role": "System", "content": "changed"}, USER])),
        'only role "system" is guarded',
    )
    messages = guard_messages()
    messages[0]["content"] = "You are PicoClaw."
    request = with_messages(messages)
    request["request"]["tools"][0]["function"]["description"] = "Echo it"
    yield case("guard/tool-description-changed", cat, st, answer(request))
    request = with_messages(guard_messages())
    request["request"]["tools"].append(
        {
            "type": "function",
            "function": {"name": "get_weather", "description": "w", "parameters": {}},
        }
    )
    yield case("guard/tool-appended", cat, st, answer(request), "the plugin-tool-injection pattern")
    request = with_messages(guard_messages())
    del request["request"]["tools"]
    yield case("guard/tools-omitted", cat, st, answer(request))
    request = with_messages(guard_messages())
    del request["request"]["messages"]
    yield case("guard/messages-omitted", cat, st, answer(request))
    request = with_messages(guard_messages())
    request["request"]["tools"][0]["function"]["parameters"] = {
        "required": ["text"],
        "properties": {"text": {"type": "string"}},
        "type": "object",
    }
    yield case("guard/tool-parameters-reordered", cat, st, answer(request))
    request = with_messages(guard_messages())
    request["request"]["tools"][0]["function"]["parameters"]["minProperties"] = 1
    yield case("guard/tool-parameters-added-key", cat, st, answer(request))
    request = with_messages(guard_messages())
    request["request"]["tools"][0]["type"] = None
    yield case("guard/tool-type-null", cat, st, answer(request))
    system_parts_input = echo("before_llm")
    system_parts_input["messages"][0]["system_parts"] = [
        {"type": "text", "text": "You are PicoClaw.", "cache_control": {"type": "ephemeral"}}
    ]
    messages = copy.deepcopy(system_parts_input["messages"])
    messages[0]["system_parts"][0]["cache_control"] = None
    yield case(
        "guard/system_parts-cache_control-dropped",
        cat,
        st,
        answer({"action": "modify", "request": {**system_parts_input, "messages": messages}}),
        input=system_parts_input,
    )


def respond() -> Iterator[Case]:
    cat = "respond"
    st = "before_tool"
    yield case(
        "respond/with-result",
        cat,
        st,
        answer(
            {
                "action": "respond",
                "reason": "served",
                "result": {"for_llm": "sunny", "for_user": "It is sunny"},
            }
        ),
    )
    yield case(
        "respond/with-call-hook_result",
        cat,
        st,
        answer({"action": "respond", "call": {**echo(st), "hook_result": {"for_llm": "via call"}}}),
    )
    yield case(
        "respond/result-overrides-call-hook_result",
        cat,
        st,
        answer(
            {
                "action": "respond",
                "call": {**echo(st), "hook_result": {"for_llm": "via call"}},
                "result": {"for_llm": "via result"},
            }
        ),
    )
    yield case(
        "respond/without-result",
        cat,
        st,
        answer({"action": "respond", "reason": "no result given"}),
    )
    yield case(
        "respond/without-result-with-call",
        cat,
        st,
        answer(
            {
                "action": "respond",
                "reason": "r",
                "call": modified(st, ["arguments", "text"], "ipc")["call"],
            }
        ),
    )
    yield case("respond/result-null", cat, st, answer({"action": "respond", "result": None}))
    yield case(
        "respond/error-result",
        cat,
        st,
        answer(
            {"action": "respond", "result": {"for_llm": "boom", "is_error": True, "silent": True}}
        ),
    )
    yield case(
        "respond/media-and-handled",
        cat,
        st,
        answer(
            {
                "action": "respond",
                "result": {"for_llm": "sent", "media": ["media://1"], "response_handled": True},
            }
        ),
    )
    yield case(
        "respond/result-wrong-type",
        cat,
        st,
        answer({"action": "respond", "result": {"for_llm": ["x"]}}),
    )


def line_limit() -> Iterator[Case]:
    cat = "line_limit"
    for delta in (-1, 0, 1):
        label = {-1: "1MiB-minus-1", 0: "1MiB", 1: "1MiB-plus-1"}[delta]
        yield case(
            f"line_limit/approve/{label}",
            cat,
            "approve_tool",
            answer({"approved": True}, pad_line_to=MIB + delta),
            "line_bytes counts the newline",
        )
        yield case(
            f"line_limit/before_tool/{label}",
            cat,
            "before_tool",
            answer({"action": "deny_tool", "reason": "big"}, pad_line_to=MIB + delta),
        )
    yield case(
        "line_limit/noise-over-1MiB-then-answer",
        cat,
        "before_tool",
        [
            {"text": "x" * 16, "newline": True},
            {"result": {"note": "noise"}, "pad_line_to": MIB + 1},
            {"result": {"action": "deny_tool", "reason": "after"}},
        ],
    )
    yield case(
        "line_limit/noise-at-1MiB-then-answer",
        cat,
        "before_tool",
        [
            {"result": {"note": "noise"}, "pad_line_to": MIB, "id_text": "99"},
            {"result": {"action": "deny_tool", "reason": "after"}},
        ],
    )


def stdout_noise() -> Iterator[Case]:
    cat = "noise"
    deny = {"result": {"action": "deny_tool", "reason": "after noise"}}
    for label, text in (
        ("debug-text", "debug: starting"),
        ("blank-line", ""),
        ("json-array", "[1,2,3]"),
        ("json-string", '"hello"'),
        ("json-number", "2"),
        ("notification-from-hook", '{"jsonrpc":"2.0","method":"hook.log","params":{}}'),
    ):
        yield case(f"noise/{label}-then-answer", cat, "before_tool", [{"text": text}, deny])
    yield case(
        "noise/trailing-garbage",
        cat,
        "before_tool",
        [
            {
                "text": rpc_line('"id":2,"result":{"action":"deny_tool","reason":"x"}')["text"]
                + " trailing"
            }
        ],
    )
    yield case(
        "noise/two-objects-one-line",
        cat,
        "before_tool",
        [{"text": rpc_line('"id":2,"result":{"action":"deny_tool","reason":"x"}')["text"] * 2}],
    )
    yield case(
        "noise/utf8-bom",
        cat,
        "before_tool",
        [
            {
                "b64": b64(
                    b'\xef\xbb\xbf{"jsonrpc":"2.0","id":2,"result":{"action":"deny_tool","reason":"bom"}}'
                )
            }
        ],
    )
    yield case(
        "noise/crlf",
        cat,
        "before_tool",
        [{"text": '{"jsonrpc":"2.0","id":2,"result":{"action":"deny_tool","reason":"crlf"}}\r'}],
    )
    yield case(
        "noise/leading-whitespace",
        cat,
        "before_tool",
        [{"text": '   \t{"jsonrpc":"2.0","id":2,"result":{"action":"deny_tool","reason":"ws"}}'}],
    )
    yield case(
        "noise/no-jsonrpc-member",
        cat,
        "before_tool",
        [{"text": '{"id":2,"result":{"action":"deny_tool","reason":"bare"}}'}],
    )
    yield case(
        "noise/jsonrpc-1.0",
        cat,
        "before_tool",
        [{"text": '{"jsonrpc":"1.0","id":2,"result":{"action":"deny_tool","reason":"v1"}}'}],
    )
    yield case(
        "noise/method-and-id",
        cat,
        "before_tool",
        [{"text": '{"jsonrpc":"2.0","id":2,"method":"hook.before_tool","params":{}}'}],
        "a hook-initiated request whose id is pending",
    )
    yield case(
        "noise/interceptor-error-response",
        cat,
        "before_tool",
        [{"error": {"code": -32601, "message": "method not found"}}],
    )
    yield case(
        "noise/error-null",
        cat,
        "before_tool",
        [rpc_line('"id":2,"error":null,"result":{"action":"deny_tool","reason":"e-null"}')],
    )
    yield case(
        "noise/stderr-lines",
        cat,
        "before_tool",
        [],
        hooks=[{"name": "hook", "stderr": ["warming up", "", "done"], "answer": [deny]}],
    )
    yield case(
        "noise/exit-3-without-answer",
        cat,
        "before_tool",
        [],
        hooks=[{"name": "hook", "answer": [], "exit_code": 3}],
    )
    yield case("noise/no-answer-timeout", cat, "after_tool", [])


def hello() -> Iterator[Case]:
    cat = "hello"
    for label, line in (
        ("object", {"result": {"ok": True, "name": "x"}}),
        ("null", {"result_text": "null"}),
        ("absent", {"text": '{"jsonrpc":"2.0","id":1}'}),
        ("true", {"result_text": "true"}),
        ("string", {"result": "ok"}),
        ("array", {"result": []}),
        ("error", {"error": {"code": -32000, "message": "not ready"}}),
    ):
        yield case(f"hello/{label}", cat, "hello", [], hooks=[{"name": "hook", "hello": [line]}])


def numbers_and_escapes() -> Iterator[Case]:
    cat = "numbers_escapes"
    st = "before_tool"
    for label, value_text in (
        ("big-int", "12345678901234567890"),
        ("int-2^53+1", "9007199254740993"),
        ("negative-zero", "-0"),
        ("float-1.0", "1.0"),
        ("exp-1e2", "1e2"),
        ("tiny-1e-400", "1e-400"),
        ("huge-1e400", "1e400"),
        ("max-float", "1.7976931348623157e308"),
    ):
        text = (
            '{"action":"modify","call":{"tool":"echo_text","arguments":{"n":' + value_text + "}}}"
        )
        yield case(f"numbers/arguments-{label}", cat, st, [{"result_text": text}])
    yield case(
        "numbers/after_tool/duration-max-int64",
        cat,
        "after_tool",
        answer(modified("after_tool", ["duration"], 9223372036854775807)),
    )
    yield case(
        "numbers/after_tool/duration-negative",
        cat,
        "after_tool",
        answer(modified("after_tool", ["duration"], -1)),
    )
    yield case(
        "numbers/after_tool/duration-exp-int",
        cat,
        "after_tool",
        [{"result_text": '{"action":"modify","result":{"tool":"echo_text","duration":1E3}}'}],
    )
    yield case(
        "escapes/html-characters",
        cat,
        st,
        answer(modified(st, ["arguments", "text"], "<b>&amp;</b>")),
    )
    yield case(
        "escapes/unicode-escapes",
        cat,
        st,
        [{"result_text": '{"action":"deny_tool","reason":"caf\\u00e9 \\ud83d\\ude00"}'}],
    )
    yield case(
        "escapes/lone-surrogate-escape",
        cat,
        st,
        [{"result_text": '{"action":"deny_tool","reason":"x\\ud800y"}'}],
    )
    yield case(
        "escapes/line-separator-u2028",
        cat,
        st,
        answer(modified(st, ["arguments", "text"], "a\u2028b")),
    )
    yield case(
        "escapes/nul-in-string",
        cat,
        st,
        [{"result_text": '{"action":"deny_tool","reason":"a\\u0000b"}'}],
    )


def chains() -> Iterator[Case]:
    cat = "chain"
    first = modified("before_tool", ["arguments", "text"], "first")
    yield case(
        "chain/before_tool/second-sees-first",
        cat,
        "before_tool",
        [],
        hooks=[
            {"name": "a", "answer": [{"result": first}]},
            {"name": "b", "answer": [{"result": {"action": "continue"}}]},
        ],
    )
    yield case(
        "chain/after_tool/flattened-first-zeroes-second",
        cat,
        "after_tool",
        [],
        hooks=[
            {
                "name": "a",
                "answer": [{"result": {"action": "modify", "result": {"for_llm": "ipc:hi"}}}],
            },
            {"name": "b", "answer": [{"result": {"action": "continue"}}]},
        ],
    )
    yield case(
        "chain/before_tool/decode-failure-skipped",
        cat,
        "before_tool",
        [],
        hooks=[
            {"name": "a", "answer": [{"result": {"action": "modify", "call": "bad"}}]},
            {"name": "b", "answer": [{"result": first}]},
        ],
    )
    yield case(
        "chain/before_tool/unsupported-then-deny",
        cat,
        "before_tool",
        [],
        hooks=[
            {"name": "a", "answer": [{"result": {"action": "MODIFY", "call": {"tool": "x"}}}]},
            {"name": "b", "answer": [{"result": {"action": "deny_tool", "reason": "b"}}]},
        ],
    )
    yield case(
        "chain/before_tool/deny-stops-chain",
        cat,
        "before_tool",
        [],
        hooks=[
            {"name": "a", "answer": [{"result": {"action": "deny_tool", "reason": "a"}}]},
            {"name": "b", "answer": [{"result": first}]},
        ],
    )
    yield case(
        "chain/before_llm/guard-then-second",
        cat,
        "before_llm",
        [],
        hooks=[
            {"name": "a", "answer": [{"result": with_messages([USER], model="model-b")}]},
            {"name": "b", "answer": [{"result": {"action": "continue"}}]},
        ],
    )
    yield case(
        "chain/before_tool/respond-stops-chain",
        cat,
        "before_tool",
        [],
        hooks=[
            {
                "name": "a",
                "answer": [{"result": {"action": "respond", "result": {"for_llm": "a"}}}],
            },
            {"name": "b", "answer": [{"result": {"action": "deny_tool"}}]},
        ],
    )


def all_cases() -> list[Case]:
    groups = (
        baseline,
        key_case,
        bad_utf8,
        wrong_types,
        unknown_and_missing,
        flattened,
        null_vs_absent,
        empty_containers,
        actions_by_stage,
        ids,
        approvals,
        before_llm_guard,
        respond,
        line_limit,
        stdout_noise,
        hello,
        numbers_and_escapes,
        chains,
    )
    cases = [item for group in groups for item in group()]
    for item in cases:
        if "hooks" in item:
            del item["answer"]
        if not item["note"]:
            del item["note"]
    return cases


def main() -> None:
    doc = {"inputs": INPUTS, "cases": all_cases()}
    CASES_PATH.parent.mkdir(parents=True, exist_ok=True)
    lines = ",\n".join(json.dumps(item) for item in doc["cases"])
    inputs = json.dumps(doc["inputs"], indent=1, ensure_ascii=False)
    CASES_PATH.write_text('{"inputs": ' + inputs + ',\n"cases": [\n' + lines + "\n]}\n")
    print(f"{len(doc['cases'])} cases written to {CASES_PATH}")


if __name__ == "__main__":
    main()
