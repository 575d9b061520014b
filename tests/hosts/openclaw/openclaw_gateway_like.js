"use strict";
// A Gateway-like host for hook-inspector's OpenClaw plugin: loads the plugin as OpenClaw does,
// with no handler for uncaught exceptions or unhandled 'error' events, so anything the plugin
// lets escape ends this process with exit 1, as it would end the Gateway.
//
//   node tests/openclaw_gateway_like.js PLUGIN_ENTRY CONFIG_JSON
//
// Reads one JSON command a line on stdin:
//   {"fire": "<hook>", "event": {...}, "ctx": {...}}  ->  {"fired": "<hook>", "result": ...}
//   {"ping": N}                                        ->  {"pong": N}
// and writes the plugin's log lines to stderr.

const readline = require("node:readline");

const [entry, config] = process.argv.slice(2);
const plugin = require(entry);
const handlers = new Map();
const log = (text) => process.stderr.write(`${text}\n`);
plugin.register({
  id: plugin.id,
  pluginConfig: JSON.parse(config),
  logger: { info: log, warn: log, error: log, debug: log },
  on(hookName, handler) {
    handlers.set(hookName, handler);
  },
});

const say = (message) => process.stdout.write(`${JSON.stringify(message)}\n`);
readline.createInterface({ input: process.stdin }).on("line", async (line) => {
  const command = JSON.parse(line);
  if ("ping" in command) return say({ pong: command.ping });
  const result = await handlers.get(command.fire)(command.event, command.ctx);
  say({ fired: command.fire, result: result ?? null });
});
