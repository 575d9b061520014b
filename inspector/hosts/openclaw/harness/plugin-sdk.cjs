"use strict";
// What a plugin imports from "openclaw/plugin-sdk/..." when OpenClaw itself is not installed
// beside it: definePluginEntry returns the entry as OpenClaw's does, for register(api) to run.
exports.definePluginEntry = (entry) => entry;
