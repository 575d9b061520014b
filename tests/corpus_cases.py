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

from conftest import config_of

from inspector.config.model import Config, HookSpec

CORPUS = Path(__file__).parent / "data" / "picoclaw_corpus"
CORPUS_HOOK = Path(__file__).parent / "hooks" / "corpus_hook.py"
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
        specs = [_hook_spec(hook, folder) for hook in self.hooks]
        timeout = NEVER_ANSWERED_MS if self.picoclaw_timed_out else ANSWERED_MS
        return config_of(*specs, interceptor_timeout_ms=timeout, approval_timeout_ms=timeout)


CASES = [Case(record) for record in RECORDS]


def _hook_spec(hook: dict[str, Any], folder: Path) -> HookSpec:
    script = folder / f"{len(list(folder.iterdir()))}.json"
    played = {
        "hello": _encoded(hook["hello_lines"]),
        "answer": _encoded(hook["answer_lines"]),
        "stderr": hook["stderr_lines"],
        "exit_code": hook["exit_code"],
    }
    script.write_text(json.dumps(played))
    return HookSpec(
        name=hook["name"],
        command=(sys.executable, str(CORPUS_HOOK), str(script)),
        intercept=tuple(hook["intercept"]),
        priority=hook["priority"],
    )


def _encoded(lines: list[dict[str, Any]]) -> str:
    return base64.b64encode(b"".join(line_bytes(line) for line in lines)).decode()


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
