// Priorities, params and message rewriting: what each handler saw is written to stderr.
const { definePluginEntry } = require("openclaw/plugin-sdk/plugin-entry");

module.exports = definePluginEntry({
  id: "order",
  register(api) {
    api.on("before_tool_call", (event) => {
      console.log(`low saw ${JSON.stringify(event.params)}`);
      return { params: { from: "low" } };
    });
    api.on(
      "before_tool_call",
      (event) => {
        console.log(`high saw ${JSON.stringify(event.params)}`);
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
