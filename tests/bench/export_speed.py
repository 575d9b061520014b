"""How long `hook-inspector export` takes on a big saved session, redacting and not.

    .venv/bin/python -m tests.bench.export_speed [--count N]

The session is N exchanges (100,000 by default) whose strings differ from one exchange to the
next, as a real session's tool output does (commands, file listings, log lines with hashes,
ids and paths, a stderr line), so the redaction's cache of short strings does not make every
string after the first free. A few secrets are planted too. The export runs as the command a
user runs, in a child process; `--no-redact` is the baseline (reading and writing only).
"""

from __future__ import annotations

import argparse
import random
import resource
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

from inspector.journal.jsonl import dumps
from inspector.journal.records import Exchange
from inspector.jsonrpc import messages as jsonrpc

_WORDS = """
build test deploy cache index module config server client request response worker queue table
column value record session update remove create install package version branch
"""
WORDS = _WORDS.split()
FILES = ("src/app.py", "README.md", "tests/test_api.py", "pyproject.toml", "docs/index.md")
SECRETS = (
    "ghp_" + "a1B2c3D4e5" * 3 + "a1B2c3",
    "AKIAVQJXXVBOTHD2WTFL",
    "xoxb-853901273113-3009498600301-us5qrt22u5po328btvijsm2a",
)


def text_line(rng: random.Random, seq: int) -> str:
    kind = rng.randrange(5)
    if kind == 0:
        size = rng.randrange(99999)
        return f"-rw-r--r-- 1 dev dev {size} Nov 27 10:{seq % 60:02d} {rng.choice(FILES)}"
    if kind == 1:
        return f"commit {rng.getrandbits(160):040x} {' '.join(rng.sample(WORDS, 4))}"
    if kind == 2:
        return (
            f"[{uuid.UUID(int=rng.getrandbits(128))}] {rng.choice(WORDS)} took {rng.random():.3f}s"
        )
    if kind == 3:
        return f"PASSED tests/test_{rng.choice(WORDS)}.py::test_{rng.choice(WORDS)}_{seq}"
    return " ".join(rng.choices(WORDS, k=8)) + f" (#{seq})"


def exchange(rng: random.Random, seq: int) -> Exchange:
    command = f"{rng.choice(('pytest -q', 'git log', 'ls -la', 'rg'))} {rng.choice(WORDS)}/{seq}"
    output = "\n".join(text_line(rng, seq) for _ in range(rng.randrange(2, 8)))
    if seq % 1000 == 0:
        output += f"\nusing {SECRETS[seq // 1000 % len(SECRETS)]}"
    params = {
        "meta": {"TurnID": f"turn-{seq // 8}", "SessionKey": "agent:main:main"},
        "tool": "exec",
        "arguments": {"command": command, "cwd": f"/home/dev/{rng.choice(WORDS)}"},
        "result": {"ForLLM": output, "IsError": False},
    }
    request = jsonrpc.request(seq, "hook.after_tool", params)
    response = {"jsonrpc": "2.0", "id": seq, "result": {"action": "continue"}}
    return Exchange(
        seq=seq,
        hook="review-gate",
        method="hook.after_tool",
        request=request,
        response=response,
        raw_request=jsonrpc.encode(request)[:-1].decode(),
        raw_response=jsonrpc.encode(response)[:-1].decode(),
        status="ok",
        stderr=text_line(rng, seq),
        duration_ms=rng.uniform(0.2, 40.0),
        source="relay:picoclaw",
        turn=f"turn-{seq // 8}",
        action="continue",
        rpc_id=seq,
    )


def write_session(path: Path, count: int) -> Path:
    rng = random.Random(7)
    with path.open("w", encoding="utf-8") as out:
        for seq in range(1, count + 1):
            out.write(dumps(exchange(rng, seq)) + "\n")
    return path


def export_seconds(source: Path, redact: bool) -> tuple[float, float]:
    """Wall and CPU seconds of one export in a child process (CPU: steadier on a busy box)."""
    target = source.with_name(f"out-{redact}.jsonl")
    command = [sys.executable, "-m", "inspector", "export", str(source), "-o", str(target)]
    cpu_before = _children_cpu()
    started = time.perf_counter()
    subprocess.run([*command, "--redact" if redact else "--no-redact"], check=True)
    return time.perf_counter() - started, _children_cpu() - cpu_before


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=100_000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        source = write_session(Path(folder) / "session.jsonl", args.count)
        size_mb = source.stat().st_size / 1e6
        export_seconds(source, redact=False)  # writes the index every later run opens through
        copy_wall, copy_cpu = export_seconds(source, redact=False)
        wall, cpu = export_seconds(source, redact=True)
        print(f"{args.count:,} exchanges, {size_mb:.0f} MB")
        print(f"export --no-redact: {copy_wall:.1f} s wall, {copy_cpu:.1f} s CPU")
        print(f"export (redacting): {wall:.1f} s wall, {cpu:.1f} s CPU")
        print(f"the redaction: {wall - copy_wall:.1f} s wall, {cpu - copy_cpu:.1f} s CPU")


if __name__ == "__main__":
    main()
