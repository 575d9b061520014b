"""post_tool_execution: replace secrets in tool_result with [REDACTED]."""

import json
import re
import sys

SECRET = re.compile(r"\b(sk-[A-Za-z0-9-]{8,}|ghp_[A-Za-z0-9]{20,}|AKIA[A-Z0-9]{16})\b")

context = json.load(sys.stdin)
result = context.get("tool_result", "")
redacted = SECRET.sub("[REDACTED]", result)
print(json.dumps({"tool_result": redacted}) if redacted != result else "{}")
