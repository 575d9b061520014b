"use strict";
// hook-inspector's bridge plugin for OpenClaw: every hook OpenClaw fires goes to the inspector's
// relay socket; the hooks that decide wait for the inspector's answer (within their deadline) and
// return it as their result. Node built-ins only: OpenClaw loads it from the Python package.
//
// The wire (inspector/bridge/plugin_wire.py says it too): one connection per Gateway process,
// one JSON object a line. With a token file it first sends a challenge and reads the inspector's
// proof that it knows the token (relay/proof.py): whoever cannot prove it is told nothing more.
// Then it greets
//   {"hook_inspector_relay": 2, "name": "openclaw", "pid": ..., "proof": ... | null,
//    "plugin": {"host": "openclaw"}}
// and reads the welcome. Then it sends
//   {"id": 7, "hook": "before_tool_call", "event": {...}, "ctx": {...}, "timeout_ms": 59800}
// for a hook that decides, and the inspector answers {"id": 7, "result": {...} | null} in time;
// a hook that only observes is sent with no id and gets no answer. What OpenClaw fired while no
// inspector listened (the last 1,000) goes first after a welcome, marked "backlog": true, with
// "answered": what the plugin answered by itself.

const crypto = require("node:crypto");
const fs = require("node:fs");
const net = require("node:net");
const os = require("node:os");
const path = require("node:path");

const PLUGIN_ID = "hook-inspector";
const WIRE_VERSION = 2;
const SOCKET_NAME = "relay.sock";
const BACKLOG_LIMIT = 1000;
const RETRY_EVERY_MS = 1000;
const WELCOME_WAIT_MS = 1000;
const DEFAULT_TIMEOUT_MS = 60000;
const DEFAULT_PRIORITY = 1000;
// The longest line read from the inspector: far beyond any real answer, and read in pieces joined
// once, so a hostile peer costs at most this much memory and one pass.
const LINE_LIMIT = 16 * 1024 * 1024;
const DEPTH_LIMIT = 64;
const TOKEN_FILE_LIMIT = 64 * 1024;
const NONCE = /^[0-9a-f]{32,128}$/;

// The hooks whose answer changes what OpenClaw does: they wait for the inspector.
const DECIDING = new Set([
  "before_tool_call",
  "message_sending",
  "before_agent_reply",
  "before_prompt_build",
  "before_model_resolve",
]);
// Every other hook of OpenClaw's catalogue: sent, not waited for.
const OBSERVED = [
  "before_agent_start",
  "before_agent_finalize",
  "before_agent_run",
  "agent_turn_prepare",
  "agent_end",
  "model_call_started",
  "model_call_ended",
  "llm_input",
  "llm_output",
  "after_tool_call",
  "tool_result_persist",
  "before_message_write",
  "resolve_exec_env",
  "inbound_claim",
  "message_received",
  "message_sent",
  "before_dispatch",
  "reply_dispatch",
  "reply_payload_sending",
  "session_start",
  "session_end",
  "before_compaction",
  "after_compaction",
  "before_reset",
  "subagent_spawning",
  "subagent_delivery_target",
  "subagent_spawned",
  "subagent_ended",
  "gateway_start",
  "gateway_stop",
  "before_install",
];
// Keys whose values are OpenClaw's own machinery, not the hook's data: never sent.
const STRIPPED_KEYS = new Set(["abortSignal", "signal", "config", "cfg", "runtime", "api"]);

// ---- settings --------------------------------------------------------------------------------

function defaultSocket() {
  const runtime = process.env.XDG_RUNTIME_DIR;
  if (runtime) return path.join(runtime, "hook-inspector", SOCKET_NAME);
  return path.join(os.tmpdir(), `hook-inspector-${process.getuid()}`, SOCKET_NAME);
}

function settings(raw) {
  const config = raw && typeof raw === "object" ? raw : {};
  const timeoutMs = Number.isInteger(config.timeoutMs) ? config.timeoutMs : DEFAULT_TIMEOUT_MS;
  return {
    socket: typeof config.socket === "string" && config.socket ? config.socket : null,
    tcp: typeof config.tcp === "string" && config.tcp ? config.tcp : null,
    tokenFile: typeof config.tokenFile === "string" && config.tokenFile ? config.tokenFile : null,
    noInspector: ["block", "approval"].includes(config.noInspector) ? config.noInspector : "continue",
    timeoutMs: Math.min(Math.max(timeoutMs, 100), 600000),
    priority: Number.isInteger(config.priority) ? config.priority : DEFAULT_PRIORITY,
  };
}

// When the plugin stops waiting: a margin (10 % of the deadline, 20 to 200 ms) before OpenClaw
// gives up on the handler, so its own answer still counts. As relay/wire.py answer_by_ms.
function answerByMs(deadlineMs) {
  const margin = Math.max(20, Math.min(Math.floor(deadlineMs / 10), 200));
  return Math.max(deadlineMs - margin, 0);
}

// ---- what is sent ----------------------------------------------------------------------------

// Plain JSON data only: functions, abort signals, OpenClaw's config and runtime objects, class
// instances and cycles are left out.
function plain(value, depth = 0, seen = new Set()) {
  if (value === null || typeof value === "string" || typeof value === "boolean") return value;
  if (typeof value === "number") return Number.isFinite(value) ? value : null;
  if (typeof value === "bigint") return value.toString();
  if (typeof value !== "object" || depth > DEPTH_LIMIT || seen.has(value)) return undefined;
  if (value instanceof Date) return value.toISOString();
  if (Buffer.isBuffer(value)) return `<${value.length} bytes>`;
  const prototype = Object.getPrototypeOf(value);
  const isArray = Array.isArray(value);
  if (!isArray && prototype !== Object.prototype && prototype !== null) return undefined;
  seen.add(value);
  let copy;
  if (isArray) {
    copy = value.map((item) => {
      const safe = plain(item, depth + 1, seen);
      return safe === undefined ? null : safe;
    });
  } else {
    copy = {};
    for (const [key, item] of Object.entries(value)) {
      if (STRIPPED_KEYS.has(key)) continue;
      const safe = plain(item, depth + 1, seen);
      if (safe !== undefined) copy[key] = safe;
    }
  }
  seen.delete(value);
  return copy;
}

// What the plugin answers by itself when no inspector answers in time.
function fallback(hookName, event, choice) {
  if (choice === "block") {
    const reason = "hook-inspector is not answering (noInspector: block)";
    if (hookName === "before_tool_call") return { block: true, blockReason: reason };
    if (hookName === "message_sending") return { cancel: true };
  }
  if (choice === "approval" && hookName === "before_tool_call") {
    const tool = String(event?.toolName ?? "a tool");
    const params = JSON.stringify(plain(event?.params) ?? {});
    return {
      requireApproval: {
        title: `hook-inspector is not answering: ${tool}`.slice(0, 80),
        description: `${tool} ${params}`.slice(0, 512),
        severity: "warning",
      },
    };
  }
  return undefined;
}

// ---- trust -----------------------------------------------------------------------------------

const mine = (info) => info.uid === process.getuid() || info.uid === 0;

// Whoever answers here answers OpenClaw. Node cannot ask the kernel who listens on a socket
// (no SO_PEERCRED), so the path must be one nobody else can change between this check and the
// connect: every folder from the root down to the socket, the socket's own included, belongs to
// this user (or root) and nobody else may write to it (a sticky folder such as /tmp aside, whose
// entries only their owners may replace). The path is resolved first and connected to as
// resolved. Returns [the path to connect to, null] or [null, why not].
function trustedSocket(socketPath) {
  const folder = fs.realpathSync(path.dirname(socketPath));
  let at = folder;
  for (;;) {
    const info = fs.lstatSync(at);
    if (!info.isDirectory()) return [null, `${at} is not a folder`];
    if (!mine(info)) return [null, `${at} belongs to uid ${info.uid}`];
    if (info.mode & 0o022 && !(info.mode & 0o1000)) {
      return [null, `${at} may be written by other users`];
    }
    const parent = path.dirname(at);
    if (parent === at) break;
    at = parent;
  }
  const where = path.join(folder, path.basename(socketPath));
  const info = fs.lstatSync(where);
  if (!info.isSocket()) return [null, `${where} is not a socket`];
  if (!mine(info)) return [null, `${where} belongs to uid ${info.uid}`];
  if (info.mode & 0o022) return [null, `${where} may be written by other users`];
  return [where, null];
}

// A small regular file only: a FIFO would block the Gateway's one thread for good.
function readToken(file) {
  const fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
  let data;
  try {
    const info = fs.fstatSync(fd);
    if (!info.isFile()) throw new Error(`${file}: not a regular file`);
    if (info.size > TOKEN_FILE_LIMIT) throw new Error(`${file}: too large for a token file`);
    data = Buffer.alloc(TOKEN_FILE_LIMIT + 1);
    data = data.subarray(0, fs.readSync(fd, data, 0, data.length, 0));
  } finally {
    fs.closeSync(fd);
  }
  const token = data.toString("utf8").trim().split(/\r?\n/)[0].trim();
  if (!token) throw new Error(`${file}: the token file is empty`);
  return token;
}

// HMAC-SHA256 keyed with the token over the prover's role and both nonces, as relay/proof.py.
function proof(token, role, relayNonce, inspectorNonce) {
  const message = `hook-inspector ${WIRE_VERSION} ${role} ${relayNonce} ${inspectorNonce}`;
  return crypto.createHmac("sha256", token).update(message).digest("hex");
}

function proves(given, expected) {
  if (typeof given !== "string" || given.length !== expected.length) return false;
  return crypto.timingSafeEqual(Buffer.from(given), Buffer.from(expected));
}

// Whether `value` nests deeper than `limit`, found without recursion (a hostile answer may be
// nested far deeper than the stack goes).
function deeperThan(value, limit) {
  const stack = [[value, 0]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop();
    if (item === null || typeof item !== "object") continue;
    if (depth >= limit) return true;
    for (const child of Object.values(item)) stack.push([child, depth + 1]);
  }
  return false;
}

// ---- the connection --------------------------------------------------------------------------

class Link {
  constructor(options, logger) {
    this.options = options;
    this.logger = logger;
    this.socket = null;
    this.open = false;
    this.proving = null; // {token, nonce} while the inspector's proof is awaited
    this.pieces = []; // the line begun, as received
    this.piecesLength = 0;
    this.nextId = 1;
    this.pending = new Map(); // id -> resolve
    this.backlog = [];
    this.lastAttempt = -Infinity;
    this.lastProblem = "";
    this.waiters = []; // resolves waiting for the welcome
  }

  // Try to connect, at most once a second; never throws.
  ensure() {
    if (this.socket !== null) return;
    const now = Date.now();
    if (now - this.lastAttempt < RETRY_EVERY_MS) return;
    this.lastAttempt = now;
    try {
      this.connect();
    } catch (error) {
      this.problem(`cannot reach hook-inspector: ${error.message}`);
      this.socket = null;
    }
  }

  // Everything that can throw comes before the socket, and the socket has its listeners before
  // anything else: an 'error' with no listener would take the Gateway down.
  connect() {
    const { tcp, tokenFile } = this.options;
    const token = tokenFile ? readToken(tokenFile) : null;
    let target;
    if (tcp) {
      const at = tcp.lastIndexOf(":");
      target = { host: tcp.slice(0, at), port: Number(tcp.slice(at + 1)) };
    } else {
      const where = this.options.socket ?? defaultSocket();
      const [trusted, why] = trustedSocket(where);
      if (why) throw new Error(`${where} is not trusted: ${why}`);
      target = { path: trusted };
    }
    const socket = net.createConnection(target);
    socket.on("error", (error) => this.problem(`hook-inspector: ${error.message}`));
    socket.on("close", () => this.closed(socket));
    socket.on("data", (chunk) => this.received(socket, chunk));
    socket.on("connect", () => {
      if (token === null) return this.greet(null);
      const nonce = crypto.randomBytes(32).toString("hex");
      this.proving = { token, nonce };
      const challenge = { hook_inspector_relay: WIRE_VERSION, challenge: nonce };
      socket.write(JSON.stringify(challenge) + "\n");
    });
    socket.unref(); // never keeps OpenClaw alive
    this.socket = socket;
    // A peer that never welcomes (a silent squatter) would hold every deciding call up.
    const giveUp = setTimeout(() => {
      if (this.socket !== socket || this.open) return;
      this.problem(`hook-inspector: no welcome within ${WELCOME_WAIT_MS} ms; hanging up`);
      socket.destroy();
    }, WELCOME_WAIT_MS);
    giveUp.unref();
    socket.on("close", () => clearTimeout(giveUp));
  }

  greet(relayProof) {
    const greeting = {
      hook_inspector_relay: WIRE_VERSION,
      name: "openclaw",
      pid: process.pid,
      proof: relayProof,
      plugin: { host: "openclaw" },
    };
    this.socket.write(JSON.stringify(greeting) + "\n");
  }

  // Lines are kept as the pieces received and joined once, when the newline comes.
  received(socket, chunk) {
    const live = () => this.socket === socket && !socket.destroyed;
    let start = 0;
    let end;
    while (live() && (end = chunk.indexOf(0x0a, start)) >= 0) {
      const piece = chunk.subarray(start, end);
      start = end + 1;
      if (this.tooLong(this.piecesLength + piece.length)) return;
      const line = this.pieces.length ? Buffer.concat([...this.pieces, piece]) : piece;
      this.pieces = [];
      this.piecesLength = 0;
      const text = line.toString("utf8");
      if (text.trim()) this.line(text);
    }
    if (!live() || start >= chunk.length) return;
    const rest = chunk.subarray(start);
    if (this.tooLong(this.piecesLength + rest.length)) return;
    this.pieces.push(rest);
    this.piecesLength += rest.length;
  }

  tooLong(length) {
    if (length <= LINE_LIMIT) return false;
    this.problem(`hook-inspector sent a line over ${LINE_LIMIT / 1024 / 1024} MiB; hanging up`);
    this.socket?.destroy();
    return true;
  }

  line(text) {
    let message;
    try {
      message = JSON.parse(text);
    } catch {
      this.problem(`hook-inspector sent a line that is not JSON: ${text.slice(0, 120)}`);
      return;
    }
    if (this.proving !== null) return this.proved(message, text);
    if (!this.open) {
      if (message?.hook_inspector === WIRE_VERSION && message.ok === true) {
        this.welcomed();
      } else {
        this.refused(message, text);
      }
      return;
    }
    const resolve = this.pending.get(message?.id);
    if (!resolve) return;
    this.pending.delete(message.id);
    const result = message.result ?? undefined;
    if (deeperThan(result, DEPTH_LIMIT)) {
      this.problem(`hook-inspector sent a result nested deeper than ${DEPTH_LIMIT}; not used`);
      resolve({ answered: false });
    } else {
      resolve({ answered: true, result });
    }
  }

  // The inspector's answer to the challenge: its proof, or a refusal (an older inspector).
  proved(message, text) {
    const { token, nonce } = this.proving;
    this.proving = null;
    if (message?.ok === false) return this.refused(message, text);
    const theirs = message?.challenge;
    const expected =
      typeof theirs === "string" && NONCE.test(theirs)
        ? proof(token, "inspector", nonce, theirs)
        : null;
    if (expected === null || !proves(message?.proof, expected)) {
      const where = this.options.tcp ?? "the socket";
      this.problem(
        `hook-inspector: whoever listens at ${where} did not prove it knows the token (a` +
          " squatter on the port, or an inspector with another token); sent it nothing," +
          " answering by itself",
      );
      this.socket?.destroy();
      return;
    }
    this.greet(proof(token, "relay", nonce, theirs));
  }

  refused(message, text) {
    this.problem(`hook-inspector refused the plugin: ${message?.error ?? text.slice(0, 120)}`);
    this.socket?.destroy();
  }

  welcomed() {
    this.open = true;
    this.lastProblem = "";
    this.logger.info?.("hook-inspector: connected");
    const kept = this.backlog.splice(0);
    for (const message of kept) this.write(message);
    for (const wake of this.waiters.splice(0)) wake();
  }

  closed(socket) {
    if (this.socket !== socket) return;
    this.socket = null;
    this.open = false;
    this.proving = null;
    this.pieces = [];
    this.piecesLength = 0;
    for (const resolve of this.pending.values()) resolve({ answered: false });
    this.pending.clear();
    for (const wake of this.waiters.splice(0)) wake();
  }

  problem(text) {
    if (text !== this.lastProblem) this.logger.warn?.(text); // once, not once a second
    this.lastProblem = text;
  }

  write(message) {
    this.socket.write(JSON.stringify(message) + "\n");
  }

  keep(message) {
    this.backlog.push({ ...message, backlog: true });
    if (this.backlog.length > BACKLOG_LIMIT) this.backlog.shift();
  }

  // Until the welcome (when a connection is being made), for at most `ms`.
  async ready(ms) {
    this.ensure();
    if (this.open || this.socket === null) return this.open;
    let timer;
    await new Promise((resolve) => {
      this.waiters.push(resolve);
      timer = setTimeout(resolve, ms);
    });
    clearTimeout(timer);
    return this.open;
  }

  observe(hookName, event, ctx) {
    const message = { hook: hookName, event: plain(event), ctx: plain(ctx), at: Date.now() };
    this.ensure();
    if (this.open) this.write(message);
    else this.keep(message);
  }

  async decide(hookName, event, ctx) {
    const started = Date.now();
    const waitMs = answerByMs(this.options.timeoutMs);
    const message = { hook: hookName, event: plain(event), ctx: plain(ctx), at: started };
    const answer = fallback(hookName, event, this.options.noInspector);
    if (!(await this.ready(Math.min(WELCOME_WAIT_MS, waitMs)))) {
      this.keep({ ...message, answered: plain(answer) ?? null });
      return answer;
    }
    const id = this.nextId++;
    const timeout_ms = Math.max(waitMs - (Date.now() - started), 1);
    let timer;
    const reply = await new Promise((resolve) => {
      this.pending.set(id, resolve);
      timer = setTimeout(() => resolve({ answered: false }), timeout_ms);
      this.write({ ...message, id, timeout_ms });
    });
    clearTimeout(timer);
    this.pending.delete(id);
    return reply.answered ? reply.result : answer;
  }
}

// ---- the entry -------------------------------------------------------------------------------

// One connection per Gateway process: OpenClaw loads this file once per registration mode, as
// separate module instances, so the link lives on the process's global object.
const LINK = Symbol.for("hook-inspector.openclaw.link");

function processLink(options, logger) {
  if (!globalThis[LINK]) {
    const link = new Link(options, logger);
    // An inspector that starts later is found within a second, whether or not hooks fire.
    setInterval(() => link.ensure(), RETRY_EVERY_MS).unref();
    globalThis[LINK] = link;
  }
  return globalThis[LINK];
}

function register(api) {
  const options = settings(api.pluginConfig);
  const link = processLink(options, api.logger ?? console);
  const on = (hookName, handler, extra) => {
    try {
      api.on(hookName, handler, { priority: options.priority, ...extra });
    } catch (error) {
      api.logger?.warn?.(`hook-inspector: cannot follow ${hookName}: ${error.message}`);
    }
  };
  for (const hookName of DECIDING) {
    on(hookName, (event, ctx) => link.decide(hookName, event, ctx), {
      timeoutMs: options.timeoutMs,
    });
  }
  for (const hookName of OBSERVED) {
    on(hookName, (event, ctx) => {
      link.observe(hookName, event, ctx);
      return undefined;
    });
  }
  link.ensure();
}

module.exports = {
  id: PLUGIN_ID,
  name: "hook-inspector bridge",
  register,
};
