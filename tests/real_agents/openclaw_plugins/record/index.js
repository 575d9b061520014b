"use strict";
// A test plugin for hook-inspector: records before_tool_call and after_tool_call, one JSON line
// per call, to the file named in its config (`recordFile`). before_tool_call blocks the tool
// (`{block: true, blockReason}`) when `block` is true, or when the call's `params.command`
// contains `blockWhenCommandContains`. Hooks are registered in every registration mode that has
// a runtime; each registration writes a `register` line, and each hook line says which mode's
// registration fired.
const fs = require("node:fs");

const HOOKS = ["before_tool_call", "after_tool_call"];
const SKIPPED_MODES = new Set(["cli-metadata", "setup-only"]);
const DEFAULT_REASON = "blocked by the record test plugin";

// JSON for an event or ctx: no functions, no cycles, class instances (AbortSignal...) by name.
function plain(value, seen = new WeakSet()) {
  if (value === null || typeof value !== "object") {
    return typeof value === "function" || typeof value === "symbol" ? undefined : value;
  }
  if (seen.has(value)) return "[cycle]";
  seen.add(value);
  if (Array.isArray(value)) return value.map((item) => plain(item, seen) ?? null);
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) {
    const name = value.constructor && value.constructor.name;
    if (name === "Error" || value instanceof Error) return { error: String(value.message) };
    if (name !== "Object") return `[${name || "object"}]`;
  }
  const out = {};
  for (const [key, item] of Object.entries(value)) {
    const copy = plain(item, seen);
    if (copy !== undefined) out[key] = copy;
  }
  return out;
}

function configOf(api, ctx) {
  return (ctx && ctx.pluginConfig) || api.pluginConfig || {};
}

function record(config, line) {
  if (!config.recordFile) return;
  fs.appendFileSync(config.recordFile, JSON.stringify(line) + "\n");
}

function shouldBlock(config, event) {
  if (config.block === true) return true;
  const needle = config.blockWhenCommandContains;
  const command = event && event.params && event.params.command;
  return Boolean(needle) && typeof command === "string" && command.includes(needle);
}

module.exports = {
  id: "record",
  name: "Record tool hooks",
  description: "Appends one JSON line per before_tool_call / after_tool_call to a file",
  register(api) {
    const mode = api.registrationMode;
    if (SKIPPED_MODES.has(mode)) return;
    record(api.pluginConfig || {}, { hook: "register", mode, pid: process.pid });
    for (const hook of HOOKS) {
      api.on(hook, (event, ctx) => {
        const config = configOf(api, ctx);
        const block = hook === "before_tool_call" && shouldBlock(config, event);
        record(config, {
          hook,
          mode,
          pid: process.pid,
          block,
          event: plain(event),
          ctx: plain(ctx),
          ctxKeys: ctx ? Object.keys(ctx) : [],
        });
        if (block) return { block: true, blockReason: config.blockReason || DEFAULT_REASON };
        return undefined;
      });
    }
  },
};
