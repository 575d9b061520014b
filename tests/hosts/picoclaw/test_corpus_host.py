"""Host mode against PicoClaw's own host: every case of the recorded corpus runs through the real
engine and pipeline with real hook processes that write the exact bytes each hook wrote to
PicoClaw. The decision, the approval, the object passed on (as Go encodes it), the line each hook
was sent and whether the hook mounted must be what PicoClaw's host produced."""

from __future__ import annotations

from pathlib import Path

import pytest

from inspector.engine import Engine
from inspector.hosts.picoclaw.decode import typed_params
from inspector.hosts.picoclaw.gojson.encode import marshal
from inspector.hosts.picoclaw.gojson.schemas import PARAMS
from inspector.hosts.picoclaw.process import ProcessHook
from inspector.hosts.picoclaw.results import ApprovalResult, StageResult
from tests.support.corpus_cases import CASES, Case, shared_config

STAGE_ID = 2  # PicoClaw's per-process id counter: hello is 1
# Cases hook-inspector answers differently on purpose (kinder than PicoClaw), each with why. The
# exchange still says what PicoClaw would have done (test_kinder_cases_say_what_picoclaw_would_do).
OVER_1_MIB = (
    "the answer is a line of 1 MiB + 1 byte: PicoClaw's reader stops for good and the call times "
    "out; hook-inspector keeps reading and uses the answer (finding oversized-line)"
)
KINDER = {
    "line_limit/approve/1MiB-plus-1": OVER_1_MIB,
    "line_limit/before_tool/1MiB-plus-1": OVER_1_MIB,
}
COMPARED = [case for case in CASES if case.id not in KINDER]
KINDER_CASES = [case for case in CASES if case.id in KINDER]
# Most cases share one hook process (corpus_cases.shared_config); the rest get their own.
SHARED = [case for case in COMPARED if case.shareable]
ALONE = [case for case in COMPARED if not case.shareable]
Result = StageResult | ApprovalResult


def differences(case: Case, result: Result, sent: dict[str, str | None], rpc_id: int) -> list[str]:
    """Where hook-inspector did not do what PicoClaw's host did: `sent` is the line each hook
    was sent as its call `rpc_id`."""
    expected = case.outcome
    found = []
    if isinstance(result, ApprovalResult):
        got = {"approved": result.approved, "reason": result.reason}
        if got != expected["approval"]:
            found.append(f"approval {got} != {expected['approval']}")
    else:
        decision = {"action": result.action, "reason": result.reason}
        if decision != expected["decision"]:
            found.append(f"decision {decision} != {expected['decision']}")
        passed_on = marshal(typed_params(case.stage, result.value), PARAMS[case.stage])
        if passed_on != expected["passed_on_json"]:
            found.append(f"passed on {passed_on} != {expected['passed_on_json']}")
    for recorded in case.hooks:
        stage_lines = [line["text"] for line in recorded["received"][1:]]
        wanted = stage_lines[0].replace('"id":2,', f'"id":{rpc_id},', 1) if stage_lines else None
        if sent.get(recorded["name"]) != wanted:
            found.append(f"{recorded['name']} was sent {sent.get(recorded['name'])} != {wanted}")
    return [f"{case.id}: {difference}" for difference in found]


def sent_as(engine: Engine, rpc_id: int) -> dict[str, str | None]:
    return {e.hook: e.raw_request for e in engine.journal.exchanges() if e.rpc_id == rpc_id}


async def run_stage(engine: Engine, case: Case) -> Result:
    result: Result = await getattr(engine.runtime.pipeline, case.stage)(
        case.input, source="t", turn="t1"
    )
    return result


async def test_host_mode_does_what_picoclaw_did_for_the_shared_cases(tmp_path: Path) -> None:
    found: list[str] = []
    async with Engine(shared_config(SHARED, tmp_path)) as engine:
        for rpc_id, case in enumerate(SHARED, start=STAGE_ID):
            result = await run_stage(engine, case)
            found += differences(case, result, sent_as(engine, rpc_id), rpc_id)
    assert found == []


@pytest.mark.parametrize("case", ALONE, ids=[case.id for case in ALONE])
async def test_host_mode_does_what_picoclaw_did(case: Case, tmp_path: Path) -> None:
    async with Engine(case.config(tmp_path)) as engine:
        if case.stage == "hello":
            hook = engine.runtime.hooks[case.hooks[0]["name"]]
            assert isinstance(hook, ProcessHook)
            assert hook.running == (case.outcome["mount_error"] is None)
            return
        result = await run_stage(engine, case)
    assert differences(case, result, sent_as(engine, STAGE_ID), STAGE_ID) == []


@pytest.mark.parametrize("case", KINDER_CASES, ids=[case.id for case in KINDER_CASES])
async def test_kinder_cases_say_what_picoclaw_would_do(case: Case, tmp_path: Path) -> None:
    async with Engine(case.config(tmp_path)) as engine:
        await run_stage(engine, case)
    (answered,) = [e for e in engine.journal.exchanges() if e.rpc_id == STAGE_ID]
    (oversized,) = [f for f in answered.findings if f.code == "oversized-line"]
    assert "Stops reading this hook's stdout for good" in oversized.host_does


def test_at_least_150_cases_are_compared() -> None:
    assert len(COMPARED) >= 150
    assert len(CASES) == len(COMPARED) + len(KINDER) == len(SHARED) + len(ALONE) + len(KINDER)
