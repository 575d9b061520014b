"use strict";
// Loads one OpenClaw plugin in this Node process and calls its hooks when asked, the way the
// OpenClaw Gateway does: register(api) runs once per registration mode, api.on() registrations
// are collected, and each call gets the event and ctx with the handler's own time limit.
// One JSON object a line: the first stdout line says what registered, then one answer per
// request read from stdin. The plugin's console output goes to stderr, never stdout.
// Needs node >= 18.19 (module.register). Usage: node harness.js '{"id": "...", "entry": "/abs/index.js", "config": {...}}'

const util = require("node:util");
const path = require("node:path");
const readline = require("node:readline");
const Module = require("node:module");
const { pathToFileURL } = require("node:url");

const REGISTRATION_MODES = ["full", "discovery"];
const SDK = "openclaw/plugin-sdk";
const DEFAULT_TIMEOUT_MS = 15000;

// stdout carries only the harness's own lines: whatever the plugin writes there goes to stderr.
const writeStdout = process.stdout.write.bind(process.stdout);
process.stdout.write = (...args) => process.stderr.write(...args);
const send = (message) => writeStdout(JSON.stringify(message) + "\n");
const toStderr = (...args) => process.stderr.write(util.format(...args) + "\n");
console.log = console.info = console.debug = console.warn = console.error = toStderr;
// A plugin's stray async error (a promise nobody awaits, a throw in a timer) is logged, as the
// Gateway logs it, and the harness goes on serving the other handlers.
process.on("unhandledRejection", (reason) => toStderr(`unhandled rejection: ${describe(reason)}`));
process.on("uncaughtException", (error) => toStderr(`uncaught exception: ${describe(error)}`));

// A plugin written against OpenClaw imports its SDK; without OpenClaw installed beside it, both
// require() and import of "openclaw/plugin-sdk/..." get the harness's plugin-sdk.cjs instead.
function provideSdk() {
  const shim = path.join(__dirname, "plugin-sdk.cjs");
  const resolveFilename = Module._resolveFilename;
  Module._resolveFilename = function (request, ...rest) {
    try {
      return resolveFilename.call(this, request, ...rest);
    } catch (error) {
      if (request === SDK || request.startsWith(`${SDK}/`)) return shim;
      throw error;
    }
  };
  if (typeof Module.register === "function") {
    Module.register(pathToFileURL(path.join(__dirname, "sdk-resolve.mjs")).href);
  }
}

function describe(error) {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return `thrown: ${util.inspect(error)}`;
}

// JSON for what a handler returned: functions (onResolution) and other non-JSON values are
// listed by path instead of silently vanishing.
function jsonSafe(value, path, dropped) {
  if (typeof value === "function") {
    dropped.push(path);
    return undefined;
  }
  if (value === null || typeof value !== "object") {
    if (typeof value === "bigint" || typeof value === "symbol") {
      dropped.push(path);
      return undefined;
    }
    return value;
  }
  if (Array.isArray(value)) return value.map((item, i) => jsonSafe(item, `${path}[${i}]`, dropped));
  const copy = {};
  for (const [key, item] of Object.entries(value)) {
    const safe = jsonSafe(item, path ? `${path}.${key}` : key, dropped);
    if (safe !== undefined) copy[key] = safe;
  }
  return copy;
}

function registerFunction(loaded) {
  let entry = loaded.default ?? loaded;
  if (entry && typeof entry === "object" && typeof entry.register !== "function" && entry.default) {
    entry = entry.default; // a CommonJS module.exports = { default: ... }
  }
  if (typeof entry === "function") return { entry, register: entry };
  if (entry && typeof entry.register === "function") return { entry, register: entry.register };
  return null;
}

function makeApi(spec, mode, registrations) {
  const logger = { info: toStderr, warn: toStderr, error: toStderr, debug: toStderr };
  const api = {
    id: spec.id,
    name: spec.name ?? spec.id,
    registrationMode: mode,
    pluginConfig: spec.config ?? {},
    config: {},
    logger,
    on(hookName, handler, options) {
      registrations.push({
        index: registrations.length,
        mode,
        hookName: String(hookName),
        priority: Number(options?.priority ?? 0),
        timeoutMs: options?.timeoutMs ?? null,
        handler,
      });
    },
  };
  // Capabilities the harness does not run (tools, channels, providers...) are accepted quietly.
  return new Proxy(api, {
    get(target, key) {
      if (key in target) return target[key];
      if (typeof key === "string" && key.startsWith("register")) return () => undefined;
      return undefined;
    },
  });
}

async function load(spec) {
  const registrations = [];
  const errors = [];
  const found = registerFunction(await import(pathToFileURL(spec.entry).href));
  if (found === null) {
    throw new Error("the entry exports no register(api): export definePluginEntry({ id, register })");
  }
  for (const mode of REGISTRATION_MODES) {
    try {
      await found.register.call(found.entry, makeApi(spec, mode, registrations));
    } catch (error) {
      errors.push({ mode, message: describe(error) });
    }
  }
  return { registrations, errors };
}

async function call(registration, request) {
  const timeoutMs = request.timeoutMs ?? registration.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const started = performance.now();
  let timer;
  const timeout = new Promise((resolve) => {
    timer = setTimeout(() => resolve({ timedOut: true }), timeoutMs);
  });
  const run = Promise.resolve()
    .then(() => registration.handler(request.event, request.ctx ?? {}))
    .then(
      (value) => ({ value }),
      (error) => ({ threw: describe(error) }),
    );
  const outcome = await Promise.race([run, timeout]);
  clearTimeout(timer);
  const durationMs = performance.now() - started;
  if (outcome.timedOut) return { id: request.id, timedOut: true, timeoutMs, durationMs };
  if (outcome.threw !== undefined) return { id: request.id, threw: outcome.threw, durationMs };
  const dropped = [];
  const result = outcome.value === undefined ? null : jsonSafe(outcome.value, "", dropped);
  return { id: request.id, returned: outcome.value !== undefined, result, dropped, durationMs };
}

async function main() {
  const spec = JSON.parse(process.argv[2]);
  provideSdk();
  let loaded;
  try {
    loaded = await load(spec);
  } catch (error) {
    send({ type: "failed", error: describe(error) });
    process.exitCode = 1;
    return;
  }
  const { registrations, errors } = loaded;
  send({
    type: "loaded",
    node: process.version,
    errors,
    registrations: registrations.map(({ handler, ...rest }) => rest),
  });
  const lines = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
  for await (const line of lines) {
    if (!line.trim()) continue;
    const request = JSON.parse(line);
    const registration = registrations[request.index];
    // Calls answer as they finish: a slow handler does not hold up the next request.
    call(registration, request).then(send, (error) =>
      send({ id: request.id, threw: describe(error), durationMs: 0 }),
    );
  }
}

main();
