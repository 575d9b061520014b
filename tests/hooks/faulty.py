#!/usr/bin/env python3
"""A process hook that misbehaves in one way, chosen by argv, for the fault suite.

It answers hook.hello with {} and every call with {"action": "continue"}, except that the
first call after the handshake sets off the fault:

    flood-stderr N      writes N lines "flood 1" ... "flood N" to stderr as fast as it can,
                        then answers
    print-file PATH     writes the bytes of PATH to stdout as they are, then answers
    huge-answer BYTES   answers with a result padded to BYTES on one line
    close-stdout        closes its stdout and never answers again, but keeps reading stdin
    fork-holder         forks a child that keeps the pipes open for a minute (its pid goes to
                        stderr as "child <pid>") and exits with status 5 without answering
    escape-holder       the same, but the child first leaves the process group (setsid), so
                        killing the group does not reach it
    straggler PATH      forks a child that leaves the group, waits until PATH exists, then
                        writes an answer with id 1 to stdout and "straggler" to stderr; the
                        hook itself exits with status 5 without answering
    reverse N           holds the answers to N calls and sends them in reverse order; each
                        result carries {"reason": "<n>"}, the call's number from 1
"""

from __future__ import annotations

import json
import os
import sys
import time
from collections.abc import Iterator
from typing import Any

Request = dict[str, Any]


def send(request: Request, result: dict[str, Any]) -> None:
    line = json.dumps({"jsonrpc": "2.0", "id": request["id"], "result": result})
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def continue_(request: Request) -> None:
    send(request, {"action": "continue"})


def flood_stderr(request: Request, count: str) -> None:
    sys.stderr.buffer.write(b"".join(b"flood %d\n" % n for n in range(1, int(count) + 1)))
    sys.stderr.flush()
    continue_(request)


def print_file(request: Request, path: str) -> None:
    with open(path, "rb") as file:
        sys.stdout.buffer.write(file.read())
    sys.stdout.flush()
    continue_(request)


def huge_answer(request: Request, size: str) -> None:
    unpadded = {
        "jsonrpc": "2.0",
        "id": request["id"],
        "result": {"action": "continue", "reason": ""},
    }
    send(request, {"action": "continue", "reason": "x" * (int(size) - len(json.dumps(unpadded)))})


def close_stdout(request: Request) -> None:
    os.close(sys.stdout.fileno())
    for _ in sys.stdin:  # reads on and never answers
        pass
    os._exit(0)  # nothing left to flush, and stdout is gone


def fork_holder(request: Request, *, escape: bool = False) -> None:
    child = os.fork()
    if child == 0:
        if escape:
            os.setsid()
        time.sleep(60)
        os._exit(0)
    sys.stderr.write(f"child {child}\n")
    sys.stderr.flush()
    os._exit(5)


def straggler(request: Request, trigger: str) -> None:
    if os.fork() == 0:
        os.setsid()
        while not os.path.exists(trigger):
            time.sleep(0.01)
        send({"id": 1}, {"action": "deny_tool", "reason": "from the crashed process"})
        sys.stderr.write("straggler\n")
        sys.stderr.flush()
        os._exit(0)
    os._exit(5)


def requests() -> Iterator[Request]:
    for line in sys.stdin:
        message = json.loads(line)
        if "id" in message:
            yield message


def main() -> None:
    mode, *args = sys.argv[1:]
    calls = requests()
    send(next(calls), {})  # hook.hello
    if mode == "reverse":
        held = [next(calls) for _ in range(int(args[0]))]
        for number, request in reversed(list(enumerate(held, 1))):
            send(request, {"action": "continue", "reason": str(number)})
    else:
        faults = {
            "flood-stderr": flood_stderr,
            "print-file": print_file,
            "huge-answer": huge_answer,
            "close-stdout": close_stdout,
            "fork-holder": fork_holder,
            "escape-holder": lambda request: fork_holder(request, escape=True),
            "straggler": straggler,
        }
        first = next(calls, None)
        if first is None:  # stopped before its first call: nothing to misbehave on
            return
        faults[mode](first, *args)
    for request in calls:
        continue_(request)


if __name__ == "__main__":
    main()
