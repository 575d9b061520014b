"""Claude Code's http handlers run in host mode as Claude Code 2.1.332 runs them, against a real
server on 127.0.0.1: the event's JSON POSTed, header values filled in only from the allowed
variables, a 2xx body read as a command's stdout JSON, any other status or no answer a
non-blocking error, the timeout, onFailure; each request an exchange with its status and timing,
run in parallel with command hooks, held at the intercept, sent from the composer, replayed."""

from __future__ import annotations

import asyncio
import copy
import json
from dataclasses import replace
from pathlib import Path
from typing import Any

from inspector.config.model import CommandHookSpec, Config, HttpTarget
from inspector.drivers.replay import replay
from inspector.engine import Engine
from inspector.journal.records import Exchange
from inspector.tui.widgets.detail_pane import raw_view
from tests.cli.test_cli import hook_inspector
from tests.hosts.claude.test_claude_hooks import exchanges
from tests.support.claude import claude_hooks, decision, reply, spec, tool_event
from tests.support.http_hook_server import Answer, HookServer, hook_server
from tests.support.waiting import wait_for

DENY = decision("deny", "no rm here")
STOP = {"session_id": "s1", "hook_event_name": "Stop", "stop_hook_active": False}


def http(
    url: str,
    event: str = "PreToolUse",
    *,
    name: str | None = None,
    headers: dict[str, str] | None = None,
    allowed: tuple[str, ...] = (),
    timeout_ms: int = 5000,
    on_failure: str = "continue",
) -> CommandHookSpec:
    return CommandHookSpec(
        name=name or f"{event}:http",
        host="claude",
        event=event,
        command=f"http: {url}",
        timeout_ms=timeout_ms,
        level="project",
        handler="http",
        http=HttpTarget(url, tuple((headers or {}).items()), allowed),
        on_failure=on_failure,
    )


async def fire_http(
    tmp_path: Path, hook: CommandHookSpec, payload: dict[str, Any] | None = None, **env: str
) -> tuple[Any, Exchange]:
    hooks = claude_hooks(hook, project_dir=tmp_path, env=env)
    sent = payload or tool_event(command="rm -rf /")
    outcome = await hooks.fire(hook.event, sent, source="test", turn="t1")
    [exchange] = exchanges(hooks)
    return outcome, exchange


# ---- the request ---------------------------------------------------------------------------


async def test_the_event_json_is_posted_and_a_deny_in_the_answer_blocks(tmp_path: Path) -> None:
    with hook_server() as server:
        url = server.answer("/guard", Answer(200, DENY))
        outcome, exchange = await fire_http(tmp_path, http(url))
    [seen] = server.seen
    assert seen.path == "/guard" and seen.headers["Content-Type"] == "application/json"
    assert seen.json == tool_event(command="rm -rf /")
    assert (outcome.verdict, outcome.reason) == ("deny", "no rm here")
    assert (exchange.method, exchange.status, exchange.http_status, exchange.action) == (
        "PreToolUse",
        "ok",
        200,
        "deny",
    )
    assert exchange.raw_request == seen.body  # the body as sent, no newline (stdin has one)
    assert json.loads(exchange.raw_response or "") == DENY
    assert exchange.duration_ms is not None and exchange.duration_ms > 0


async def test_header_values_read_only_the_allowed_variables(tmp_path: Path) -> None:
    headers = {
        "Authorization": "Bearer $TOKEN",
        "X-Braced": "${TOKEN}!",
        "X-Not-Allowed": "[$SECRET]",
        "X-Lower": "$token",
        "X-Line": "$LINE",
        "Content-Length": "99999",
    }
    with hook_server() as server:
        hook = http(server.url(), headers=headers, allowed=("TOKEN", "LINE"))
        await fire_http(tmp_path, hook, TOKEN="t0k", SECRET="s3cret", LINE="a\r\nb")
    [seen] = server.seen
    assert seen.headers["Authorization"] == "Bearer t0k"
    assert seen.headers["X-Braced"] == "t0k!"
    assert seen.headers["X-Not-Allowed"] == "[]"  # a name not allowed reads as empty
    assert seen.headers["X-Lower"] == "$token"  # only upper-case names are variables
    assert seen.headers["X-Line"] == "ab"  # no header injection
    assert seen.headers["Content-Length"] == str(len(seen.body.encode()))


async def test_an_empty_2xx_body_decides_nothing(tmp_path: Path) -> None:
    with hook_server() as server:
        outcome, exchange = await fire_http(tmp_path, http(server.answer("/", Answer(204))))
    assert (outcome.verdict, exchange.action, exchange.http_status) == ("continue", "continue", 204)


# ---- what is not an answer -------------------------------------------------------------------


async def test_a_5xx_is_a_non_blocking_error_whose_body_is_not_read(tmp_path: Path) -> None:
    with hook_server() as server:
        url = server.answer("/guard", Answer(500, DENY))
        outcome, exchange = await fire_http(tmp_path, http(url))
    assert (outcome.verdict, outcome.blocked) == ("continue", False)
    assert (exchange.status, exchange.http_status, exchange.action) == ("error", 500, "error")
    assert [f.code for f in exchange.findings] == ["claude-http-status"]
    assert f"HTTP 500 from {url}" in exchange.findings[0].message


async def test_a_4xx_and_a_redirect_are_errors_too(tmp_path: Path) -> None:
    with hook_server() as server:
        for status in (403, 302):
            url = server.answer(f"/{status}", Answer(status, DENY))
            outcome, exchange = await fire_http(tmp_path, http(url))
            assert (outcome.verdict, exchange.http_status, exchange.action) == (
                "continue",
                status,
                "error",
            )
    assert len(server.seen) == 2  # the redirect was not followed


async def test_a_2xx_body_that_is_not_json_is_an_error_not_context(tmp_path: Path) -> None:
    prompt = {"session_id": "s1", "hook_event_name": "UserPromptSubmit", "prompt": "hi"}
    with hook_server() as server:
        url = server.answer("/", Answer(200, "Remember: tests first."))
        outcome, exchange = await fire_http(tmp_path, http(url, "UserPromptSubmit"), prompt)
    assert outcome.context == ()  # a command's plain stdout would be context here
    assert exchange.action == "error"
    assert [f.code for f in exchange.findings] == ["claude-http-not-json"]
    assert "non-JSON response body: Remember" in exchange.findings[0].message


async def test_no_server_is_a_non_blocking_error_and_the_call_goes_ahead(tmp_path: Path) -> None:
    with hook_server() as server:
        url = server.url()
    outcome, exchange = await fire_http(tmp_path, http(url))  # the server is gone
    assert (outcome.verdict, exchange.status, exchange.action) == ("continue", "not_sent", "error")
    assert exchange.http_status is None and exchange.raw_response is None
    assert [f.code for f in exchange.findings] == ["claude-http-failed"]


async def test_an_answer_after_the_timeout_is_not_waited_for(tmp_path: Path) -> None:
    with hook_server() as server:
        url = server.answer("/slow", Answer(hang=True))
        outcome, exchange = await fire_http(tmp_path, http(url, timeout_ms=300))
    assert (outcome.verdict, exchange.status, exchange.action) == ("continue", "timeout", "error")
    assert [f.code for f in exchange.findings] == ["claude-timeout"]


# ---- onFailure -------------------------------------------------------------------------------


async def test_on_failure_block_turns_a_failure_or_a_timeout_into_a_block(tmp_path: Path) -> None:
    with hook_server() as server:
        broken = server.answer("/broken", Answer(500))
        slow = server.answer("/slow", Answer(hang=True))
        failed, _ = await fire_http(tmp_path, http(broken, on_failure="block"))
        late, _ = await fire_http(tmp_path, http(slow, timeout_ms=300, on_failure="block"))
    assert (failed.verdict, failed.blocked) == ("deny", True)
    assert failed.reason.startswith(f'[{broken}]: failed; blocking because onFailure is "block"')
    assert f"HTTP 500 from {broken}" in failed.reason
    assert late.blocked and late.reason.startswith(f"[{slow}]: timed out; blocking")


async def test_on_failure_block_is_ignored_on_stop(tmp_path: Path) -> None:
    with hook_server() as server:
        url = server.answer("/", Answer(500))
        outcome, exchange = await fire_http(tmp_path, http(url, "Stop", on_failure="block"), STOP)
    assert (outcome.verdict, exchange.action) == ("continue", "error")


async def test_on_failure_block_applies_to_a_command_hook_too(tmp_path: Path) -> None:
    failing = replace(spec(reply(1, "", "crashed")), on_failure="block")
    hooks = claude_hooks(failing, project_dir=tmp_path)
    outcome = await hooks.fire("PreToolUse", tool_event(), source="test")
    assert outcome.blocked and 'blocking because onFailure is "block"' in outcome.reason


async def test_a_once_hook_runs_once_in_a_session(tmp_path: Path) -> None:
    with hook_server() as server:
        once = replace(http(server.url()), once=True)
        hooks = claude_hooks(once, project_dir=tmp_path)
        for _ in range(2):
            await hooks.fire("PreToolUse", tool_event(), source="test")
    assert len(server.seen) == 1 and len(exchanges(hooks)) == 1


# ---- beside command hooks --------------------------------------------------------------------


async def test_http_and_command_hooks_run_together_by_the_same_merge_rules(
    tmp_path: Path,
) -> None:
    allow = decision("allow")
    with hook_server() as server:
        url = server.answer("/allow", Answer(200, allow))
        twice = http(url, name="PreToolUse:http#2")
        hooks = claude_hooks(http(url), twice, spec(reply(0, DENY)), project_dir=tmp_path)
        outcome = await hooks.fire("PreToolUse", tool_event(), source="test")
    assert len(server.seen) == 1  # the same URL twice is called once, as Claude Code does
    assert outcome.verdict == "deny"  # deny beats allow, whoever answered it
    assert outcome.duplicates == (("PreToolUse:http#2", "PreToolUse:http"),)
    assert sorted(run.exchange.action for run in outcome.runs) == ["allow", "deny"]


# ---- intercept, composer, replay, check ------------------------------------------------------


def config(tmp_path: Path, *specs: CommandHookSpec) -> Config:
    return Config(hooks=specs, host="claude", workdir=tmp_path)


async def test_a_request_held_at_the_hook_is_sent_as_edited(tmp_path: Path) -> None:
    with hook_server() as server:
        hook = http(server.answer("/", Answer(200, decision("allow"))))
        async with Engine(config(tmp_path, hook)) as engine:
            engine.set_intercept("@hook method:PreToolUse")
            task = asyncio.create_task(
                engine.send_through_pipeline("PreToolUse", tool_event(command="rm -rf /"))
            )
            await wait_for(lambda: len(engine.held) == 1)
            [waiting] = engine.held
            assert waiting.exchange.hook == "PreToolUse:http" and server.seen == []
            edited = copy.deepcopy(waiting.exchange.params)
            edited["tool_input"]["command"] = "ls"
            assert engine.forward(waiting.exchange.seq, edited)
            await task
    [seen] = server.seen
    assert seen.json["tool_input"] == {"command": "ls"}


async def test_the_composer_sends_to_an_http_hook_and_replay_compares_its_answers(
    tmp_path: Path,
) -> None:
    with hook_server() as server:
        url = server.answer("/", Answer(200, DENY))
        async with Engine(config(tmp_path, http(url))) as engine:
            sent = await engine.send_to_hook("PreToolUse:http", "PreToolUse", tool_event())
            assert (sent.http_status, sent.source) == (200, "composer")
            line = engine.runtime.one_liner(sent)
            assert line is not None and "curl" in line and url in line
            same = await replay(engine, [sent])
            server.answer("/", Answer(200, decision("allow")))
            changed = await replay(engine, [sent])
    assert [item.outcome for item in same.items] == ["same"]
    assert [item.outcome for item in changed.items] == ["different"]
    assert changed.items[0].recorded == {"http_status": 200, "body": DENY}


def http_project(tmp_path: Path, server: HookServer, answer: Answer) -> Path:
    project = tmp_path / "project"
    (project / ".claude").mkdir(parents=True)
    handler = {"type": "http", "url": server.answer("/check", answer), "timeout": 10}
    settings = {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [handler]}]}}
    (project / ".claude" / "settings.json").write_text(json.dumps(settings))
    return project


def test_check_probes_an_http_hook_and_judges_its_answer(tmp_path: Path) -> None:
    with hook_server() as server:
        good = hook_inspector("check", str(http_project(tmp_path / "a", server, Answer(200))))
        bad = hook_inspector("check", str(http_project(tmp_path / "b", server, Answer(503))))
    assert good.returncode == 0, good.stdout + good.stderr
    assert "1 of 1 hook(s) pass" in good.stdout and "PreToolUse:http" in good.stdout
    assert bad.returncode == 1, bad.stdout + bad.stderr
    assert "claude-http-status" in bad.stdout
    assert [seen.json["tool_name"] for seen in server.seen] == ["Bash", "Bash"]


def test_the_raw_tab_shows_an_http_request_as_a_post_and_its_answer() -> None:
    exchange = Exchange(
        hook="PreToolUse:http",
        method="PreToolUse",
        raw_request='{"hook_event_name":"PreToolUse"}',
        raw_response=json.dumps(DENY),
        http_status=200,
        duration_ms=4.2,
        status="ok",
    )
    shown = raw_view(exchange).plain
    assert "HTTP 200 after 4.2 ms" in shown
    assert "→ POST body" in shown and "← answer body" in shown
    assert "stdin" not in shown and "exit code" not in shown
