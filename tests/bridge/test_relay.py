"""`hook-inspector relay` between a fake PicoClaw host and a fake inspector, as real processes
over real pipes and sockets."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from functools import wraps
from pathlib import Path
from typing import Any, TypeVar

import pytest

from inspector.relay import wire
from inspector.relay.agent_in import AgentIn
from inspector.relay.lines import NotAnAnswer, answer_id, classify
from tests.support.fake_agent import FakeAgent, go_json
from tests.support.paths import SUPPORT
from tests.support.relay_proof import inspector_proof
from tests.support.waiting import wait_for

MODES = ["observe", "tool", "approve"]
F = TypeVar("F", bound=Callable[..., Awaitable[None]])
Answerer = Callable[[dict[str, Any]], "bytes | None"]


def bounded(seconds: float) -> Callable[[F], F]:
    """Fail a test that runs longer than `seconds` instead of hanging the suite."""

    def decorate(test: F) -> F:
        @wraps(test)
        async def run(*args: Any, **kwargs: Any) -> None:
            await asyncio.wait_for(test(*args, **kwargs), seconds)

        return run  # type: ignore[return-value]

    return decorate


class FakeInspector:
    """hook-inspector's side of wire.py: reads the greeting, welcomes (or refuses), records every
    line and answers requests with `answer(request) -> line | None` (None: the test answers, or
    nobody does)."""

    def __init__(
        self,
        answer: Answerer | None = None,
        token: str | None = None,
    ) -> None:
        self.answer = answer
        self.token = token
        self.greetings: list[dict[str, Any]] = []
        self.received: list[bytes] = []
        self.requests: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.saw_eof = asyncio.Event()
        self.port = 0
        self._server: asyncio.base_events.Server | None = None
        self._writer: asyncio.StreamWriter | None = None

    async def listen_unix(self, path: Path) -> None:
        self._server = await asyncio.start_unix_server(self._serve, path, limit=4 << 20)

    async def listen_tcp(self) -> None:
        self._server = await asyncio.start_server(self._serve, "127.0.0.1", 0, limit=4 << 20)
        self.port = self._server.sockets[0].getsockname()[1]

    def send(self, line: bytes) -> None:
        assert self._writer is not None
        self._writer.write(line)

    async def drop(self) -> None:
        """Die: stop listening and cut the relay off."""
        assert self._server is not None
        self._server.close()
        if self._writer is not None:
            self._writer.close()
        await self._server.wait_closed()

    async def stop(self) -> None:
        if self._server is not None and self._server.is_serving():
            await self.drop()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        proof = await inspector_proof(reader, writer, self.token) if self.token else None
        greeting = json.loads(await reader.readline())
        self.greetings.append(greeting)
        if proof is not None and greeting.get("proof") != proof:
            writer.write(wire.welcome(False, "wrong token"))
            writer.close()
            return
        writer.write(wire.welcome(True))
        self._writer = writer
        while line := await reader.readline():
            self.received.append(line)
            message = json.loads(line)
            if "id" in message:
                await self.requests.put(message)
                reply = self.answer(message) if self.answer else None
                if reply is not None:
                    writer.write(reply)
        self.saw_eof.set()


def answer_line(message: dict[str, Any], result: Any) -> bytes:
    # Deliberately not compact, and with escapes, to show the relay copies bytes untouched.
    return (json.dumps({"jsonrpc": "2.0", "id": message["id"], "result": result}) + "\n").encode()


def echo_answers(message: dict[str, Any]) -> bytes:
    return answer_line(message, {"action": "continue", "seen": message["params"]})


@pytest.fixture
def socket_path() -> Iterator[Path]:
    # Unix socket paths are limited to ~100 bytes: pytest's tmp_path can be too long.
    folder = Path(tempfile.mkdtemp(prefix="relay-"))
    yield folder / "relay.sock"
    shutil.rmtree(folder, ignore_errors=True)


def relay_command(*flags: str) -> list[str]:
    return [sys.executable, "-m", "inspector.relay.main", "--name", "test-agent", *flags]


Start = Callable[..., Awaitable[FakeAgent]]
Inspectors = list[FakeInspector]


@pytest.fixture
async def inspectors() -> AsyncIterator[Inspectors]:
    """Fake inspectors a test starts, stopped at its end."""
    started: list[FakeInspector] = []
    yield started
    for inspector in started:
        await inspector.stop()


async def unix_inspector(
    inspectors: Inspectors, path: Path, answer: Answerer | None = None
) -> FakeInspector:
    inspector = FakeInspector(answer)
    await inspector.listen_unix(path)
    inspectors.append(inspector)
    return inspector


@pytest.fixture
async def started() -> AsyncIterator[Start]:
    agents: list[FakeAgent] = []

    async def start(*flags: str, deadlines_ms: dict[str, int] | None = None) -> FakeAgent:
        agent = FakeAgent(relay_command(*flags), deadlines_ms=deadlines_ms)
        await agent.start()
        agents.append(agent)
        return agent

    yield start
    for agent in agents:
        if agent.returncode is None:
            await agent.close(wait_s=1.0)


def said(agent: FakeAgent, text: str) -> int:
    return sum(text in line for line in agent.stderr_lines)


# (a) with an inspector


@bounded(20)
async def test_answers_and_requests_cross_byte_for_byte(
    socket_path: Path, inspectors: Inspectors, started: Start
) -> None:
    inspector = await unix_inspector(inspectors, socket_path, echo_answers)
    agent = await started("--socket", str(socket_path))

    hello = await agent.hello("inspector", MODES)
    tricky = {"tool": "exec", "arguments": {"cmd": "a < b && c > d", "note": "naïve \u2028"}}
    call = await agent.call("hook.before_tool", tricky)
    event = await agent.notify("hook.runtime_event", {"kind": "agent.turn.end", "x": "<&>"})
    await wait_for(lambda: len(inspector.received) == 3)

    assert b"\\u003c" in call.request and b"\\u0026" in call.request
    assert inspector.received == [hello.request, call.request, event]
    assert inspector.greetings[0]["name"] == "test-agent"
    assert "hello" not in inspector.greetings[0]  # the hello came as a line, after the greeting
    assert call.answer == echo_answers(json.loads(call.request))
    assert agent.ignored == [] and agent.late == []


@bounded(20)
async def test_concurrent_requests_answered_out_of_order(
    socket_path: Path, inspectors: Inspectors, started: Start
) -> None:
    inspector = await unix_inspector(inspectors, socket_path)
    agent = await started("--socket", str(socket_path))
    methods = ["hook.before_llm", "hook.before_tool", "hook.approve_tool", "hook.after_tool"]
    calls = [asyncio.create_task(agent.call(method, {"n": n})) for n, method in enumerate(methods)]
    requests = [await inspector.requests.get() for _ in methods]
    for request in reversed(requests):
        inspector.send(answer_line(request, {"answer_to": request["id"]}))
    exchanges = await asyncio.gather(*calls)

    assert sorted(request["id"] for request in requests) == [1, 2, 3, 4]
    for exchange in exchanges:
        assert exchange.result == {"answer_to": exchange.id}
        assert exchange.answer == answer_line({"id": exchange.id}, {"answer_to": exchange.id})


@bounded(30)
async def test_a_900_kb_line_passes_both_ways_intact(
    socket_path: Path, inspectors: Inspectors, started: Start
) -> None:
    inspector = await unix_inspector(inspectors, socket_path, echo_answers)
    agent = await started("--socket", str(socket_path))
    big = {"messages": [{"role": "user", "content": "<" + "x" * 900_000 + ">"}]}

    call = await agent.call("hook.before_llm", big)

    assert 890_000 < len(call.request) < 1_000_000
    assert inspector.received == [call.request]
    assert call.answer == echo_answers(json.loads(call.request))
    assert len(call.answer) < 1024 * 1024 and not agent.reader_dead


@bounded(20)
async def test_protocol_errors_from_the_inspector_are_logged_once_and_not_forwarded(
    socket_path: Path, inspectors: Inspectors, started: Start
) -> None:
    def misbehave(message: dict[str, Any]) -> bytes:
        junk = b"not json\n" + answer_line({"id": 999}, {}) + b"still not json\n"
        return junk + answer_line(message, {"action": "continue"})

    await unix_inspector(inspectors, socket_path, misbehave)
    agent = await started("--socket", str(socket_path))

    first = await agent.call("hook.before_tool", {})
    second = await agent.call("hook.before_tool", {})
    await agent.wait_stderr("unknown id 999")

    assert first.result == second.result == {"action": "continue"}
    assert agent.ignored == [] and agent.late == []
    assert said(agent, "not JSON") == 1 and said(agent, "unknown id") == 1


# (b) no inspector


@bounded(20)
async def test_without_an_inspector_the_relay_answers_safely(
    socket_path: Path, started: Start
) -> None:
    # Deadlines of an hour: an answer that waited for one would never come before bounded() ends.
    hour_ms = 3_600_000
    agent = await started(
        "--socket",
        str(socket_path),
        "--interceptor-timeout-ms",
        str(hour_ms),
        "--approval-timeout-ms",
        str(hour_ms),
        deadlines_ms={"interceptor": hour_ms, "approval": hour_ms},
    )

    hello = await agent.hello("inspector", MODES)
    await agent.notify("hook.runtime_event", {"kind": "agent.turn.start"})
    interceptors = [
        await agent.call(method, {})
        for method in ("hook.before_llm", "hook.after_llm", "hook.before_tool", "hook.after_tool")
    ]
    approval = await agent.call("hook.approve_tool", {"tool": "exec"})
    unknown = await agent.call("hook.unknown", {})
    # Let at least one reconnection attempt (every 1 s) go by, to show it stays quiet.
    await asyncio.sleep(1.3)
    again = await agent.call("hook.before_tool", {})

    assert hello.result == {}
    assert all(call.result == {"action": "continue"} for call in [*interceptors, again])
    assert approval.result["approved"] is False
    assert "hook-inspector" in approval.result["reason"]
    assert unknown.error["code"] == -32601
    assert all(call.outcome == "answered" for call in agent.exchanges)
    assert said(agent, "no hook-inspector at") == 1
    assert len(agent.stderr_lines) == 1


# (c) the inspector comes later


@bounded(20)
async def test_a_late_inspector_gets_the_kept_events_then_live_lines(
    socket_path: Path, inspectors: Inspectors, started: Start
) -> None:
    agent = await started("--socket", str(socket_path), "--keep-events", "3")
    hello = await agent.hello("inspector", MODES)
    events = [
        await agent.notify("hook.runtime_event", {"kind": "agent.llm.delta", "n": n})
        for n in range(5)
    ]
    answered_by_relay = await agent.call("hook.before_tool", {})
    await agent.wait_stderr("no hook-inspector at")

    inspector = await unix_inspector(inspectors, socket_path, echo_answers)
    await wait_for(lambda: len(inspector.received) == 3)
    live = await agent.call("hook.after_tool", {"tool": "exec"})
    await agent.wait_stderr("dropped 2 runtime events")

    assert answered_by_relay.result == {"action": "continue"}
    assert inspector.greetings[0]["hello"] == json.loads(hello.request)
    assert inspector.received == [*events[2:], live.request]
    assert live.answer == echo_answers(json.loads(live.request))
    assert said(agent, "connected to hook-inspector") == 1


# (d) the inspector dies or is too slow


@bounded(20)
async def test_the_inspector_dies_mid_call(
    socket_path: Path, inspectors: Inspectors, started: Start
) -> None:
    inspector = await unix_inspector(inspectors, socket_path)
    agent = await started("--socket", str(socket_path))
    approval = asyncio.create_task(agent.call("hook.approve_tool", {"tool": "exec"}))
    await inspector.requests.get()

    await inspector.drop()
    exchange = await approval

    assert exchange.outcome == "answered" and exchange.latency_s < 2.0
    assert exchange.result["approved"] is False
    assert "connection to hook-inspector was lost" in exchange.result["reason"]
    await agent.wait_stderr("lost hook-inspector")


@bounded(20)
async def test_a_late_answer_is_dropped_never_a_second_answer(
    socket_path: Path, inspectors: Inspectors, started: Start
) -> None:
    inspector = await unix_inspector(inspectors, socket_path)
    deadline_ms = 600
    agent = await started(
        "--socket",
        str(socket_path),
        "--interceptor-timeout-ms",
        str(deadline_ms),
        deadlines_ms={"interceptor": deadline_ms},
    )
    inspector.answer = lambda message: answer_line(message, {}) if message["id"] == 1 else None
    await agent.hello("inspector", MODES)  # as PicoClaw does: the relay is up once it answers
    call = asyncio.create_task(agent.call("hook.before_tool", {}))
    await inspector.requests.get()  # the hello
    request = await inspector.requests.get()
    exchange = await call

    inspector.send(answer_line(request, {"action": "modify"}))
    await agent.wait_stderr("late answer")
    after = await agent.call("hook.after_tool", {}, timeout_s=0.1)

    assert exchange.result == {"action": "continue"}
    assert wire.answer_by_ms(deadline_ms) / 1000 <= exchange.latency_s < deadline_ms / 1000
    assert agent.late == []
    assert after.outcome == "timeout"  # the inspector does not answer it: nothing else came


@pytest.mark.parametrize("deadline_ms", [500, 5000])
def test_the_relay_answers_before_the_agents_deadline(deadline_ms: int) -> None:
    answer_by = wire.answer_by_ms(deadline_ms)
    assert 20 <= deadline_ms - answer_by <= 200
    assert wire.answer_by_ms(60_000) == 59_800


# (e) TCP


@bounded(20)
async def test_tcp_with_the_right_token(
    tmp_path: Path, inspectors: Inspectors, started: Start
) -> None:
    inspector = FakeInspector(echo_answers, token="s3cret")
    await inspector.listen_tcp()
    inspectors.append(inspector)
    (tmp_path / "token").write_text("s3cret\n")
    agent = await started(
        "--connect", f"127.0.0.1:{inspector.port}", "--token-file", str(tmp_path / "token")
    )

    call = await agent.call("hook.before_tool", {"tool": "exec"})

    assert call.answer == echo_answers(json.loads(call.request))
    assert "s3cret" not in json.dumps(inspector.greetings)


@bounded(20)
async def test_tcp_with_a_wrong_token_trusts_no_inspector(
    tmp_path: Path, inspectors: Inspectors, started: Start
) -> None:
    inspector = FakeInspector(echo_answers, token="s3cret")
    await inspector.listen_tcp()
    inspectors.append(inspector)
    (tmp_path / "token").write_text("guess\n")
    agent = await started(
        "--connect", f"127.0.0.1:{inspector.port}", "--token-file", str(tmp_path / "token")
    )

    approval = await agent.call("hook.approve_tool", {"tool": "exec"})
    interceptor = await agent.call("hook.before_tool", {"tool": "exec"})
    await agent.wait_stderr("did not prove it knows the token")

    assert approval.result["approved"] is False
    assert "did not prove it knows the token" in approval.result["reason"]
    assert interceptor.result == {"action": "continue"}
    assert inspector.greetings == [] and inspector.received == []
    assert said(agent, "did not prove it knows the token") == 1


def test_tcp_needs_a_token_file() -> None:
    done = subprocess.run(
        relay_command("--connect", "127.0.0.1:9"), capture_output=True, timeout=20
    )
    assert done.returncode == 2 and b"--token-file" in done.stderr


# (f) the agent closes stdin


@bounded(20)
async def test_stdin_closed_the_relay_exits_promptly(socket_path: Path, started: Start) -> None:
    agent = await started("--socket", str(socket_path))
    await agent.hello("inspector", MODES)
    loop = asyncio.get_running_loop()
    start = loop.time()

    code = await agent.close()

    assert code == 0 and loop.time() - start < 1.0


@bounded(20)
async def test_stdin_closed_pending_answers_still_arrive(
    socket_path: Path, inspectors: Inspectors, started: Start
) -> None:
    inspector = await unix_inspector(inspectors, socket_path)
    agent = await started("--socket", str(socket_path))
    call = asyncio.create_task(agent.call("hook.approve_tool", {"tool": "exec"}))
    request = await inspector.requests.get()

    closing = asyncio.create_task(agent.close(wait_s=5.0))
    await inspector.saw_eof.wait()  # the relay half-closed: the agent is gone
    inspector.send(answer_line(request, {"approved": True}))

    assert (await call).result == {"approved": True}
    assert await closing == 0


def test_files_for_stdin_and_stdout_work_too(tmp_path: Path) -> None:
    calls = [
        go_json({"jsonrpc": "2.0", "id": n, "method": method, "params": {}})
        for n, method in enumerate(["hook.hello", "hook.before_tool"], start=1)
    ]
    (tmp_path / "calls.jsonl").write_bytes(b"".join(calls))
    with (tmp_path / "calls.jsonl").open("rb") as stdin, (tmp_path / "out").open("wb") as out:
        done = subprocess.run(
            relay_command("--socket", str(tmp_path / "none.sock")),
            stdin=stdin,
            stdout=out,
            stderr=subprocess.PIPE,
            timeout=20,
        )
    assert done.returncode == 0
    assert (tmp_path / "out").read_bytes() == (
        b'{"jsonrpc":"2.0","id":1,"result":{}}\n'
        b'{"jsonrpc":"2.0","id":2,"result":{"action":"continue"}}\n'
    )


def test_stdin_from_dev_null_ends_the_relay(tmp_path: Path) -> None:
    """/dev/null is a character device the event loop cannot watch: the relay reads its end."""
    try:
        done = subprocess.run(
            relay_command("--socket", str(tmp_path / "none.sock")),
            stdin=subprocess.DEVNULL,
            capture_output=True,
            timeout=20,  # only guards a hang
        )
    except subprocess.TimeoutExpired as hung:
        raise AssertionError(f"the relay hung; stderr: {hung.stderr!r}") from None
    assert done.returncode == 0 and done.stdout == b""
    assert b"Traceback" not in done.stderr


# (g) start-up stays light


def test_the_relay_imports_no_ui_and_no_engine() -> None:
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "inspector.relay.main", "--help"],
        capture_output=True,
        text=True,
        timeout=20,
    )
    assert done.returncode == 0
    modules = {line.split("|")[-1].strip() for line in done.stderr.splitlines() if "|" in line}
    ours = {name for name in modules if name.split(".")[0] == "inspector"}
    assert not {name.split(".")[0] for name in modules} & {"textual", "rich", "yaml", "watchfiles"}
    assert all(
        name in ("inspector", "inspector.relay", "inspector.safe_files")
        or name.startswith("inspector.relay.")
        for name in ours
    )


# line handling, in isolation


def test_classify_reads_the_go_head_and_falls_back_to_json() -> None:
    go = go_json({"jsonrpc": "2.0", "id": 12, "method": "hook.before_tool", "params": {}})
    assert classify(go).method == "hook.before_tool" and classify(go).id_json == "12"
    event = go_json({"jsonrpc": "2.0", "method": "hook.runtime_event", "params": {}})
    assert classify(event).method == "hook.runtime_event" and classify(event).id_json is None
    spaced = b'{"method": "hook.hello", "id": "a", "jsonrpc": "2.0"}\n'
    assert classify(spaced).method == "hook.hello" and classify(spaced).id_json == '"a"'
    assert classify(b"garbage\n").method == ""


@pytest.mark.parametrize(
    "answer",
    [
        {"jsonrpc": "2.0", "id": 12, "result": {"action": "continue"}},
        {"jsonrpc": "2.0", "id": 0, "result": {}},
        {"jsonrpc": "2.0", "id": 2**63, "error": {"code": -32601, "message": "no"}},
        {"jsonrpc": "2.0", "id": -4, "result": {}},
        {"jsonrpc": "2.0", "id": "a}", "result": {}},
        {"id": 9, "jsonrpc": "2.0", "result": {}},
    ],
)
def test_an_answers_id_is_read_from_its_head_as_from_the_whole_line(answer: dict[str, Any]) -> None:
    line = go_json(answer).rstrip(b"\n")
    assert answer_id(line) == json.dumps(answer["id"], separators=(",", ":"))
    assert answer_id(line + b"\r\n") == json.dumps(answer["id"], separators=(",", ":"))


def test_a_line_that_only_starts_like_an_answer_is_not_one() -> None:
    with pytest.raises(NotAnAnswer):
        answer_id(b'{"jsonrpc":"2.0","id":3,"result":{"act')


@bounded(10)
async def test_agent_input_in_awkward_chunks_and_over_the_limit() -> None:
    read_end, write_end = os.pipe()
    os.set_blocking(read_end, False)
    got: list[tuple[str, bytes]] = []
    ended = asyncio.Event()
    agent_in = AgentIn(
        read_end,
        64,
        lambda line: got.append(("line", line)),
        lambda head: got.append(("oversized", head)),
        ended.set,
        watchable=True,
    )
    big = b'{"jsonrpc":"2.0","id":7,"method":"hook.before_llm","params":"' + b"x" * 200 + b'"}\n'
    data = b'{"a":1}\n' + big + b"tail"
    agent_in.start(b'{"b"')  # what someone else read of the pipe before
    for start in range(0, len(data), 5):
        os.write(write_end, data[start : start + 5])
        await asyncio.sleep(0)  # let the reader take each piece on its own
    os.close(write_end)
    await ended.wait()
    os.close(read_end)

    assert got[0] == ("line", b'{"b"{"a":1}\n')
    kind, head = got[1]
    assert kind == "oversized" and classify(head).id_json == "7"
    assert got[2:] == [("line", b"tail")]


@bounded(10)
async def test_agent_input_stops_and_gives_back_a_line_begun() -> None:
    read_end, write_end = os.pipe()
    os.set_blocking(read_end, False)
    lines: list[bytes] = []
    agent_in = AgentIn(read_end, 64, lines.append, lines.append, lambda: None, watchable=True)
    agent_in.start()
    os.write(write_end, b'{"a":1}\n{"b":')
    await wait_for(lambda: lines == [b'{"a":1}\n'])  # both pieces came in one read
    assert agent_in.stop() == b'{"b":'
    os.write(write_end, b"2}\n")
    assert os.read(read_end, 100) == b"2}\n"  # left in the pipe for whoever reads next
    os.close(write_end)
    os.close(read_end)
    assert lines == [b'{"a":1}\n']


@bounded(20)
async def test_script_mode_of_the_fake_agent(socket_path: Path) -> None:
    env = {**os.environ, "XDG_RUNTIME_DIR": str(socket_path.parent)}
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        str(SUPPORT / "fake_agent.py"),
        "--",
        *relay_command("--socket", str(socket_path)),
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        env=env,
    )
    out, _ = await process.communicate()
    records = [json.loads(line) for line in out.splitlines()]
    assert process.returncode == 0
    assert [record["method"] for record in records][:2] == ["hook.hello", "hook.before_tool"]
    assert all(record["outcome"] == "answered" for record in records)
