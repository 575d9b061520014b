"""The real OpenClaw Gateway fires a plugin's before_tool_call / after_tool_call around `exec`.

One Gateway serves the module: it loads the `record` plugin (openclaw_plugins/record), which
appends a JSON line per hook call to a file and blocks any `exec` whose command contains BLOCK.
Each test runs one `openclaw agent` turn against the fake model of fake_openai.py, which calls
`exec` with the test's command and then answers with the tool result it got.

OpenClaw is installed once per machine (openclaw_cli.py). When it cannot be installed or started
here the tests are skipped, unless the environment variable CI is set: then they fail.
"""

from __future__ import annotations

import json
import shlex
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import openclaw_cli
import pytest
from fake_openai import FINAL_PREFIX, FakeOpenAI
from openclaw_fixtures import openclaw, unavailable  # noqa: F401 (fixtures used by name)

JSONObject = dict[str, Any]

PLUGIN_FOLDER = Path(__file__).parent / "openclaw_plugins" / "record"
BLOCK = "BLOCK-THIS-CALL"
BLOCK_REASON = "the record plugin blocked this exec call"


@dataclass(frozen=True)
class Host:
    gateway: openclaw_cli.Gateway
    model: FakeOpenAI
    record_file: Path
    folder: Path

    def records(self, hook: str, command: str) -> list[JSONObject]:
        """The record plugin's lines for `hook` calls of `exec` with this command."""
        lines = self.record_file.read_text().splitlines() if self.record_file.exists() else []
        found = [json.loads(line) for line in lines if line.strip()]
        return [
            line
            for line in found
            if line["hook"] == hook and line["event"].get("params", {}).get("command") == command
        ]


@pytest.fixture(scope="module")
def host(
    openclaw: openclaw_cli.OpenClaw, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Host]:
    folder = tmp_path_factory.mktemp("openclaw")
    record_file = folder / "record.jsonl"
    plugin = openclaw_cli.Plugin(
        "record",
        PLUGIN_FOLDER,
        {
            "recordFile": str(record_file),
            "blockWhenCommandContains": BLOCK,
            "blockReason": BLOCK_REASON,
        },
    )
    with FakeOpenAI() as model:
        gateway = openclaw_cli.Gateway(openclaw, folder, openclaw_cli.free_port())
        openclaw_cli.write_config(
            folder, model_url=model.url, plugins=[plugin], port=gateway.port, token=gateway.token
        )
        try:
            gateway.start()
        except openclaw_cli.Unavailable as error:
            unavailable(str(error))
        try:
            yield Host(gateway, model, record_file, folder)
        finally:
            gateway.stop()


def _turn(host: Host, command: str) -> tuple[openclaw_cli.AgentRun, list[JSONObject]]:
    """One agent turn whose model runs `command` with exec; the run and the model's requests."""
    host.model.command = command
    before = len(host.model.snapshot())
    run = host.gateway.agent("Run the command, please.", session_id=str(uuid.uuid4()))
    assert run.exit_code == 0, f"openclaw agent failed:\n{run.stderr}\n{host.gateway.log()[-3000:]}"
    return run, host.model.snapshot()[before:]


def test_exec_runs_and_both_hooks_see_it(host: Host) -> None:
    marker = host.folder / "ran-marker"
    command = f"touch {shlex.quote(str(marker))}"

    run, requests = _turn(host, command)

    assert marker.exists()
    before = host.records("before_tool_call", command)
    after = host.records("after_tool_call", command)
    # once each, though the plugin registered its hooks twice (registration modes full and
    # discovery): only the discovery registration's handlers fire for agent tool calls
    assert len(before) == 1 and len(after) == 1, host.record_file.read_text()
    assert before[0]["mode"] == after[0]["mode"] == "discovery"
    assert before[0]["pid"] in host.gateway.pids()  # the hooks ran inside the Gateway
    assert before[0]["event"]["toolName"] == "exec"
    assert before[0]["event"]["params"] == {"command": command}
    assert before[0]["ctx"]["toolName"] == "exec"
    assert before[0]["ctx"]["agentId"] == openclaw_cli.AGENT
    assert before[0]["block"] is False
    assert after[0]["event"]["toolName"] == "exec"
    assert after[0]["event"]["params"] == {"command": command}
    assert after[0]["event"]["result"]["details"]["exitCode"] == 0
    assert after[0]["event"]["toolCallId"] == before[0]["event"]["toolCallId"]
    # the model got the tool's own output back, and its final text is the turn's answer
    tool_results = [m for body in requests for m in body["messages"] if m["role"] == "tool"]
    assert tool_results
    texts = [payload["text"] for payload in run.result["result"]["payloads"]]
    assert any(text.startswith(FINAL_PREFIX) for text in texts), texts


def test_a_block_keeps_exec_from_running_and_reaches_the_model(host: Host) -> None:
    marker = host.folder / "blocked-marker"
    command = f"touch {shlex.quote(str(marker))} # {BLOCK}"

    run, requests = _turn(host, command)

    assert not marker.exists()
    before = host.records("before_tool_call", command)
    assert len(before) == 1 and before[0]["block"] is True, host.record_file.read_text()
    assert before[0]["event"]["toolName"] == "exec"
    # after_tool_call still fires for the blocked call, with the reason as its error
    after = host.records("after_tool_call", command)
    assert len(after) == 1 and after[0]["event"]["error"] == BLOCK_REASON
    assert after[0]["event"]["result"]["details"]["status"] == "blocked"
    # the model's next request carries the block reason as the exec call's tool result
    tool_results = [m for body in requests for m in body["messages"] if m["role"] == "tool"]
    assert tool_results, requests
    assert BLOCK_REASON in str(tool_results[-1]["content"])
    texts = [payload["text"] for payload in run.result["result"]["payloads"]]
    assert f"{FINAL_PREFIX}{BLOCK_REASON}" in texts
