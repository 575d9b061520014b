"""Where hook-inspector's Gemini CLI emulation differs from each tested release of the real CLI
(`gemini -p`), as test_gemini_emulation.py measures it: GAPS[version] maps a payload value (a
key path) to why it differs. The test asserts these exactly, so each entry is a known, current
difference: when the emulation is fixed, the test fails until the entry is removed. A version
added to gemini_cli.VERSIONS needs its entry here.

Known differences no test here measures:
- A BeforeTool `decision: ask` makes Gemini CLI ask its user (in `-p`, its policy decides); the
  emulation does not ask.
- AfterAgent's deny asks the model again with the reason as a new prompt; a scenario cannot
  script that answer, so the emulation repeats the turn's final answer (test_gemini_real.py
  compares the hooks' calls of one retry).
"""

from __future__ import annotations

# The key paths whose values differ, with why; ids, times and folders are compared as patterns.
GAPS: dict[str, dict[str, str]] = {
    "0.61.0": {
        "BeforeModel.llm_request.messages": (
            "Gemini CLI's first user message starts with its <session_context> (date, OS, the "
            "folder's files) before the prompt; the emulation sends the prompt alone"
        ),
        "BeforeToolSelection.llm_request.messages": "the same <session_context>",
        "AfterModel.llm_request.messages": "the same <session_context>",
        "AfterTool.tool_response.llmContent": (
            "run_shell_command's result is wrapped in <untrusted_context> with the output and "
            "the process group's id; the emulation runs no tool and sends the scripted result"
        ),
    }
}
