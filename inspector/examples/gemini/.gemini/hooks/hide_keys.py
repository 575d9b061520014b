"""AfterModel hook: hide API keys (sk-...) in what the model says, by answering the chunk with
its text rewritten. Gemini CLI gives AfterModel one streamed chunk at a time, so a key the stream
cuts in two reaches the user whole: the scenario's last answer shows it."""

import json
import re
import sys

KEY = re.compile(r"sk-[A-Za-z0-9]{6,}")

call = json.load(sys.stdin)
text = (call.get("llm_response") or {}).get("text") or ""
hidden = KEY.sub("[key hidden]", text)
if hidden != text:
    candidate = {"content": {"role": "model", "parts": [hidden]}}
    answer = {"hookEventName": "AfterModel", "llm_response": {"candidates": [candidate]}}
    print(json.dumps({"hookSpecificOutput": answer}))
