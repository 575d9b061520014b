"""Read any supported config into a Config: the host that recognises the path reads it, and a
native YAML file (which may hold any host's hooks) is read here."""

from __future__ import annotations

import os
from pathlib import Path

from inspector.config.errors import ConfigError
from inspector.config.files import read_config_text
from inspector.config.model import Config
from inspector.config.native import read_native
from inspector.config.parse import parse_yaml
from inspector.hosts.registry import HOSTS, NATIVE, command_events, host_of_path

NATIVE_SUFFIXES = (".yaml", ".yml")


def load_config(path: str | Path) -> Config:
    """Load a native YAML config, PicoClaw's config.json, or any other host's config (a project
    folder, or the settings or hooks file or folder it holds); anything wrong is a ConfigError."""
    file = str(path)
    config_path = Path(os.path.abspath(path))
    host = host_of_path(config_path)
    if host is not None:
        return host.load(config_path)
    if config_path.is_dir():
        kinds = "a project, hooks, settings or plugin folder"
        raise ConfigError(file, f"a folder must be {kinds} of one of: {_folder_hosts()}")
    if config_path.suffix.lower() not in NATIVE_SUFFIXES:
        message = "unsupported file type: use .yaml or .yml (native) or .json (PicoClaw)"
        raise ConfigError(file, message)
    document = parse_yaml(file, read_config_text(config_path, file))
    return read_native(document, config_path, command_events(), NATIVE.name)


def _folder_hosts() -> str:
    """The hosts whose config may be a folder; the native host's is a file."""
    return ", ".join(host.label for host in HOSTS if host is not NATIVE)
