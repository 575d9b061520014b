"""Read an OpenClaw plugin folder as OpenClaw finds it: openclaw.plugin.json (id, configSchema)
and package.json's openclaw.extensions entry, plus the plugin's entry in an optional
openclaw.json beside them (plugins.entries.<id>: config, hooks.allowConversationAccess,
hooks.timeouts), into the Config's PluginFolder. Anything wrong is a ConfigError naming the
file, line and key."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from inspector.config.document import Document
from inspector.config.errors import ConfigError
from inspector.config.files import read_config_text
from inspector.config.parse import parse_json
from inspector.config.plugin_folder import PluginFolder

MANIFEST = "openclaw.plugin.json"
PACKAGE = "package.json"
SETTINGS = "openclaw.json"  # optional: the Gateway config's entry for this plugin
SOURCE_SUFFIXES = frozenset({".js", ".mjs", ".cjs", ".json"})
SKIPPED_FOLDERS = frozenset({"node_modules", ".git"})


def is_plugin_folder(path: Path) -> bool:
    return path.is_dir() and (path / MANIFEST).is_file()


def read_plugin(folder: Path) -> PluginFolder:
    manifest = _document(folder / MANIFEST)
    plugin_id = manifest.data.get("id") if isinstance(manifest.data, dict) else None
    if not isinstance(manifest.data, dict):
        raise manifest.error((), "must be a JSON object")
    if not isinstance(plugin_id, str) or not plugin_id:
        raise manifest.error(("id",), "the plugin id is required (a non-empty string)")
    if not isinstance(manifest.data.get("configSchema"), dict):
        raise manifest.error(("configSchema",), "required by OpenClaw (a JSON Schema object)")
    entry = _entry(folder)
    settings = _settings(folder, plugin_id)
    name = manifest.data.get("name")
    return PluginFolder(
        id=plugin_id,
        folder=folder,
        entry=entry,
        name=name if isinstance(name, str) else plugin_id,
        config=settings.get("config", {}),
        allow_conversation_access=settings.get("allowConversationAccess", False),
        timeouts=tuple(sorted(settings.get("timeouts", {}).items())),
        files=_source_files(folder),
    )


def _document(path: Path) -> Document:
    return parse_json(str(path), read_config_text(path))


def _entry(folder: Path) -> Path:
    package = _document(folder / PACKAGE) if (folder / PACKAGE).is_file() else None
    if package is None:
        raise ConfigError(str(folder / PACKAGE), "missing: OpenClaw finds the entry in it")
    openclaw = package.data.get("openclaw") if isinstance(package.data, dict) else None
    extensions = openclaw.get("extensions") if isinstance(openclaw, dict) else None
    key = ("openclaw", "extensions")
    if not isinstance(extensions, list) or not extensions:
        raise package.error(key, 'must list the entry, e.g. ["./index.js"]')
    first = extensions[0]
    if not isinstance(first, str):
        raise package.error((*key, 0), "must be a path string")
    entry = (folder / first).resolve()
    if not entry.is_file():
        raise package.error((*key, 0), f"no such file: {first}")
    return entry


def _settings(folder: Path, plugin_id: str) -> dict[str, Any]:
    """plugins.entries.<id> of an openclaw.json in the folder: what the operator set."""
    path = folder / SETTINGS
    if not path.is_file():
        return {}
    doc = _document(path)
    key: tuple[str | int, ...] = ("plugins", "entries", plugin_id)
    entry: Any = doc.data
    for part in key:
        entry = entry.get(part) if isinstance(entry, dict) else None
    if entry is None:
        return {}
    if not isinstance(entry, dict):
        raise doc.error(key, "must be an object")
    hooks = entry.get("hooks", {})
    if not isinstance(hooks, dict):
        raise doc.error((*key, "hooks"), "must be an object")
    access = hooks.get("allowConversationAccess", False)
    if not isinstance(access, bool):
        raise doc.error((*key, "hooks", "allowConversationAccess"), "must be true or false")
    timeouts = hooks.get("timeouts", {})
    if not isinstance(timeouts, dict) or not all(
        isinstance(ms, int) and not isinstance(ms, bool) and 0 < ms <= 600000
        for ms in timeouts.values()
    ):
        message = "must map hook names to milliseconds (1 to 600000)"
        raise doc.error((*key, "hooks", "timeouts"), message)
    config = entry.get("config", {})
    if not isinstance(config, dict):
        raise doc.error((*key, "config"), "must be an object")
    return {"config": config, "allowConversationAccess": access, "timeouts": timeouts}


def _source_files(folder: Path) -> tuple[Path, ...]:
    files = []
    for path in sorted(folder.rglob("*")):
        inside = path.relative_to(folder).parts
        if SKIPPED_FOLDERS.intersection(inside):
            continue
        if path.is_file() and path.suffix in SOURCE_SUFFIXES:
            files.append(path)
    return tuple(files)
