"""pre_llm_request: inject the project rules as a user message, once per conversation."""

import json
import sys

MARKER = "[project rules]"
RULES = f"{MARKER} Run the tests before saying a change works. Never commit secrets."

context = json.load(sys.stdin)
seen = any(MARKER in str(message.get("content", "")) for message in context.get("messages", []))
print("{}" if seen else json.dumps({"inject_messages": [{"role": "user", "content": RULES}]}))
