#!/usr/bin/env python3
"""A process hook that plays cases of the PicoClaw corpus (tests/data/picoclaw_corpus).

argv[1] names a JSON file: {"hello": BASE64, "answers": [BASE64, ...], "stderr": [LINE, ...],
"exit_code": N | null, "renumber": BOOL}. The first request read (hook.hello) gets the exact
bytes of "hello"; the k-th stage call after it gets the stderr lines and then the exact bytes of
answers[k-1], after which the hook exits with exit_code unless it is null. Requests past the last
answer get none; the hook exits 0 when stdin closes. The bytes are written as they are (no newline
added), so an answer may be any number of lines, not JSON, not UTF-8 or over 1 MiB.

With "renumber", one process plays many cases, each recorded as the answer to PicoClaw's stage
call with id 2: the one `"id":2` in each answer line becomes the id of the request it answers."""

from __future__ import annotations

import base64
import json
import os
import sys

RECORDED_ID = b'"id":2'


def main() -> int:
    with open(sys.argv[1], encoding="utf-8") as file:
        script = json.load(file)
    hello = base64.b64decode(script["hello"])
    answers = [base64.b64decode(answer) for answer in script["answers"]]
    for count, request in enumerate(sys.stdin.buffer):
        if count == 0:
            write(hello)
            continue
        if count > len(answers):
            continue
        for line in script["stderr"]:
            print(line, file=sys.stderr, flush=True)
        answer = answers[count - 1]
        if script["renumber"]:
            rpc_id = json.loads(request)["id"]
            answer = answer.replace(RECORDED_ID, b'"id":%d' % rpc_id)
        write(answer)
        if script["exit_code"] is not None:
            sys.stderr.flush()
            os._exit(script["exit_code"])
    return 0


def write(data: bytes) -> None:
    sys.stdout.buffer.write(data)
    sys.stdout.buffer.flush()


if __name__ == "__main__":
    sys.exit(main())
