// The inspector's own OpenClaw hook in the real-Gateway tests: it answers a live exec call by
// the word in its command. BLOCK-ME blocks it, REWRITE-ME changes the command, ASK-ME asks.
module.exports = {
  id: "guard",
  register(api) {
    api.on("before_tool_call", (event) => {
      const command = String(event.params?.command ?? "");
      if (command.includes("BLOCK-ME")) {
        return { block: true, blockReason: "the guard in hook-inspector blocked this" };
      }
      if (command.includes("REWRITE-ME")) {
        return { params: { command: command.replaceAll("REWRITE-ME", "rewritten") } };
      }
      if (command.includes("ASK-ME")) {
        return { requireApproval: { title: "Run this exec call?", description: command } };
      }
      return undefined;
    });
  },
};
