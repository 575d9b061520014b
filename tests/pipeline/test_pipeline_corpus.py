"""The pipeline against PicoClaw's own host, with real hook processes: a sample of the recorded
corpus (tests/data/picoclaw_corpus) per category. Each hook prints the exact bytes a hook printed
to PicoClaw; the decision, the object passed on and the exact line each hook was sent must be
what PicoClaw's host produced."""

from __future__ import annotations

import base64
import json
from typing import Any

import pytest

from inspector.engine import Engine
from inspector.hosts.picoclaw.results import ApprovalResult
from tests.support.paths import DATA
from tests.support.scripted import config_of, scripted

CORPUS = DATA / "picoclaw_corpus" / "results.jsonl"
RECORDS = {r["id"]: r for r in map(json.loads, CORPUS.read_text().splitlines())}
SAMPLE = [
    # key case: Go matches keys to fields case-insensitively
    "key_case/before_tool/Action-Reason-deny",
    "key_case/approve/Approved",
    "key_case/after_tool/Result-envelope",
    # bytes that are not UTF-8 become U+FFFD and the answer is used
    "bad_utf8/before_tool/reason-ff",
    "bad_utf8/approve/approved-true-bad-reason",
    "bad_utf8/before_tool/in-argument-value",
    # a wrong type deep in the answer fails the whole decode: the hook is skipped
    'wrong_type/before_tool/call.arguments="{\\"text\\":\\"hi\\"}"',
    "wrong_type/before_tool/call.meta.Iteration=1.5",
    # a flattened envelope replaces the object with a zeroed struct
    "flattened/after_tool/result-is-ToolResult",
    "flattened/after_llm/response-is-LLMResponse",
    # the before_llm guard compares typed values: echoed nulls are no change
    "guard/echo-system-explicit-nulls",
    "guard/system-content-changed",
    # respond without a result keeps its reason
    "respond/without-result",
    "respond/with-result",
    # chains: what the next hook is sent is PicoClaw's typed object, re-encoded
    "chain/before_tool/second-sees-first",
    "chain/after_tool/flattened-first-zeroes-second",
    "chain/before_tool/decode-failure-skipped",
]


def _answer_bytes(hook: dict[str, Any]) -> list[str]:
    """The hook's answer lines as base64, for tests/hooks/scripted.py's print_bytes_before."""
    chunks = []
    for line in hook["answer_lines"]:
        raw = line["text"].encode() if "text" in line else base64.b64decode(line["b64"])
        chunks.append(base64.b64encode(raw).decode())
    return chunks


def _stage_request(hook: dict[str, Any]) -> str | None:
    """The line PicoClaw wrote for the stage call (the one after hook.hello), if any."""
    received = [line["text"] for line in hook["received"][1:]]
    return received[0] if received else None


@pytest.mark.parametrize("case", SAMPLE)
async def test_the_pipeline_does_what_picoclaw_did(case: str) -> None:
    record = RECORDS[case]
    stage, expected = record["stage"], record["outcome"]
    specs = [
        scripted(
            hook["name"],
            {stage: {"print_bytes_before": _answer_bytes(hook), "never": True}},
            intercept=tuple(hook["intercept"]),
            priority=hook["priority"],
        )
        for hook in record["hooks"]
    ]
    async with Engine(config_of(*specs, interceptor_timeout_ms=60_000)) as engine:
        result = await getattr(engine.runtime.pipeline, stage)(
            record["input"], source="t", turn="t1"
        )
    if isinstance(result, ApprovalResult):
        assert {"approved": result.approved, "reason": result.reason} == expected["approval"]
    else:
        assert {"action": result.action, "reason": result.reason} == expected["decision"]
        assert result.value == json.loads(expected["passed_on_json"])
    sent = {e.hook: e.raw_request for e in engine.journal.exchanges() if e.rpc_id == 2}
    for hook in record["hooks"]:
        assert sent.get(hook["name"]) == _stage_request(hook), hook["name"]
