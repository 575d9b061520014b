"""Append what the hook got (context, JCLI_* env, PATH head, cwd) to the file argv[1] as one JSON
line, then print argv[2] (default {})."""

import json
import os
import sys

context = json.loads(sys.stdin.read())
env = {key: value for key, value in os.environ.items() if key.startswith("JCLI_")}
seen = {
    "context": context,
    "env": env,
    "path_head": os.environ.get("PATH", "").split(os.pathsep)[0],
    "cwd": os.getcwd(),
}
with open(sys.argv[1], "a", encoding="utf-8") as log:
    log.write(json.dumps(seen) + "\n")
print(sys.argv[2] if len(sys.argv) > 2 else "{}")
