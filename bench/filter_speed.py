"""How long the filter language takes over 100,000 exchanges.

    .venv/bin/python bench/filter_speed.py [--records N] [--runs R]

Each expression is timed as `[r for r in records if predicate(r)]`, the median of R runs, next to
a baseline in the same run: the same loop with a hand-written lambda on one attribute. Wall time
and the process's CPU time are both shown: on a busy machine the CPU time is the steadier figure.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

from inspector.filter import compile_filter
from inspector.journal.records import Exchange, Finding, Record
from inspector.protocol import jsonrpc

EXPRESSIONS = (
    "hook:review-gate",
    "method:before_tool & !status:ok",
    "tool:exec (action:deny_tool | action:denied) source:relay:*",
    "rm -rf",
    '"Permission denied" | finding:slow-* | severity:error',
    "hook:*gate & !(status:ok | status:pending) | turn:turn-42 & type:exchange",
)

HOOKS = ("review-gate", "redactor", "event-logger", "weather", "audit-gate")
METHODS = ("hook.before_tool", "hook.approve_tool", "hook.after_tool", "hook.before_llm")
STATUSES = ("ok",) * 16 + ("error", "timeout", "exited", "invalid")
TOOLS = ("exec", "read_file", "write_file", "web_fetch", "list_dir")
COMMANDS = ("pytest -q", "rm -rf build/", "git status", "ls -la src", "cat README.md")
SOURCES = ("scenario", "composer", "replay", "relay:picoclaw")


def make_exchange(rng: random.Random, seq: int) -> Exchange:
    method = rng.choice(METHODS)
    tool = rng.choice(TOOLS)
    arguments = {"command": rng.choice(COMMANDS), "cwd": "/home/dev/shop"}
    params = {
        "meta": {"TurnID": f"turn-{seq // 8}", "TracePath": "turn.tool.before"},
        "context": {"inbound": {"channel": "cli", "chat_id": "direct", "sender_id": "cli-user"}},
        "tool": tool,
        "arguments": arguments,
    }
    request = jsonrpc.request(seq, method, params)
    response = {"jsonrpc": "2.0", "id": seq, "result": {"action": "continue"}}
    status = rng.choice(STATUSES)
    findings = [Finding("slow-answer", "warning", "took 4.2 s")] if seq % 50 == 0 else []
    return Exchange(
        seq=seq,
        hook=rng.choice(HOOKS),
        method=method,
        request=request,
        response=response,
        raw_request=jsonrpc.encode(request)[:-1].decode(),
        raw_response=jsonrpc.encode(response)[:-1].decode(),
        status=status,
        error=None if status == "ok" else "Permission denied by policy",
        duration_ms=rng.uniform(0.2, 40.0),
        findings=findings,
        source=rng.choice(SOURCES),
        turn=f"turn-{seq // 8}",
        action=rng.choice(("continue", "modify", "deny_tool", "approved", "denied")),
        rpc_id=seq,
    )


def median_ms(
    predicate: Callable[[Record], bool], records: list[Exchange], runs: int
) -> tuple[float, float]:
    """Median wall and CPU milliseconds of one full filtering pass."""
    wall, cpu = [], []
    for _ in range(runs):
        started, started_cpu = time.perf_counter(), time.process_time()
        [record for record in records if predicate(record)]
        wall.append((time.perf_counter() - started) * 1000)
        cpu.append((time.process_time() - started_cpu) * 1000)
    return statistics.median(wall), statistics.median(cpu)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    rng = random.Random(7)
    records = [make_exchange(rng, seq) for seq in range(1, args.records + 1)]
    size = statistics.mean(len(r.raw_request or "") + len(r.raw_response or "") for r in records)
    print(f"{len(records):,} exchanges, {size:.0f} bytes of raw lines each, median of {args.runs}")
    print("    wall      cpu  cpu/baseline  expression")
    baseline = median_ms(lambda record: record.hook == "review-gate", records, args.runs)
    _report(baseline, baseline[1], "baseline: lambda record: record.hook == 'review-gate'")
    for expression in EXPRESSIONS:
        predicate = compile_filter(expression)
        shown = sum(map(predicate, records))
        timing = median_ms(predicate, records, args.runs)
        _report(timing, baseline[1], f"{expression}  ({shown:,} shown)")


def _report(timing: tuple[float, float], baseline_cpu: float, label: str) -> None:
    wall, cpu = timing
    print(f"{wall:5.1f} ms {cpu:5.1f} ms {cpu / baseline_cpu:8.1f}x     {label}")


if __name__ == "__main__":
    main()
