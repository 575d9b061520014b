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
from inspector.hosts.registry import NATIVE, command_events, host_of_path

NATIVE_SUFFIXES = (".yaml", ".yml")


def load_config(path: str | Path) -> Config:
    """Load a native YAML config, PicoClaw's config.json, a j-cli hooks folder or a Claude Code
    settings file (or a project folder holding either); anything wrong is a ConfigError."""
    file = str(path)
    config_path = Path(os.path.abspath(path))
    host = host_of_path(config_path)
    if host is not None:
        return host.load(config_path)
    if config_path.is_dir():
        message = "a folder must hold .claude/settings.json or .jcli/hooks (or be a hooks folder)"
        raise ConfigError(file, message)
    if config_path.suffix.lower() not in NATIVE_SUFFIXES:
        message = "unsupported file type: use .yaml or .yml (native) or .json (PicoClaw)"
        raise ConfigError(file, message)
    document = parse_yaml(file, read_config_text(config_path, file))
    return read_native(document, config_path, command_events(), NATIVE.name)
