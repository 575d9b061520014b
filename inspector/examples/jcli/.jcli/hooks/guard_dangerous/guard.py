"""pre_tool_execution: skip a shell command that deletes recursively or wipes a disk."""

import json
import re
import sys

DANGEROUS = re.compile(r"\brm\s+-\w*[rf]\w*\s|\bmkfs\b|\bdd\s+if=|>\s*/dev/sd")

context = json.load(sys.stdin)
# tool_arguments is the arguments' JSON text, not an object
arguments = json.loads(context.get("tool_arguments") or "{}")
command = str(arguments.get("command", ""))
print(json.dumps({"action": "skip"}) if DANGEROUS.search(command + " ") else "{}")
