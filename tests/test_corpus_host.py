"""Host mode against PicoClaw's own host: every case of the recorded corpus runs through the real
engine and pipeline with real hook processes that write the exact bytes each hook wrote to
PicoClaw. The decision, the approval, the object passed on (as Go encodes it), the line each hook
was sent and whether the hook mounted must be what PicoClaw's host produced."""

from __future__ import annotations

from pathlib import Path

import pytest
from corpus_cases import CASES, Case

from inspector.engine import Engine
from inspector.hooks.process import ProcessHook
from inspector.hosts.picoclaw.decode import typed_params
from inspector.hosts.picoclaw.go_encode import marshal
from inspector.hosts.picoclaw.schemas import PARAMS
from inspector.pipeline.results import ApprovalResult

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


@pytest.mark.parametrize("case", COMPARED, ids=[case.id for case in COMPARED])
async def test_host_mode_does_what_picoclaw_did(case: Case, tmp_path: Path) -> None:
    expected = case.outcome
    async with Engine(case.config(tmp_path)) as engine:
        if case.stage == "hello":
            hook = engine.hooks[case.hooks[0]["name"]]
            assert isinstance(hook, ProcessHook)
            assert hook.running == (expected["mount_error"] is None)
            return
        run = getattr(engine.pipeline, case.stage)
        result = await run(case.input, source="t", turn="t1")
    if isinstance(result, ApprovalResult):
        assert {"approved": result.approved, "reason": result.reason} == expected["approval"]
    else:
        assert {"action": result.action, "reason": result.reason} == expected["decision"]
        passed_on = typed_params(case.stage, result.value)
        assert marshal(passed_on, PARAMS[case.stage]) == expected["passed_on_json"]
    sent = {e.hook: e.raw_request for e in engine.journal.exchanges() if e.rpc_id == STAGE_ID}
    for recorded in case.hooks:
        stage_lines = [line["text"] for line in recorded["received"][1:]]
        expected_line = stage_lines[0] if stage_lines else None
        assert sent.get(recorded["name"]) == expected_line, recorded["name"]


@pytest.mark.parametrize("case", KINDER_CASES, ids=[case.id for case in KINDER_CASES])
async def test_kinder_cases_say_what_picoclaw_would_do(case: Case, tmp_path: Path) -> None:
    async with Engine(case.config(tmp_path)) as engine:
        await getattr(engine.pipeline, case.stage)(case.input, source="t", turn="t1")
    (answered,) = [e for e in engine.journal.exchanges() if e.rpc_id == STAGE_ID]
    (oversized,) = [f for f in answered.findings if f.code == "oversized-line"]
    assert "Stops reading this hook's stdout for good" in oversized.picoclaw


def test_at_least_150_cases_are_compared() -> None:
    assert len(COMPARED) >= 150
    assert len(CASES) == len(COMPARED) + len(KINDER)
