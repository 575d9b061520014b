// Asks the person before every tool call.
module.exports = {
  id: "approver",
  register(api) {
    api.on("before_tool_call", (event) => ({
      requireApproval: { title: `Run ${event.toolName}?`, description: "from the tests" },
    }));
  },
};
