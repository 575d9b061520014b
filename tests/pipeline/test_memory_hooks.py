"""The in-memory hooks (tests/support/memory_hook.py, memory_command_hook.py) that the tests of a
chain's rules use are read by the chain as the real process with the same script is: the same
result, the same exchange status, action and findings."""

from __future__ import annotations

from typing import Any

import pytest

from inspector.engine import Engine
from inspector.hosts.jcli.chain import JcliChain
from inspector.journal.journal import Journal
from inspector.journal.records import Exchange
from tests.support.jcli import sh, spec
from tests.support.memory_command_hook import Answer, jcli_in_memory
from tests.support.memory_hook import MemoryHook, picoclaw_chain
from tests.support.scripted import config_of, scripted

CALL = {"meta": {}, "tool": "exec", "arguments": {"command": "ls"}}
TOOL_CONTEXT = {"tool_name": "Bash", "tool_arguments": '{"command":"ls"}', "session_id": "s1"}
TIMEOUT_MS = 300  # only the hook that never answers waits for it


def reading(exchange: Exchange) -> tuple[Any, ...]:
    codes = sorted(finding.code for finding in exchange.findings)
    return (exchange.hook, exchange.status, exchange.action, codes)


@pytest.mark.parametrize(
    "behaviour",
    [
        {},
        {"echo": "modify", "patch": {"arguments": {"seen": 1}}},
        {"result": {"action": "respond", "reason": "cached"}},
        {"result": {"action": "deny_tool", "reason": "no", "call": {"tool": "other"}}},
        {"result": {"action": "MODIFY"}},
        {"error": {"code": -32000, "message": "boom"}},
        {"never": True},
        {"exit": 3},
    ],
)
async def test_picoclaws_chain_reads_a_memory_hook_as_its_process(
    behaviour: dict[str, Any],
) -> None:
    script = {"before_tool": behaviour}
    memory = picoclaw_chain(
        MemoryHook("h", script, intercept=("before_tool",)), interceptor_timeout_ms=TIMEOUT_MS
    )
    from_memory = await memory.before_tool(CALL, source="test", turn="t1")
    config = config_of(
        scripted("h", script, intercept=("before_tool",)), interceptor_timeout_ms=TIMEOUT_MS
    )
    async with Engine(config) as engine:
        from_process = await engine.runtime.pipeline.before_tool(CALL, source="test", turn="t1")
    assert from_memory == from_process
    process_calls = [e for e in engine.journal.exchanges() if e.method != "hook.hello"]
    assert [reading(e) for e in memory.journal.exchanges()] == [reading(e) for e in process_calls]


@pytest.mark.parametrize(
    ("stdout", "code"),
    [
        ("", 0),
        ('{"tool_result": "x", "unknown": 1}', 0),
        ("not json", 0),
        ('{"action": "stop", "retry_feedback": "again"}', 0),
        ('{"action": "skip"}', 1),
        ("{}", 2),
    ],
)
async def test_jclis_chain_reads_a_memory_command_hook_as_its_script(
    stdout: str, code: int
) -> None:
    answer: Answer = {"stdout": stdout, "exit": code, "stderr": "boom\n"}
    results, journals = [], []
    for in_memory in ({"h": [answer]}, {}):
        journal = Journal()
        chain = JcliChain([spec("h", sh("exit.sh", code, stdout))], journal)
        jcli_in_memory(chain, in_memory)
        results.append(await chain.fire("pre_tool_execution", TOOL_CONTEXT, source="test"))
        journals.append([(*reading(e), e.error, e.exit_code) for e in journal.exchanges()])
    from_memory, from_script = results
    assert (from_memory.result, from_memory.by) == (from_script.result, from_script.by)
    assert journals[0] == journals[1]
