// The traps OpenClaw's hook docs name, one handler each (tests/test_openclaw_host_mode.py).
import { definePluginEntry } from "openclaw/plugin-sdk/plugin-entry";

export default definePluginEntry({
  id: "traps",
  register(api) {
    api.on("before_tool_call", () => ({ block: false }), { priority: 30 });
    api.on(
      "before_tool_call",
      () => ({ requireApproval: { title: "Run it?", description: "a tool call" } }),
      { priority: 20 },
    );
    api.on("before_tool_call", () => ({ params: { command: "rewritten" } }), { priority: 10 });
    api.on("agent_end", () => undefined); // no hooks.allowConversationAccess: never fires
    if (api.registrationMode === "full") {
      api.on("after_tool_call", () => undefined); // agent runs use discovery registrations
    }
  },
});
