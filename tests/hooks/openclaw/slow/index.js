// A before_tool_call handler that never answers within its own timeoutMs.
module.exports = {
  id: "slow",
  register(api) {
    api.on("before_tool_call", () => new Promise(() => {}), { timeoutMs: 200 });
  },
};
