"""Hook configs: native YAML and PicoClaw's config.json, read into one Config."""

from inspector.config.errors import ConfigError
from inspector.config.load import load_config
from inspector.config.model import Config, Defaults, HookSpec

__all__ = ["Config", "ConfigError", "Defaults", "HookSpec", "load_config"]
