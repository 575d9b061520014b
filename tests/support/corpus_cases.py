"""The PicoClaw corpus (tests/data/picoclaw_corpus) as hook processes: each recorded hook becomes
tests/hooks/corpus_hook.py writing the exact bytes the hook wrote to PicoClaw, and each case says
what PicoClaw's host did with them. Shared by the host-mode and bridge conformance tests."""

from __future__ import annotations

import base64
import hashlib
import json
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from inspector.config.model import Config, HookSpec
from tests.support.paths import DATA, HOOKS
from tests.support.scripted import config_of

CORPUS = DATA / "picoclaw_corpus"
CORPUS_HOOK = HOOKS / "corpus_hook.py"
RECORDS: list[dict[str, Any]] = [
    json.loads(line) for line in (CORPUS / "results.jsonl").read_text().splitlines()
]
# the stage inputs PicoClaw's host was given, as it wrote them
INPUTS: dict[str, dict[str, Any]] = json.loads((CORPUS / "cases.json").read_text())["inputs"]
NEVER_ANSWERED_MS = 300  # a call PicoClaw timed out on cannot be answered in any time
ANSWERED_MS = 60_000  # a call PicoClaw got an answer to must not time out on a loaded machine


@dataclass(frozen=True)
class Case:
    record: dict[str, Any]

    @property
    def id(self) -> str:
        return str(self.record["id"])

    @property
    def stage(self) -> str:
        return str(self.record["stage"])

    @property
    def input(self) -> dict[str, Any]:
        return dict(self.record["input"])

    @property
    def outcome(self) -> dict[str, Any]:
        return dict(self.record["outcome"])

    @property
    def hooks(self) -> list[dict[str, Any]]:
        return list(self.record["hooks"])

    @property
    def picoclaw_timed_out(self) -> bool:
        return any("timed out" in entry["message"] for entry in self.outcome["logs"])

    def stage_request(self) -> str:
        """The exact line PicoClaw wrote for the stage call to the first hook of the chain."""
        first = min(self.hooks, key=lambda hook: (hook["priority"], hook["name"]))
        return str(first["received"][1]["text"])

    def config(self, folder: Path) -> Config:
        """The case's hooks, each a corpus_hook process, with timeouts that let every answer
        PicoClaw read arrive and end the calls it timed out on quickly."""
        specs = [_hook_spec(hook, [hook], folder) for hook in self.hooks]
        timeout = NEVER_ANSWERED_MS if self.picoclaw_timed_out else ANSWERED_MS
        return config_of(*specs, interceptor_timeout_ms=timeout, approval_timeout_ms=timeout)

    @property
    def shareable(self) -> bool:
        """Whether one hook process may play this case among others (shared_config): one plain
        hook, answered in time, whose answer lines name no id but the pending one, once."""
        if self.stage == "hello" or len(self.hooks) != 1 or self.picoclaw_timed_out:
            return False
        hook = self.hooks[0]
        if hook["exit_code"] is not None or hook["stderr_lines"]:
            return False
        if _joined(hook["hello_lines"]) != DEFAULT_HELLO:
            return False
        return all(_names_only_the_pending_id(line_bytes(line)) for line in hook["answer_lines"])

    def stage_request_as(self, rpc_id: int) -> str:
        """The stage request PicoClaw wrote, as a hook process sends it as its call `rpc_id`."""
        return self.stage_request().replace('"id":2,', f'"id":{rpc_id},', 1)


CASES = [Case(record) for record in RECORDS]
SHARED_HOOK = "hook"
DEFAULT_HELLO = b'{"jsonrpc":"2.0","id":1,"result":{}}\n'
ALL_STAGES = ("before_llm", "after_llm", "before_tool", "after_tool", "approve_tool")


def shared_config(cases: list[Case], folder: Path) -> Config:
    """One hook process that plays `cases` (all shareable) in order, one stage call each."""
    spec = _hook_spec(
        {"name": SHARED_HOOK, "priority": 0, "intercept": ALL_STAGES, "stderr_lines": []},
        [case.hooks[0] for case in cases],
        folder,
    )
    return config_of(spec, interceptor_timeout_ms=ANSWERED_MS, approval_timeout_ms=ANSWERED_MS)


def _names_only_the_pending_id(line: bytes) -> bool:
    if line.lower().count(b'"id"') == 0:
        return True
    at = line.find(b'"id":2') + len(b'"id":2')
    return line.lower().count(b'"id"') == 1 and line[at : at + 1] in (b",", b"}")


def _hook_spec(hook: dict[str, Any], plays: list[dict[str, Any]], folder: Path) -> HookSpec:
    """A corpus_hook process named as `hook`, answering the stage calls as each of `plays` did."""
    script = folder / f"{len(list(folder.iterdir()))}.json"
    played = {
        "hello": _encoded(plays[0]["hello_lines"]),
        "answers": [_encoded(play["answer_lines"]) for play in plays],
        "stderr": hook["stderr_lines"],
        "exit_code": plays[0]["exit_code"] if len(plays) == 1 else None,
        "renumber": len(plays) > 1,
    }
    script.write_text(json.dumps(played))
    return HookSpec(
        name=hook["name"],
        command=(sys.executable, str(CORPUS_HOOK), str(script)),
        intercept=tuple(hook["intercept"]),
        priority=hook["priority"],
    )


def _joined(lines: list[dict[str, Any]]) -> bytes:
    return b"".join(line_bytes(line) for line in lines)


def _encoded(lines: list[dict[str, Any]]) -> str:
    return base64.b64encode(_joined(lines)).decode()


def line_bytes(line: dict[str, Any]) -> bytes:
    """The exact bytes of one recorded LINE (the corpus README's three forms)."""
    if "text" in line:
        return str(line["text"]).encode()
    if "b64" in line:
        return base64.b64decode(line["b64"])
    raw = padded(line["generated_from"])
    assert len(raw) == line["bytes"] and hashlib.sha256(raw).hexdigest() == line["sha256"]
    return raw


def padded(spec: dict[str, Any]) -> bytes:
    """The corpus README's padding rule for lines over 64 KiB."""
    text = json.dumps(spec["result"], separators=(",", ":"), ensure_ascii=False)
    rest = "," + text[1:-1] if text != "{}" else ""
    head = '{"jsonrpc":"2.0","id":' + spec.get("id_text", "2") + ',"result":{"pad":"'

    def build(pad: int) -> bytes:
        return (head + "x" * pad + '"' + rest + "}}\n").encode()

    return build(spec["pad_line_to"] - len(build(0)))
