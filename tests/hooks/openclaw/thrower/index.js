// A before_tool_call handler that throws, and one below it that OpenClaw never reaches.
module.exports = {
  id: "thrower",
  register(api) {
    api.on(
      "before_tool_call",
      (event) => {
        if (event.toolName === "exec") throw new Error("policy file missing");
      },
      { priority: 10 },
    );
    api.on("before_tool_call", () => ({ params: { reached: true } }), { priority: 1 });
  },
};
