#!/usr/bin/env python3
"""A process hook that shakes hands and then answers every call with a JSON-RPC error: the
failed call whose span must have error status."""

import json
import sys

for line in sys.stdin:
    message = json.loads(line)
    if "id" not in message:
        continue  # a notification
    if message["method"] == "hook.hello":
        answer = {"jsonrpc": "2.0", "id": message["id"], "result": {}}
    else:
        error = {"code": -32000, "message": "refused: this hook takes no calls"}
        answer = {"jsonrpc": "2.0", "id": message["id"], "error": error}
    print(json.dumps(answer), flush=True)
