"""A Gemini CLI command hook that records every call and may answer for `rm -rf`.

    gemini_record.py LOG [ANSWER]

Appends one JSON line to LOG per call: the raw stdin, the environment and the working folder.
On BeforeTool for a command containing `rm -rf` it answers with ANSWER:

- `exit-2`: refuses by exiting 2 with the reason on stderr;
- `deny`:   refuses with `decision: deny` and the reason;
- `allow`:  permits with `decision: allow`;
- `ask`:    asks with `decision: ask` and the reason;
- `stop`:   answers `continue: false` with the reason as stopReason;
- `rewrite`: answers `hookSpecificOutput.tool_input` with the command made `touch rewritten.txt`.

With ANSWER `model-rewrite` it answers every BeforeModel instead with a `llm_request` whose one
message is MODEL_PROMPT, and with `retry` it denies the first AfterAgent (stop_hook_active false)
with RETRY as the reason; `after-deny` and `after-context` answer every AfterTool (a deny with
the reason; additionalContext CONTEXT), `model-block` refuses every BeforeModel by exit 2, and
`tools-only-glob` answers every BeforeToolSelection with toolConfig mode ANY and glob alone.
On AfterModel, `chunk-rewrite` replaces the streamed chunk whose text is CHUNK with CHECKED, and
`call-deny` denies every chunk that holds a function call (no text part).
Otherwise it says nothing and exits 0.
"""

from __future__ import annotations

import json
import os
import sys

REASON = "rm -rf is not allowed in this project"
ALLOWED = "rm -rf is fine in this project"
REWRITTEN = "touch rewritten.txt"
MODEL_PROMPT = "The hook says: answer in French."
RETRY = "Say it again, in full."
CONTEXT = "the <build> folder is generated"
CHUNK = ": made.txt"
CHECKED = " [checked]"


def main() -> int:
    log, answer = sys.argv[1], (sys.argv[2] if len(sys.argv) > 2 else "")
    stdin = sys.stdin.read()
    with open(log, "a", encoding="utf-8") as out:
        out.write(json.dumps({"stdin": stdin, "env": dict(os.environ), "cwd": os.getcwd()}) + "\n")
    event = json.loads(stdin)
    name = event["hook_event_name"]
    if name == "BeforeModel" and answer == "model-rewrite":
        request = {"messages": [{"role": "user", "content": MODEL_PROMPT}]}
        print(json.dumps({"hookSpecificOutput": {"llm_request": request}}))
        return 0
    if name == "AfterAgent" and answer == "retry" and not event["stop_hook_active"]:
        print(json.dumps({"decision": "deny", "reason": RETRY}))
        return 0
    command = str(event.get("tool_input", {}).get("command", ""))
    if name == "AfterTool" and answer in ("after-deny", "after-context"):
        specific = {"hookEventName": "AfterTool", "additionalContext": CONTEXT}
        after = {"decision": "deny", "reason": REASON} if answer == "after-deny" else {}
        print(json.dumps(after or {"hookSpecificOutput": specific}))
        return 0
    if name == "BeforeToolSelection" and answer == "tools-only-glob":
        config = {"mode": "ANY", "allowedFunctionNames": ["glob"]}
        print(json.dumps({"hookSpecificOutput": {"toolConfig": config}}))
        return 0
    if name == "AfterModel" and answer in ("chunk-rewrite", "call-deny"):
        streamed = event["llm_response"]
        if answer == "call-deny" and streamed["candidates"][0]["content"]["parts"] == []:
            print(json.dumps({"decision": "deny", "reason": REASON}))
        elif answer == "chunk-rewrite" and streamed["text"] == CHUNK:
            candidate = {"content": {"role": "model", "parts": [CHECKED]}}
            print(json.dumps({"hookSpecificOutput": {"llm_response": {"candidates": [candidate]}}}))
        return 0
    if name == "BeforeModel" and answer == "model-block":
        print(REASON, file=sys.stderr)
        return 2
    if name != "BeforeTool" or "rm -rf" not in command:
        return 0
    if answer == "exit-2":
        print(REASON, file=sys.stderr)
        return 2
    if answer in ("deny", "allow", "ask"):
        print(json.dumps({"decision": answer, "reason": ALLOWED if answer == "allow" else REASON}))
    elif answer == "stop":
        print(json.dumps({"continue": False, "stopReason": REASON}))
    elif answer == "rewrite":
        rewritten = {"hookEventName": "BeforeTool", "tool_input": {"command": REWRITTEN}}
        print(json.dumps({"hookSpecificOutput": rewritten}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
