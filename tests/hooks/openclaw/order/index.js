// Priorities, params and message rewriting: what each handler saw is written to stderr.
const { definePluginEntry } = require("openclaw/plugin-sdk/plugin-entry");

module.exports = definePluginEntry({
  id: "order",
  register(api) {
    api.on("before_tool_call", (event) => {
      console.log(`low saw ${JSON.stringify(event.params)}`);
      process.stdout.write("stdout is the harness's: this goes to stderr\n");
      return { params: { from: "low" } };
    });
    api.on(
      "before_tool_call",
      (event) => {
        console.log(`high saw ${JSON.stringify(event.params)}`);
        require("node:fs").writeSync(1, "written to file descriptor 1\n");
        return { params: { from: "high", extra: 1 } };
      },
      { priority: 5 },
    );
    api.on("message_sending", (event) => ({ content: `${event.content} [signed]` }), {
      priority: 2,
    });
    api.on("message_sending", (event) => ({ content: event.content.toUpperCase() }));
  },
});
