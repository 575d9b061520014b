"""Bridge mode against PicoClaw's own host: for every case of the recorded corpus, a PicoClaw-like
client sends the exact stage request PicoClaw wrote to a running inspector whose hooks write the
exact bytes each hook wrote to PicoClaw. The one line the client gets back is read as PicoClaw
reads a hook's answer (the Go-faithful decoder) and must leave PicoClaw with what its own host
did with the hooks mounted directly: decision, approval, object passed on. The shared cases go
through the real relay, which lends the client's pipes to the inspector; the others over the
relay's socket, as a copying relay passes them."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from inspector.engine import Engine
from inspector.hosts.picoclaw.decode import decode_answer, read_line, typed_params
from inspector.hosts.picoclaw.gojson.encode import marshal
from inspector.hosts.picoclaw.gojson.schemas import PARAMS
from inspector.hosts.picoclaw.outcome import APPROVED, STOPS
from inspector.journal.records import Exchange
from inspector.jsonrpc.framing import PICOCLAW_MAX_LINE
from tests.support.bridge_client import AgentSide, listening, short_socket_path
from tests.support.corpus_cases import CASES, Case, shared_config
from tests.support.fake_agent import FakeAgent

RELAY = "relay"
RELAY_COMMAND = [sys.executable, "-m", "inspector.relay.main"]
# Deadlines far beyond the hooks' own timeouts: the hooks decide, never the agent's clock.
DEADLINES_MS = {"observer": 500, "interceptor": 120_000, "approval": 120_000}
OVER_1_MIB = (
    "the hook's answer is a line of 1 MiB + 1 byte: PicoClaw's reader would stop for good and "
    "time the call out; hook-inspector reads on and uses the answer, and the exchange the agent "
    "received says what PicoClaw would have done (test_kinder_cases_say_what_picoclaw_would_do)"
)
NOT_BRIDGED = {
    **{
        case.id: (
            "hook.hello: PicoClaw mounts the relay, whose hello the inspector answers itself; a "
            "hook's hello behind the bridge never reaches PicoClaw"
        )
        for case in CASES
        if case.stage == "hello"
    },
    "line_limit/approve/1MiB-plus-1": OVER_1_MIB,
    "line_limit/before_tool/1MiB-plus-1": OVER_1_MIB,
}
COMPARED = [case for case in CASES if case.id not in NOT_BRIDGED]
KINDER = [case for case in CASES if NOT_BRIDGED.get(case.id) == OVER_1_MIB]
# Most cases share one hook process (corpus_cases.shared_config); the rest get their own.
SHARED = [case for case in COMPARED if case.shareable]
ALONE = [case for case in COMPARED if not case.shareable]


@pytest.fixture
def socket_path() -> Iterator[Path]:
    with short_socket_path() as path:
        yield path


async def relayed_answer(case: Case, socket_path: Path) -> bytes:
    """The line the agent gets for the case's stage request, sent as PicoClaw wrote it."""
    agent = await AgentSide.connect(socket_path, RELAY, DEADLINES_MS)
    answer = await agent.ask(case.stage_request().encode() + b"\n")
    await agent.close()
    return answer


def as_picoclaw_reads(case: Case, answer: bytes) -> dict[str, Any]:
    """What PicoClaw's host makes of the relay's answer, in the corpus's outcome terms."""
    assert answer.endswith(b"\n") and len(answer) <= PICOCLAW_MAX_LINE
    current = typed_params(case.stage, case.input)
    decoded = decode_answer(case.stage, read_line(answer[:-1]), current, RELAY)
    if case.stage == "approve_tool":
        approved = decoded.taken == APPROVED
        return {"approval": {"approved": approved, "reason": decoded.reason}}
    if decoded.taken in STOPS:
        decision = {"action": decoded.taken, "reason": decoded.reason}
        return {"decision": decision, "passed_on_json": decoded.value_json()}
    passed_on = decoded.value if decoded.value is not None else current
    decision = {"action": "continue", "reason": ""}
    return {"decision": decision, "passed_on_json": marshal(passed_on, PARAMS[case.stage])}


def differences(case: Case, answer: bytes) -> list[str]:
    """Where the relayed answer leaves PicoClaw other than its own host with the hooks."""
    expected = case.outcome
    got = as_picoclaw_reads(case, answer)
    keys = ["approval"] if case.stage == "approve_tool" else ["decision", "passed_on_json"]
    found = [f"{key} {got[key]} != {expected[key]}" for key in keys if got[key] != expected[key]]
    if case.stage != "approve_tool":
        unchanged = marshal(typed_params(case.stage, case.input), PARAMS[case.stage])
        result = json.loads(answer)["result"]
        went_on = expected["decision"]["action"] == "continue"
        # as little as it can: nothing to send back when the chain changed nothing
        if went_on and got["passed_on_json"] == unchanged and result != {"action": "continue"}:
            found.append(f"answered {result} where a bare continue does")
    return [f"{case.id}: {difference}" for difference in found]


async def test_the_bridge_leaves_picoclaw_where_its_own_host_would_for_the_shared_cases(
    tmp_path: Path, socket_path: Path
) -> None:
    found: list[str] = []
    async with listening(shared_config(SHARED, tmp_path), socket_path) as engine:
        flags = [f"--{kind}-timeout-ms={ms}" for kind, ms in DEADLINES_MS.items()]
        agent = FakeAgent([*RELAY_COMMAND, "--name", RELAY, "--socket", str(socket_path), *flags])
        await agent.start()
        await agent.wait_stderr("(it reads the agent's stdin)")
        for rpc_id, case in enumerate(SHARED, start=2):
            line = case.stage_request_as(rpc_id).encode() + b"\n"
            exchange = await agent.call_line(line, timeout_s=DEADLINES_MS["interceptor"] / 1000)
            assert exchange.answer is not None, f"{case.id}: {exchange.outcome}"
            found += differences(case, exchange.answer)
        assert await agent.close() == 0
    assert found == []
    assert sum(e.hook == RELAY for e in engine.journal.exchanges()) == len(SHARED)


@pytest.mark.parametrize("case", ALONE, ids=[case.id for case in ALONE])
async def test_the_bridge_leaves_picoclaw_where_its_own_host_would(
    case: Case, tmp_path: Path, socket_path: Path
) -> None:
    async with listening(case.config(tmp_path), socket_path):
        answer = await relayed_answer(case, socket_path)
    assert differences(case, answer) == []


def test_at_least_150_cases_are_compared() -> None:
    assert len(COMPARED) >= 150
    assert len(CASES) == len(COMPARED) + len(NOT_BRIDGED)
    assert len(COMPARED) == len(SHARED) + len(ALONE)


def relay_exchange(engine: Engine) -> Exchange:
    """The exchange the agent received: the relay's, not its hooks'."""
    (exchange,) = [e for e in engine.journal.exchanges() if e.hook == RELAY]
    return exchange


@pytest.mark.parametrize("case", KINDER, ids=[case.id for case in KINDER])
async def test_kinder_cases_say_what_picoclaw_would_do(
    case: Case, tmp_path: Path, socket_path: Path
) -> None:
    async with listening(case.config(tmp_path), socket_path) as engine:
        answer = await relayed_answer(case, socket_path)
        relayed = relay_exchange(engine)
    got = as_picoclaw_reads(case, answer)
    assert got != {key: case.outcome[key] for key in got}  # the agent got the kinder answer
    (kinder,) = [f for f in relayed.findings if f.code == "kinder-than-picoclaw"]
    assert '"hook"' in kinder.message and "1 MiB" in kinder.message
    assert "timed out" in kinder.host_does
