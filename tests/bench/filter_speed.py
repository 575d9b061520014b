"""How long the filter language takes over 100,000 exchanges (and events).

    .venv/bin/python -m tests.bench.filter_speed [--records N] [--runs R]

Each expression is timed as `[r for r in records if predicate(r)]`, the median of R passes, next to
a baseline in the same run: the same loop with a hand-written lambda on one attribute. Wall time
and the process's CPU time are both shown: on a busy machine the CPU time is the steadier figure.
Events come last: a free-text search serialises each payload once (cold), then reuses it (warm).

`run(quick)` gives the same exchange figures as rows for `python -m tests.bench`.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable, Sequence

from inspector.filter import compile_filter
from inspector.hosts.picoclaw import templates
from inspector.journal import record_text
from inspector.journal.records import Event, Exchange, Finding, Record
from inspector.jsonrpc import messages as jsonrpc

from . import Row, row

EXPRESSIONS = {  # a short label for the bench table: the expression
    "one field": "hook:review-gate",
    "two fields": "method:before_tool & !status:ok",
    "params, or, glob": "tool:exec (action:deny_tool | action:denied) source:relay:*",
    "two words": "rm -rf",
    "phrase or findings": '"Permission denied" | finding:slow-* | severity:error',
    "mixed": "hook:*gate & !(status:ok | status:pending) | turn:turn-42 & type:exchange",
}
EVENT_EXPRESSIONS = ("kind:agent.tool.*", "tool:exec", "pytest")

HOOKS = ("review-gate", "redactor", "event-logger", "weather", "audit-gate")
METHODS = ("hook.before_tool", "hook.approve_tool", "hook.after_tool", "hook.before_llm")
STATUSES = ("ok",) * 16 + ("error", "timeout", "exited", "invalid")
TOOLS = ("exec", "read_file", "write_file", "web_fetch", "list_dir")
COMMANDS = ("pytest -q", "rm -rf build/", "git status", "ls -la src", "cat README.md")
SOURCES = ("scenario", "composer", "replay", "relay:picoclaw")
EVENT_KINDS = ("agent.tool.exec_start", "agent.tool.exec_end", "agent.llm.request")


def make_exchange(rng: random.Random, seq: int) -> Exchange:
    method = rng.choice(METHODS)
    params = {
        "meta": {"TurnID": f"turn-{seq // 8}", "TracePath": "turn.tool.before"},
        "context": {"inbound": {"channel": "cli", "chat_id": "direct", "sender_id": "cli-user"}},
        "tool": rng.choice(TOOLS),
        "arguments": {"command": rng.choice(COMMANDS), "cwd": "/home/dev/shop"},
    }
    request = jsonrpc.request(seq, method, params)
    response = {"jsonrpc": "2.0", "id": seq, "result": {"action": "continue"}}
    status = rng.choice(STATUSES)
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
        findings=[Finding("slow-answer", "warning", "took 4.2 s")] if seq % 50 == 0 else [],
        source=rng.choice(SOURCES),
        turn=f"turn-{seq // 8}",
        action=rng.choice(("continue", "modify", "deny_tool", "approved", "denied")),
        rpc_id=seq,
    )


def make_event(rng: random.Random, seq: int) -> Event:
    kind = rng.choice(EVENT_KINDS)
    payload = {"Tool": rng.choice(TOOLS), "Arguments": {"command": rng.choice(COMMANDS)}}
    envelope = templates.runtime_event(
        kind, payload, event_id=f"evt-{seq}", turn_id=f"turn-{seq // 8}"
    )
    return Event(seq=seq, kind=kind, severity=envelope["severity"], payload=envelope)


def exchanges(count: int) -> list[Exchange]:
    rng = random.Random(7)
    return [make_exchange(rng, seq) for seq in range(1, count + 1)]


def timed(predicate: Callable[[Record], bool], records: Sequence[Record]) -> tuple[float, float]:
    """Wall and CPU milliseconds of one full filtering pass."""
    started, started_cpu = time.perf_counter(), time.process_time()
    [record for record in records if predicate(record)]
    return (time.perf_counter() - started) * 1000, (time.process_time() - started_cpu) * 1000


def median_ms(
    predicate: Callable[[Record], bool], records: Sequence[Record], runs: int
) -> tuple[float, float]:
    passes = [timed(predicate, records) for _ in range(runs)]
    return statistics.median(p[0] for p in passes), statistics.median(p[1] for p in passes)


def baseline(record: Record) -> bool:
    return record.hook == "review-gate"  # type: ignore[attr-defined]


def run(quick: bool) -> list[Row]:
    """One row per expression: CPU ms of a pass over the exchanges, against the lambda."""
    records = exchanges(2_000 if quick else 100_000)
    runs = 3 if quick else 7
    base = median_ms(baseline, records, runs)[1]
    rows = []
    for label, expression in EXPRESSIONS.items():
        measured = median_ms(compile_filter(expression), records, runs)[1]
        name = f"filter {len(records) // 1000}k {label} cpu ms"
        rows.append(row(name, base, measured, None, expression))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    records = exchanges(args.records)
    size = statistics.mean(len(r.raw_request or "") + len(r.raw_response or "") for r in records)
    print(f"{len(records):,} exchanges, {size:.0f} bytes of raw lines each, median of {args.runs}")
    print("   wall      cpu  cpu/baseline  expression")
    base = median_ms(baseline, records, args.runs)
    _report(base, base[1], "baseline: lambda record: record.hook == 'review-gate'")
    for expression in EXPRESSIONS.values():
        predicate = compile_filter(expression)
        shown = sum(map(predicate, records))
        _report(median_ms(predicate, records, args.runs), base[1], f"{expression}  ({shown:,})")
    _events(args.records)


def _events(count: int) -> None:
    rng = random.Random(7)
    events = [make_event(rng, seq) for seq in range(1, count + 1)]
    print(f"\n{len(events):,} events: cold (payloads not yet serialised) then warm, cpu ms")
    for expression in EVENT_EXPRESSIONS:
        predicate = compile_filter(expression)
        record_text._json_cache.clear()
        cold = timed(predicate, events)[1]
        warm = statistics.median(timed(predicate, events)[1] for _ in range(3))
        print(f"{cold:7.1f} cold {warm:7.1f} warm  {expression}")


def _report(timing: tuple[float, float], baseline_cpu: float, label: str) -> None:
    wall, cpu = timing
    print(f"{wall:5.1f} ms {cpu:5.1f} ms {cpu / baseline_cpu:8.1f}x     {label}")


if __name__ == "__main__":
    main()
