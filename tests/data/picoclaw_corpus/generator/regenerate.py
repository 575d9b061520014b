"""Regenerate the PicoClaw conformance corpus from PicoClaw's own hook host.

    regenerate.py --picoclaw GIT_DIR_OR_CHECKOUT --go GO_BINARY [--rev REV] [--check]

It fetches nothing: it reads PicoClaw's hook host files out of the given
repository, compiles them with our shims in a temporary Go module (standard
library only), runs every case of tests/data/picoclaw_corpus/cases.json through
them and writes results.jsonl and header.json next to it. With --check it
writes nothing and exits 1 if the recorded corpus differs from a fresh run.
"""

import argparse
import base64
import datetime
import json
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import go_tree
from answer_lines import CaseError, describe, render_line

REPOSITORY = "https://github.com/sipeed/picoclaw"
CORPUS_DIR = Path(__file__).resolve().parents[1]  # the data sits above this folder
INTERCEPTOR_TIMEOUT_MS = 1500
APPROVAL_TIMEOUT_MS = 1500
HELLO_ID = 1
STAGE_ID = 2
STAGE_INTERCEPT = {
    "before_llm": ["before_llm"],
    "after_llm": ["after_llm"],
    "before_tool": ["before_tool"],
    "after_tool": ["after_tool"],
    "approve_tool": ["approve_tool"],
    "hello": ["before_tool"],
}
CASE_KEYS = {"id", "category", "note", "stage", "input", "answer", "hooks"}
HOOK_KEYS = {"name", "priority", "answer", "hello", "stderr", "exit_code"}
DEFAULT_HELLO: list[dict[str, Any]] = [{"result": {}}]


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--picoclaw", type=Path, required=True, help="PicoClaw git directory or checkout"
    )
    parser.add_argument("--go", type=Path, required=True, help="go binary (Go 1.25 or newer)")
    parser.add_argument("--rev", default="HEAD", help="PicoClaw revision (default HEAD)")
    parser.add_argument(
        "--corpus", type=Path, default=CORPUS_DIR, help="corpus folder holding cases.json"
    )
    parser.add_argument(
        "--check", action="store_true", help="compare with the recorded corpus, write nothing"
    )
    args = parser.parse_args()

    cases_path = args.corpus / "cases.json"
    try:
        cases_doc = json.loads(cases_path.read_text())
        prepared = [prepare_case(case, cases_doc["inputs"]) for case in cases_doc["cases"]]
        check_unique_ids(prepared)
    except (OSError, ValueError, KeyError, TypeError) as error:
        print(f"{cases_path}: {error}", file=sys.stderr)
        return 2

    upstream = go_tree.resolve(args.picoclaw, args.rev)
    with tempfile.TemporaryDirectory(prefix="picoclaw-corpus-build-") as build:
        harness = go_tree.build_harness(upstream, args.go, Path(build))
        outcomes = run_harness(harness, Path(build), prepared)
    records = [record_of(case, outcome) for case, outcome in zip(prepared, outcomes, strict=True)]
    lines = [json.dumps(record, separators=(",", ":")) + "\n" for record in records]

    results_path = args.corpus / "results.jsonl"
    if args.check:
        return report_differences(results_path, lines)
    results_path.write_text("".join(lines))
    header = header_of(upstream, args.go, len(records))
    (args.corpus / "header.json").write_text(json.dumps(header, indent=2) + "\n")
    print(f"{len(records)} cases recorded from {upstream.commit} into {results_path}")
    return 0


def prepare_case(case: dict[str, Any], inputs: dict[str, Any]) -> dict[str, Any]:
    """Resolve defaults and render every line a case's hooks will write."""
    where = f"case {case.get('id', '?')!r}"
    unknown = set(case) - CASE_KEYS
    if unknown:
        raise CaseError(f"{where}: unknown key {sorted(unknown)[0]!r}")
    stage = case["stage"]
    if stage not in STAGE_INTERCEPT:
        raise CaseError(f"{where}: unknown stage {stage!r}")
    if ("answer" in case) == ("hooks" in case):
        raise CaseError(f"{where}: give exactly one of answer, hooks")
    hook_specs = case.get("hooks") or [{"name": "hook", "answer": case["answer"]}]
    hooks = []
    for hook in hook_specs:
        hook_where = f"{where} hook {hook.get('name', '?')!r}"
        if set(hook) - HOOK_KEYS:
            raise CaseError(f"{hook_where}: unknown key {sorted(set(hook) - HOOK_KEYS)[0]!r}")
        hello = hook.get("hello", DEFAULT_HELLO)
        answer = hook.get("answer", [])
        hooks.append(
            {
                "name": hook["name"],
                "priority": hook.get("priority", 0),
                "intercept": STAGE_INTERCEPT[stage],
                "hello_specs": hello,
                "answer_specs": answer,
                "hello_raw": [render_line(s, HELLO_ID, f"{hook_where} hello") for s in hello],
                "answer_raw": [render_line(s, STAGE_ID, f"{hook_where} answer") for s in answer],
                "stderr": hook.get("stderr", []),
                "exit_code": hook.get("exit_code"),
            }
        )
    return {
        "id": case["id"],
        "category": case["category"],
        "note": case.get("note", ""),
        "stage": stage,
        "input": case.get("input", inputs.get(stage)),
        "hooks": hooks,
    }


def check_unique_ids(cases: list[dict[str, Any]]) -> None:
    seen: set[str] = set()
    for case in cases:
        if case["id"] in seen:
            raise CaseError(f"case {case['id']!r}: duplicate id")
        seen.add(case["id"])


def run_harness(
    harness: Path, build_dir: Path, cases: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    def b64(raw: bytes) -> str:
        return base64.b64encode(raw).decode()

    doc = {
        "interceptor_timeout_ms": INTERCEPTOR_TIMEOUT_MS,
        "approval_timeout_ms": APPROVAL_TIMEOUT_MS,
        "cases": [
            {
                "id": case["id"],
                "stage": case["stage"],
                "input": case["input"],
                "hooks": [
                    {
                        "name": hook["name"],
                        "priority": hook["priority"],
                        "intercept": hook["intercept"],
                        "hello_lines_b64": [b64(raw) for raw in hook["hello_raw"]],
                        "answer_lines_b64": [b64(raw) for raw in hook["answer_raw"]],
                        "stderr_lines": hook["stderr"],
                        "exit_code": hook["exit_code"],
                    }
                    for hook in case["hooks"]
                ],
            }
            for case in cases
        ],
    }
    cases_file = build_dir / "harness-cases.json"
    cases_file.write_text(json.dumps(doc))
    run = subprocess.run(
        [str(harness), "run", str(cases_file)], check=True, capture_output=True, text=True
    )
    return [json.loads(line) for line in run.stdout.split("\n") if line]


def record_of(case: dict[str, Any], outcome: dict[str, Any]) -> dict[str, Any]:
    received = {hook["name"]: hook["received"] for hook in outcome["hooks"]}
    return {
        "id": case["id"],
        "category": case["category"],
        "note": case["note"],
        "stage": case["stage"],
        "input": case["input"],
        "hooks": [
            {
                "name": hook["name"],
                "priority": hook["priority"],
                "intercept": hook["intercept"],
                "hello_lines": [
                    describe(r, s)
                    for r, s in zip(hook["hello_raw"], hook["hello_specs"], strict=True)
                ],
                "answer_lines": [
                    describe(r, s)
                    for r, s in zip(hook["answer_raw"], hook["answer_specs"], strict=True)
                ],
                "stderr_lines": hook["stderr"],
                "exit_code": hook["exit_code"],
                "received": received[hook["name"]],
            }
            for hook in case["hooks"]
        ],
        "outcome": {key: outcome[key] for key in OUTCOME_KEYS},
    }


OUTCOME_KEYS = (
    "mount_error",
    "decision",
    "approval",
    "passed_on_json",
    "logs",
    "stderr_logs",
    "close_logs",
)


def header_of(upstream: go_tree.Upstream, go: Path, count: int) -> dict[str, Any]:
    commit_date = upstream.git("log", "-1", "--format=%cI", upstream.commit).decode().strip()
    return {
        "upstream_repository": REPOSITORY,
        "upstream_commit": upstream.commit,
        "upstream_commit_date": commit_date,
        "upstream_files": {rel: upstream.blob(rel) for rel in go_tree.upstream_files(upstream)},
        "go_version": go_tree.go_version(go),
        "generated_on": datetime.date.today().isoformat(),
        "interceptor_timeout_ms": INTERCEPTOR_TIMEOUT_MS,
        "approval_timeout_ms": APPROVAL_TIMEOUT_MS,
        "case_count": count,
    }


def report_differences(results_path: Path, fresh: list[str]) -> int:
    recorded = results_path.read_text().split("\n") if results_path.exists() else []
    old = {json.loads(line)["id"]: line + "\n" for line in recorded if line}
    new = {json.loads(line)["id"]: line for line in fresh}
    differing = sorted(
        case_id for case_id in old.keys() | new.keys() if old.get(case_id) != new.get(case_id)
    )
    for case_id in differing:
        print(f"differs: {case_id}")
    print(f"{len(differing)} of {len(new)} cases differ from {results_path}")
    return 1 if differing else 0


if __name__ == "__main__":
    sys.exit(main())
