#!/usr/bin/env python3
"""A process hook that plays one case of the PicoClaw corpus (tests/data/picoclaw_corpus).

argv[1] names a JSON file: {"hello": BASE64, "answer": BASE64, "stderr": [LINE, ...],
"exit_code": N | null}. The first request read (hook.hello) gets the exact bytes of "hello", the
second (the stage call) the stderr lines and then the exact bytes of "answer", after which the
hook exits with exit_code unless it is null. Later requests get no answer; the hook exits 0 when
stdin closes. The bytes are written as they are (no newline added), so an answer may be any
number of lines, not JSON, not UTF-8 or over 1 MiB."""

from __future__ import annotations

import base64
import json
import os
import sys


def main() -> int:
    with open(sys.argv[1], encoding="utf-8") as file:
        case = json.load(file)
    replies = [base64.b64decode(case["hello"]), base64.b64decode(case["answer"])]
    for count, _request in enumerate(sys.stdin.buffer):
        if count >= len(replies):
            continue
        if count == 1:
            for line in case["stderr"]:
                print(line, file=sys.stderr, flush=True)
        sys.stdout.buffer.write(replies[count])
        sys.stdout.buffer.flush()
        if count == 1 and case["exit_code"] is not None:
            sys.stderr.flush()
            os._exit(case["exit_code"])
    return 0


if __name__ == "__main__":
    sys.exit(main())
