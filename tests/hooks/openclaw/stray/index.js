// Leaves errors nobody awaits behind it: a rejected promise and a throw in a timer.
module.exports = {
  id: "stray",
  register(api) {
    api.on("before_tool_call", (event) => {
      Promise.reject(new Error(`nobody awaits this (${event.toolName})`));
      setTimeout(() => {
        throw new Error("thrown in a timer");
      }, 0);
      return undefined;
    });
  },
};
