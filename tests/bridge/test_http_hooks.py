"""The inspector's door for Claude Code's HTTP hooks (inspector/bridge/http_hooks.py), POSTed to
as Claude Code does it, with and without the token install wrote: what the answer's status and
body are, and what the journal shows."""

from __future__ import annotations

import asyncio
import json
import socket
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import aiohttp

from inspector.bridge.http_hooks import NO_TOKEN, WRONG_TOKEN
from inspector.bridge.listener import Listener, ListenOptions, listen_for_relays
from inspector.cli.main import main
from inspector.config.model import CommandHookSpec, Config
from inspector.engine import Engine
from inspector.hosts.http_endpoint import Endpoint, ensure_endpoint
from inspector.hosts.picoclaw import NAME as PICOCLAW
from inspector.hosts.registry import host_named
from inspector.journal.records import Exchange, Lifecycle, Noise
from tests.support.claude import decision, reply, script, spec
from tests.support.command_relay import pre_tool_use
from tests.support.waiting import wait_for


@asynccontextmanager
async def inspector(
    *specs: CommandHookSpec, workdir: Path
) -> AsyncIterator[tuple[Engine, Listener]]:
    config = Config(hooks=specs, host="claude" if specs else PICOCLAW, workdir=workdir)
    async with Engine(config) as engine:
        listener = await listen_for_relays(engine, ListenOptions())
        try:
            yield engine, listener
        finally:
            await listener.close()


async def post(
    endpoint: Endpoint, body: bytes, headers: dict[str, str] | None = None, timeout_s: int = 30
) -> tuple[int, str]:
    """POST `body` as Claude Code does (install's URL, the token header unless `headers`)."""
    given = endpoint.header() if headers is None else headers
    async with (
        aiohttp.ClientSession() as client,
        client.post(
            endpoint.url(timeout_s),
            data=body,
            headers={"Content-Type": "application/json", **given},
        ) as answer,
    ):
        return answer.status, await answer.text()


def event(command: str, cwd: Path) -> bytes:
    """A PreToolUse as Claude Code POSTs it; the inspector's hooks run in its `cwd`."""
    payload = {**pre_tool_use(command), "cwd": str(cwd)}
    return json.dumps(payload, separators=(",", ":")).encode()


def exchanges(engine: Engine) -> list[Exchange]:
    return [r for r in engine.journal.records if isinstance(r, Exchange) and r.hook == "claude"]


def refusals(engine: Engine) -> list[str]:
    return [
        r.detail
        for r in engine.journal.records
        if isinstance(r, Lifecycle) and r.state == "refused"
    ]


async def test_an_exit_2_guard_answers_a_200_whose_json_denies_with_its_stderr(
    tmp_path: Path,
) -> None:
    endpoint = ensure_endpoint()
    guard = spec(script("guard_rm.sh"), matcher="Bash")
    async with inspector(guard, workdir=tmp_path) as (engine, listener):
        assert listener.http is not None
        status, body = await post(endpoint, event("rm -rf build", tmp_path))
    assert status == 200
    assert json.loads(body) == {
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "deny",
            "permissionDecisionReason": "rm -rf is not allowed: remove specific files instead",
        }
    }
    (exchange,) = exchanges(engine)
    assert (exchange.source, exchange.action, exchange.status) == ("relay:claude", "deny", "ok")
    assert exchange.cwd == str(tmp_path)


async def test_nobody_deciding_is_an_empty_200_a_hook_that_said_nothing(tmp_path: Path) -> None:
    endpoint = ensure_endpoint()
    async with inspector(spec(reply(0), matcher="Bash"), workdir=tmp_path) as (engine, _):
        assert await post(endpoint, event("ls", tmp_path)) == (200, "")
    assert exchanges(engine)[0].action == "continue"


async def test_a_request_without_the_token_or_with_another_is_refused_and_journaled(
    tmp_path: Path,
) -> None:
    endpoint = ensure_endpoint()
    deny = spec(reply(0, decision("deny", "no")), matcher="Bash")
    async with inspector(deny, workdir=tmp_path) as (engine, _):
        assert (await post(endpoint, event("ls", tmp_path), headers={}))[0] == 401
        other = {"Authorization": "Bearer " + "x" * len(endpoint.token)}
        assert (await post(endpoint, event("ls", tmp_path), headers=other))[0] == 401
        assert not exchanges(engine)
        details = refusals(engine)
    assert [detail.split(" (from ")[0] for detail in details] == [NO_TOKEN, WRONG_TOKEN]
    assert all("127.0.0.1" in detail for detail in details)


async def test_a_body_that_is_not_an_event_is_journaled_as_noise_and_answered_empty(
    tmp_path: Path,
) -> None:
    endpoint = ensure_endpoint()
    async with inspector(spec(reply(0), matcher="Bash"), workdir=tmp_path) as (engine, _):
        assert await post(endpoint, b'{"no": "event"}') == (200, "")
        assert await post(endpoint, b"\xff not json") == (200, "")
    noise = [r for r in engine.journal.records if isinstance(r, Noise)]
    assert [n.findings[0].code for n in noise] == ["relay-not-a-request", "relay-not-json"]
    assert not exchanges(engine)


async def test_a_held_event_dropped_by_hand_is_answered_as_a_hook_that_said_nothing(
    tmp_path: Path,
) -> None:
    endpoint = ensure_endpoint()
    deny = spec(reply(0, decision("deny", "no")), matcher="Bash")
    async with inspector(deny, workdir=tmp_path) as (engine, listener):
        engine.set_intercept("hook:claude")
        answer = asyncio.create_task(post(endpoint, event("rm -rf build", tmp_path)))
        await wait_for(lambda: bool(engine.held))
        (held,) = engine.held
        assert listener.time_left(held.seq) is not None  # the handler's 30 s, counting down
        assert engine.drop(held.seq)
        assert await answer == (200, "")


async def test_the_inspector_stopping_answers_a_call_in_flight_as_absent(tmp_path: Path) -> None:
    endpoint = ensure_endpoint()
    async with inspector(spec(reply(0), matcher="Bash"), workdir=tmp_path) as (engine, listener):
        engine.set_intercept("hook:claude")
        answer = asyncio.create_task(post(endpoint, event("ls", tmp_path)))
        await wait_for(lambda: bool(engine.held))
        await listener.close()
        assert await answer == (200, "")


async def test_a_port_another_process_holds_is_said_in_the_journal_and_relays_go_on(
    tmp_path: Path,
) -> None:
    endpoint = ensure_endpoint()
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", endpoint.port))
        taken.listen()
        async with inspector(workdir=tmp_path) as (engine, listener):
            assert listener.http is None and listener.address
    [failed] = [r for r in engine.journal.records if isinstance(r, Lifecycle)]
    assert (
        failed.state == "failed" and "not listening for Claude Code's HTTP hooks" in failed.detail
    )


async def test_without_an_endpoint_file_no_port_is_opened(tmp_path: Path) -> None:
    async with inspector(workdir=tmp_path) as (engine, listener):
        assert listener.http is None
    assert not [r for r in engine.journal.records if isinstance(r, Lifecycle)]


async def test_its_own_http_handler_in_the_config_answers_at_once_as_an_absent_hook(
    tmp_path: Path,
) -> None:
    """Pointed at the project whose settings.local.json install wrote, the inspector runs that
    http handler behind itself: POSTing to itself again would go round until the deadline; the
    call from inside is answered at once as a hook that said nothing, as the relay's is."""
    project = tmp_path / "project"
    (project / ".claude").mkdir(parents=True)
    assert main(["install", "claude", "--http", "--project", str(project)]) == 0
    endpoint = ensure_endpoint()
    config = host_named("claude").load(project)
    async with Engine(config) as engine:
        listener = await listen_for_relays(engine, ListenOptions())
        try:
            assert await post(endpoint, event("ls", tmp_path)) == (200, "")
        finally:
            await listener.close()
    assert len(exchanges(engine)) == 1  # Claude Code's call, and not the inspector's own


async def test_a_body_over_the_limit_is_journaled_as_noise_and_answered_empty(
    tmp_path: Path,
) -> None:
    endpoint = ensure_endpoint()
    config = Config(hooks=(spec(reply(0), matcher="Bash"),), host="claude", workdir=tmp_path)
    async with Engine(config) as engine:
        listener = Listener(engine, max_line=1000)
        await listener.start()
        try:
            big = {**pre_tool_use("x" * 2000), "cwd": str(tmp_path)}
            assert await post(endpoint, json.dumps(big).encode()) == (200, "")
        finally:
            await listener.close()
    [noise] = [r for r in engine.journal.records if isinstance(r, Noise)]
    assert noise.findings[0].message == "an event of over 1,000 bytes"
    assert not exchanges(engine)
