"""BeforeModel hook: ask the model for short answers by setting a lower temperature and adding
the house style to the last user message the model gets (llm_request overrides the request)."""

import json
import sys

call = json.load(sys.stdin)
request = call.get("llm_request", {})
messages = list(request.get("messages", []))
if messages and messages[-1].get("role") == "user":
    last = dict(messages[-1])
    last["content"] = f"{last.get('content', '')}\n\nHouse style: answer in two sentences at most."
    messages[-1] = last
changed = {"messages": messages, "config": {**request.get("config", {}), "temperature": 0.2}}
print(json.dumps({"hookSpecificOutput": {"hookEventName": "BeforeModel", "llm_request": changed}}))
