"""`hook-inspector install openclaw` / `uninstall openclaw`: the bridge plugin (shipped in the
package, inspector/hosts/openclaw/plugin) added to OpenClaw's openclaw.json, and taken out again.

Install puts the plugin's folder in `plugins.load.paths` (once), its id in `plugins.allow` when
the file keeps an allow list, and its entry in `plugins.entries["hook-inspector"]`: enabled,
with conversation access (so the prompt and model hooks reach it) and its settings; run again,
it replaces its own entry (idempotent). Before the first change the file is copied to
`openclaw.json.hook-inspector.bak`. Uninstall takes all of it out, with the objects and lists
that only held it; when what is left is the backup's content, the backup's bytes go back, so
the file is as it was, byte for byte. OpenClaw also reads JSON5 (comments, trailing commas);
such a file is not rewritten: install says so and prints the snippet to add by hand."""

from __future__ import annotations

import copy
import json
import os
from pathlib import Path
from typing import Any

from inspector.config.document import Document
from inspector.config.errors import ConfigError
from inspector.config.fields import describe
from inspector.config.files import read_config_text
from inspector.config.parse import parse_json
from inspector.hosts.install_files import (
    Backup,
    json_object,
    json_text,
    through_link,
    write_back,
    write_through,
)
from inspector.hosts.installer import PRINT, Flag, Options, Place
from inspector.hosts.openclaw import BRIDGE_PLUGIN_FOLDER

JSONObject = dict[str, Any]

PLUGIN_ID = "hook-inspector"
PLUGIN_FOLDER = BRIDGE_PLUGIN_FOLDER
STATE_DIR, CONFIG_NAME = ".openclaw", "openclaw.json"
NO_INSPECTOR = ("continue", "block", "approval")
TIMEOUT_S = 60  # how long the Gateway gives the bridge's deciding hooks, by default


NO_INSPECTOR_FLAG = Flag(
    "no-inspector",
    "what a call that decides gets when no inspector answers in time: go on (default), block,"
    " or OpenClaw's own approval",
    NO_INSPECTOR,
)


class OpenClawInstaller:
    flags: tuple[Flag, ...] = (NO_INSPECTOR_FLAG, PRINT)
    config_file: str | None = (
        "its openclaw.json (default: $OPENCLAW_CONFIG_PATH, else $OPENCLAW_STATE_DIR/openclaw.json,"
        " else ~/.openclaw/openclaw.json)"
    )
    default_timeout_s = TIMEOUT_S

    def install(self, place: Place, options: Options) -> str:
        return install(config_file(place.config), _entry(options))

    def snippet(self, place: Place, options: Options) -> str:
        return snippet(_entry(options))

    def uninstall(self, place: Place) -> str:
        return uninstall(config_file(place.config))


def _entry(options: Options) -> JSONObject:
    """The plugin's entry `options` ask for."""
    for flag, given in (("--events", options.events), ("--matcher", options.matcher)):
        if given is not None:
            raise ConfigError(flag, "OpenClaw's bridge plugin follows every hook; leave it out")
    timeout_s = options.timeout_s or TIMEOUT_S
    if not 0 < timeout_s <= 600:
        raise ConfigError("--timeout", f"OpenClaw allows 1 to 600 seconds, got {timeout_s}")
    no_inspector = str(options.own.get(NO_INSPECTOR_FLAG.name, NO_INSPECTOR[0]))
    return plugin_entry(options.socket, no_inspector, timeout_s * 1000)


def config_file(given: Path | None) -> Path:
    """The openclaw.json OpenClaw reads: --config, else $OPENCLAW_CONFIG_PATH, else
    $OPENCLAW_STATE_DIR/openclaw.json, else ~/.openclaw/openclaw.json."""
    if given is not None:
        return given
    if os.environ.get("OPENCLAW_CONFIG_PATH"):
        return Path(os.environ["OPENCLAW_CONFIG_PATH"])
    if os.environ.get("OPENCLAW_STATE_DIR"):
        return Path(os.environ["OPENCLAW_STATE_DIR"]) / CONFIG_NAME
    return Path.home() / STATE_DIR / CONFIG_NAME


def plugin_entry(socket: Path | None, no_inspector: str, timeout_ms: int) -> JSONObject:
    """The plugin's `plugins.entries` entry."""
    config: JSONObject = {"noInspector": no_inspector, "timeoutMs": timeout_ms}
    if socket is not None:
        config["socket"] = str(socket.absolute())
    return {"enabled": True, "hooks": {"allowConversationAccess": True}, "config": config}


def snippet(entry: JSONObject) -> str:
    """What install adds, for a person to put in by hand."""
    plugins = {"load": {"paths": [str(PLUGIN_FOLDER)]}, "entries": {PLUGIN_ID: entry}}
    return json.dumps({"plugins": plugins}, indent=2, ensure_ascii=False)


def install(file: Path, entry: JSONObject) -> str:
    """Add the bridge plugin to `file`; returns what was done, for the user."""
    doc, settings = _read(file, entry)
    # the file as it was before the first install, not as an earlier install left it
    keep_as_it_was = doc is not None and not _take_out(copy.deepcopy(settings), {})
    plugins = _object(doc, settings, ("plugins",))
    load = _object(doc, plugins, ("plugins", "load"))
    paths = _list(doc, load, ("plugins", "load", "paths"))
    if str(PLUGIN_FOLDER) not in paths:
        paths.append(str(PLUGIN_FOLDER))
    allow = plugins.get("allow")
    if isinstance(allow, list) and PLUGIN_ID not in allow:
        allow.append(PLUGIN_ID)
    _object(doc, plugins, ("plugins", "entries"))[PLUGIN_ID] = entry
    saved = Backup(file).keep() if keep_as_it_was else None  # beside the path named, a link or not
    target = write_through(file, json_text(settings))
    where = f" (the file as it was: {saved})" if saved else ""
    link = through_link(file, target)
    return f"the bridge plugin is in {file}{where}{link}; restart the Gateway to load it"


def uninstall(file: Path) -> str:
    """Take the bridge plugin out of `file`; returns what was done, for the user."""
    if not file.exists():
        return f"{file} does not exist: nothing to take out"
    _doc, settings = _read(file, None)
    backup = Backup(file)
    before = json_object(backup.content())
    if not _take_out(settings, before):
        return f"the bridge plugin is not in {file}: nothing taken out"
    return write_back(file, settings, backup, "the bridge plugin", "the bridge plugin")


def _take_out(settings: JSONObject, before: JSONObject) -> bool:
    """Remove what install added; objects and lists it leaves empty go too, unless the file
    had them before install. Whether there was anything to remove."""
    plugins = settings.get("plugins")
    if not isinstance(plugins, dict):
        return False
    had = _object_at(before, "plugins")
    found = False
    entries = plugins.get("entries")
    if isinstance(entries, dict) and PLUGIN_ID in entries:
        del entries[PLUGIN_ID]
        found = True
        _drop_if_empty(plugins, "entries", had)
    load = plugins.get("load")
    paths = load.get("paths") if isinstance(load, dict) else None
    if isinstance(load, dict) and isinstance(paths, list) and str(PLUGIN_FOLDER) in paths:
        paths.remove(str(PLUGIN_FOLDER))
        found = True
        _drop_if_empty(load, "paths", _object_at(had, "load"))
        _drop_if_empty(plugins, "load", had)
    allow = plugins.get("allow")
    if isinstance(allow, list) and PLUGIN_ID in allow and PLUGIN_ID not in had.get("allow", []):
        allow.remove(PLUGIN_ID)
    if found:
        _drop_if_empty(settings, "plugins", before)
    return found


def _object_at(parent: JSONObject, key: str) -> JSONObject:
    value = parent.get(key)
    return value if isinstance(value, dict) else {}


def _drop_if_empty(parent: JSONObject, key: str, before: JSONObject) -> None:
    if not parent.get(key) and key not in before:
        del parent[key]


def _read(file: Path, entry: JSONObject | None) -> tuple[Document | None, JSONObject]:
    """The file's document (None when there is no file) and its settings. A file that is not
    plain JSON is refused with the snippet to add by hand (`entry`: install's)."""
    if not file.exists():
        return None, {}
    try:
        doc = parse_json(str(file), read_config_text(file))
    except ConfigError as error:
        hint = (
            "; OpenClaw reads JSON5 too (comments, trailing commas), but hook-inspector changes"
            " only plain JSON"
        )
        if entry is not None:
            hint += f". Add this by hand:\n{snippet(entry)}"
        raise ConfigError(error.file, error.message + hint, line=error.line) from None
    if not isinstance(doc.data, dict):
        raise doc.error((), f"the top level must be a JSON object, got {describe(doc, doc.data)}")
    return doc, doc.data


def _object(doc: Document | None, parent: JSONObject, path: tuple[str, ...]) -> JSONObject:
    value = parent.setdefault(path[-1], {})
    if not isinstance(value, dict):
        assert doc is not None
        raise doc.error(path, f"expected an object, got {describe(doc, value)}")
    return value


def _list(doc: Document | None, parent: JSONObject, path: tuple[str, ...]) -> list[Any]:
    value = parent.setdefault(path[-1], [])
    if not isinstance(value, list):
        assert doc is not None
        raise doc.error(path, f"expected a list of folders, got {describe(doc, value)}")
    return value


INSTALLER = OpenClawInstaller()
