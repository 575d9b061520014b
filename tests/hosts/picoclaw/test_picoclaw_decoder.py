"""The PicoClaw answer decoder against PicoClaw's own host: every case of the recorded corpus
(tests/data/picoclaw_corpus) whose hooks answer is replayed through read_line and
decode_answer, and the decision, the approval, the object passed on (byte for byte), what each
hook was sent, the mount error and PicoClaw's warnings must be what the Go host produced.

Left out, because no decoder can see them: cases where a hook exits without answering (PicoClaw
fails the pending call with the exit status)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from inspector.hosts.picoclaw.decode import (
    decode_answer,
    hello_failure,
    read_line,
    typed_params,
)
from inspector.hosts.picoclaw.gojson.encode import marshal
from inspector.hosts.picoclaw.gojson.schemas import PARAMS
from inspector.hosts.picoclaw.outcome import SKIPPED, Decoded, LogEntry, RpcLine
from tests.support.corpus_cases import line_bytes
from tests.support.paths import DATA

CORPUS = DATA / "picoclaw_corpus"
RECORDS = [json.loads(line) for line in (CORPUS / "results.jsonl").read_text().splitlines()]
HEADER = json.loads((CORPUS / "header.json").read_text())
HELLO_ID, STAGE_ID = 1, 2  # PicoClaw's per-process id counter


def _exits_without_answer(record: dict[str, Any]) -> bool:
    return any(h["exit_code"] is not None and not h["answer_lines"] for h in record["hooks"])


DECODABLE = [r for r in RECORDS if not _exits_without_answer(r)]
LEFT_OUT = [r["id"] for r in RECORDS if _exits_without_answer(r)]


def _lines(hook: dict[str, Any], key: str) -> list[bytes]:
    """What PicoClaw's line scanner yields from the hook's stdout: a last line without a
    newline never arrives while the hook keeps running."""
    stream = b"".join(line_bytes(line) for line in hook[key])
    return stream.split(b"\n")[:-1]


def _answer(hook: dict[str, Any], key: str, pending: int, logs: list[LogEntry]) -> RpcLine | None:
    """PicoClaw's readLoop: the first line answering the pending id, or None (a timeout)."""
    for raw in _lines(hook, key):
        line = read_line(raw)
        if line.kind == "too-long":
            return None  # the reader stops for good
        if line.kind == "undecodable":
            fields = {"hook": hook["name"], "error": line.problem}
            logs.append(LogEntry("Failed to decode process hook message", fields))
        elif line.kind == "answer" and line.rpc_id == pending:
            return line
    return None


def _timed_out(stage: str, hook: str, current: dict[str, Any], logs: list[LogEntry]) -> Decoded:
    kind = "Approval" if stage == "approve_tool" else "Interceptor"
    timeout = HEADER[f"{kind.lower()}_timeout_ms"]
    fields = {"hook": hook, "stage": stage, "timeout_ms": timeout}
    logs.append(LogEntry(f"{kind} hook timed out", fields))
    if stage == "approve_tool":
        return Decoded(stage, hook, "denied", reason=f'tool approval hook "{hook}" timed out')
    return Decoded(stage, hook, SKIPPED, value=current)


def _sent_params(hook: dict[str, Any]) -> str | None:
    stage_requests = [line["text"] for line in hook["received"][1:]]
    if not stage_requests:
        return None
    request = stage_requests[0]
    return request[request.index('"params":') + len('"params":') : -1]


def _ordered(hooks: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return sorted(hooks, key=lambda hook: (hook["priority"], hook["name"]))


def _run(record: dict[str, Any]) -> dict[str, Any]:
    """The stage through the decoder, hook after hook, as HookManager chains them."""
    stage = record["stage"]
    logs: list[LogEntry] = []
    if stage == "hello":
        hook = record["hooks"][0]
        hello = _answer(hook, "hello_lines", HELLO_ID, logs)
        assert hello is not None
        return {"mount_error": hello_failure(hello, hook["name"]) or None, "logs": logs}
    current = typed_params(stage, record["input"])
    sent: dict[str, str | None] = {}
    final: Decoded | None = None
    for hook in _ordered(record["hooks"]):
        sent[hook["name"]] = marshal(current, PARAMS[stage])
        answer = _answer(hook, "answer_lines", STAGE_ID, logs)
        if answer is None:
            decoded = _timed_out(stage, hook["name"], current, logs)
        else:
            decoded = decode_answer(stage, answer, current, hook["name"])
            logs += decoded.logs
        if decoded.stops:
            final = decoded
            break
        current = decoded.value if decoded.value is not None else current
    outcome: dict[str, Any] = {"sent": sent, "logs": logs, "mount_error": None}
    if stage == "approve_tool":
        approved = final is None
        outcome["approval"] = {"approved": approved, "reason": final.reason if final else ""}
    elif final is None:
        outcome["decision"] = {"action": "continue", "reason": ""}
        outcome["passed_on_json"] = marshal(current, PARAMS[stage])
    else:
        outcome["decision"] = {"action": final.taken, "reason": final.reason}
        outcome["passed_on_json"] = final.value_json()
    return outcome


def _recorded_logs(record: dict[str, Any]) -> list[LogEntry]:
    return [LogEntry(entry["message"], entry["fields"]) for entry in record["outcome"]["logs"]]


@pytest.mark.parametrize("record", DECODABLE, ids=[r["id"] for r in DECODABLE])
def test_decoder_does_what_picoclaw_did(record: dict[str, Any]) -> None:
    expected = record["outcome"]
    got = _run(record)
    assert got["mount_error"] == expected["mount_error"]
    if record["stage"] == "approve_tool":
        assert got["approval"] == expected["approval"]
    elif record["stage"] != "hello":
        assert got["decision"] == expected["decision"]
        assert got["passed_on_json"] == expected["passed_on_json"]
    for hook in record["hooks"]:
        if record["stage"] != "hello":
            assert got["sent"].get(hook["name"]) == _sent_params(hook), hook["name"]
    assert got["logs"] == _recorded_logs(record)


def test_the_corpus_is_the_one_recorded_from_picoclaw() -> None:
    assert HEADER["upstream_commit"] == "cf67dd3851e7926bf04ea9016c2e61248f9f614e"
    assert len(RECORDS) == HEADER["case_count"] == 363
    assert len(DECODABLE) == 360, LEFT_OUT
