// An OpenClaw plugin to try hook-inspector's host mode on: `hook-inspector inspector/examples/openclaw` (or a copy of this folder).
const SECRET_KEY = /token|secret|password|api_?key/i;

function redacted(params) {
  const entries = Object.entries(params ?? {}).filter(([key]) => SECRET_KEY.test(key));
  if (entries.length === 0) return undefined;
  return Object.fromEntries(entries.map(([key]) => [key, "[redacted]"]));
}

export default {
  id: "tool-guard",
  name: "Tool Guard",
  register(api) {
    api.on(
      "before_tool_call",
      (event) => {
        const command = String(event.params?.command ?? "");
        if (event.toolName === "exec" && /rm\s+-rf\s+\/(\s|$)/.test(command)) {
          return { block: true, blockReason: `refusing to run: ${command}` };
        }
      },
      { priority: 100 },
    );
    api.on(
      "before_tool_call",
      (event) => {
        const params = redacted(event.params);
        return params ? { params } : undefined;
      },
      { priority: 50 },
    );
    api.on(
      "before_tool_call",
      (event) => {
        if (event.toolName !== "web_search") return undefined;
        return {
          requireApproval: {
            title: "Run web search",
            description: `Search for: ${String(event.params?.query ?? "")}`,
            severity: "info",
          },
        };
      },
      { priority: 10 },
    );
    api.on("after_tool_call", (event) => {
      console.log(`${event.toolName} took ${event.durationMs} ms`);
    });
    api.on("agent_end", (event) => {
      console.log(`run ${event.runId} ended with ${event.messages.length} messages`);
    });
  },
};
