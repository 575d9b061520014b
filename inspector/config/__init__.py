"""The one Config shape every host's files are read into, and the readers they share."""

from inspector.config.errors import ConfigError
from inspector.config.model import Config, Defaults, HookSpec

__all__ = ["Config", "ConfigError", "Defaults", "HookSpec"]
