"""Auto-compaction played as codex exec 0.171.0 runs it: a round whose reported token usage reaches
model_auto_compact_token_limit compacts after its tool calls, with PreCompact, PostCompact and
SessionStart (source compact) in Codex's order and shape, and a continue: false that ends the turn
with Interrupt in place of Stop."""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import pytest

from inspector.config.errors import ConfigError
from inspector.config.model import CommandHookSpec
from inspector.hosts.codex.chain import CodexHooks
from inspector.hosts.codex.compaction import auto_compact_limit
from inspector.hosts.codex.config import read_codex
from inspector.hosts.codex.events import EVENTS
from inspector.journal.journal import Journal
from inspector.scenario import Round, Scenario, ScriptedCall, Turn, parse_scenario

LIMIT = 1000
COMPACTED = (
    "SessionStart",
    "UserPromptSubmit",
    "PreToolUse",
    "PostToolUse",
    "PreCompact",
    "PostCompact",
    "SessionStart",
    "Stop",
    "SessionEnd",
)


def _scenario(tokens: int, *, final_tokens: int | None = None) -> Scenario:
    call = ScriptedCall("exec_command", {"cmd": "ls"}, result="a\n")
    rounds = (Round("", (call,), tokens=tokens), Round("Done.", tokens=final_tokens))
    return Scenario(name="compacts", turns=(Turn("Tidy up.", rounds),))


def _project(tmp_path: Path, limit: int = LIMIT) -> Path:
    (tmp_path / ".codex").mkdir()
    (tmp_path / ".codex" / "config.toml").write_text(f"model_auto_compact_token_limit = {limit}\n")
    return tmp_path


def _spec(name: str, event: str, command: str) -> CommandHookSpec:
    return CommandHookSpec(name=name, host="codex", event=event, command=command, timeout_ms=5000)


def _hooks(
    project: Path,
    log: Path,
    answers: dict[str, object] | None = None,
    extra: tuple[CommandHookSpec, ...] = (),
) -> CodexHooks:
    """A recorder on every event, answering `answers[event]` where given; then `extra`."""
    record = f"cat >> {shlex.quote(str(log))}; echo >> {shlex.quote(str(log))}"
    said = {
        event: f"; echo {shlex.quote(json.dumps(answer))}"
        for event, answer in (answers or {}).items()
    }
    specs = [_spec(f"rec-{event}", event, record + said.get(event, "")) for event in EVENTS]
    return CodexHooks([*specs, *extra], Journal(), project_dir=project, shell=("/bin/sh", "-c"))


def _sent(log: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in log.read_text().splitlines() if line]


async def test_a_round_reaching_the_token_limit_compacts_after_its_tool_calls(
    tmp_path: Path,
) -> None:
    project, log = _project(tmp_path), tmp_path / "sent.jsonl"
    hooks = _hooks(project, log)
    [outcome] = await hooks.turn_runner().run(_scenario(LIMIT))
    sent = _sent(log)
    assert [payload["hook_event_name"] for payload in sent] == list(COMPACTED)
    pre, post, start = sent[4], sent[5], sent[6]
    assert list(pre) == [
        "session_id",
        "turn_id",
        "transcript_path",
        "cwd",
        "hook_event_name",
        "model",
        "trigger",
    ]
    assert (pre["trigger"], post["trigger"], start["source"]) == ("auto", "auto", "compact")
    assert pre["turn_id"] == post["turn_id"] == sent[1]["turn_id"] and "turn_id" not in start
    for payload in (pre, post):
        template = hooks.context_template(str(payload["hook_event_name"]))
        assert list(template) == list(payload)
    assert outcome.status == "completed"


@pytest.mark.parametrize(
    ("tokens", "final_tokens"),
    [(LIMIT - 1, None), (10, LIMIT * 50)],
    ids=["under-the-limit", "only-the-final-answer-over-it"],
)
async def test_under_the_limit_or_over_it_in_a_final_answer_nothing_compacts(
    tmp_path: Path, tokens: int, final_tokens: int | None
) -> None:
    project, log = _project(tmp_path), tmp_path / "sent.jsonl"
    await _hooks(project, log).turn_runner().run(_scenario(tokens, final_tokens=final_tokens))
    events = [payload["hook_event_name"] for payload in _sent(log)]
    assert "PreCompact" not in events and events[-2:] == ["Stop", "SessionEnd"]


async def test_without_a_limit_in_config_toml_nothing_compacts(tmp_path: Path) -> None:
    log = tmp_path / "sent.jsonl"
    await _hooks(tmp_path, log).turn_runner().run(_scenario(10**9))
    assert "PreCompact" not in [payload["hook_event_name"] for payload in _sent(log)]


@pytest.mark.parametrize("event", ["PreCompact", "PostCompact"])
async def test_continue_false_on_a_compaction_event_ends_the_turn_with_interrupt_not_stop(
    tmp_path: Path, event: str
) -> None:
    project, log = _project(tmp_path), tmp_path / "sent.jsonl"
    answer = {"continue": False, "stopReason": "keep it all"}
    [outcome] = await _hooks(project, log, {event: answer}).turn_runner().run(_scenario(LIMIT))
    events = [payload["hook_event_name"] for payload in _sent(log)]
    upto = COMPACTED.index(event) + 1
    assert events == [*COMPACTED[:upto], "Interrupt", "SessionEnd"]
    assert (outcome.status, outcome.reason) == ("stopped", "keep it all")


async def test_exit_2_on_pre_compact_blocks_nothing(tmp_path: Path) -> None:
    project, log = _project(tmp_path), tmp_path / "sent.jsonl"
    refusing = _spec("no", "PreCompact", "cat > /dev/null; echo no >&2; exit 2")
    hooks = _hooks(project, log, extra=(refusing,))
    [outcome] = await hooks.turn_runner().run(_scenario(LIMIT))
    assert [payload["hook_event_name"] for payload in _sent(log)] == list(COMPACTED)
    assert outcome.status == "completed"


def test_the_projects_limit_wins_over_the_users(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    user = tmp_path / "codex-home"
    user.mkdir()
    (user / "config.toml").write_text("model_auto_compact_token_limit = 500\n")
    monkeypatch.setenv("CODEX_HOME", str(user))
    project = tmp_path / "project"
    project.mkdir()
    assert auto_compact_limit(project) == 500
    assert auto_compact_limit(_project(project, 2000)) == 2000


def test_a_scenario_round_says_the_tokens_the_model_reported() -> None:
    text = "turns:\n  - user: hi\n    rounds:\n      - content: Done.\n        tokens: 250000\n"
    [turn] = parse_scenario(text).turns
    assert turn.rounds[0].tokens == 250000
    tags_that_cannot_read_it = ("!!int lots", "!!float abc", "!!bool maybe", "!!timestamp lots")
    for bad in ("lots", "-3", *tags_that_cannot_read_it):
        with pytest.raises(ConfigError, match=r"turns\[0\]\.rounds\[0\]\.tokens.*whole number"):
            parse_scenario(text.replace("250000", bad))


def test_a_limit_that_is_not_an_integer_is_refused_at_its_key_as_codex_refuses_the_file(
    tmp_path: Path,
) -> None:
    project = tmp_path / "project"
    (project / ".codex").mkdir(parents=True)
    (project / ".codex" / "hooks.json").write_text('{"hooks": {}}')
    toml = '# compact early\n\nmodel_auto_compact_token_limit = "lots"\n[features]\nhooks = true\n'
    (project / ".codex" / "config.toml").write_text(toml)
    with pytest.raises(ConfigError, match="Codex refuses to load this file") as raised:
        read_codex(project)
    assert (raised.value.line, raised.value.key) == (3, "model_auto_compact_token_limit")


async def test_a_final_answer_over_the_limit_compacts_at_the_start_of_the_next_turn(
    tmp_path: Path,
) -> None:
    project, log = _project(tmp_path), tmp_path / "sent.jsonl"
    first = Turn("Look around.", (Round("Looked.", tokens=LIMIT),))
    second = Turn("Go on.", (Round("Done."),))
    scenario = Scenario(name="two turns", turns=(first, second))
    await _hooks(project, log).turn_runner().run(scenario)
    sent = _sent(log)
    events = [payload["hook_event_name"] for payload in sent]
    assert events == [
        "SessionStart",
        "UserPromptSubmit",
        "Stop",
        "PreCompact",
        "PostCompact",
        "SessionStart",
        "UserPromptSubmit",
        "Stop",
        "SessionEnd",
    ]
    assert sent[3]["turn_id"] == sent[6]["turn_id"] != sent[1]["turn_id"]
    assert sent[5]["source"] == "compact"
