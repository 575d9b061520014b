#!/usr/bin/env python3
"""A process hook that shakes hands and then answers every call with a JSON-RPC error: the
failed call whose span must have error status, its message holding the planted secret."""

import json
import sys

for line in sys.stdin:
    message = json.loads(line)
    if "id" not in message:
        continue  # a notification
    if message["method"] == "hook.hello":
        answer = {"jsonrpc": "2.0", "id": message["id"], "result": {}}
    else:
        # a secret in the hook's own words: the span's error must not carry it
        said = "refused: this hook takes no calls (key sk-live-PLANTEDotel9f8e7d6c5b4a3210)"
        error = {"code": -32000, "message": said}
        answer = {"jsonrpc": "2.0", "id": message["id"], "error": error}
    print(json.dumps(answer), flush=True)
