"""Read any supported config file into a Config, choosing the format by the file's suffix."""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from inspector.config.claude import read_claude
from inspector.config.document import Document
from inspector.config.errors import ConfigError
from inspector.config.files import read_config_text
from inspector.config.jcli import read_jcli
from inspector.config.model import Config
from inspector.config.native import read_native
from inspector.config.parse import parse_json, parse_yaml
from inspector.config.picoclaw import read_picoclaw

CLAUDE_DIR = ".claude"
JCLI_DIR = ".jcli"

Reader = tuple[Callable[[str, str], Document], Callable[[Document, Path], Config]]
READERS: dict[str, Reader] = {
    ".json": (parse_json, read_picoclaw),
    ".yaml": (parse_yaml, read_native),
    ".yml": (parse_yaml, read_native),
}


def load_config(path: str | Path) -> Config:
    """Load a native YAML config, PicoClaw's config.json, a j-cli hooks folder or a Claude Code
    settings file (or a project folder holding either); anything wrong is a ConfigError."""
    file = str(path)
    config_path = Path(os.path.abspath(path))
    host = host_of_path(config_path)
    if host == "claude":
        claude = read_claude(config_path)
        return replace(
            claude.config,
            warnings=claude.warnings,
            files=claude.files,
            workdir=claude.project_dir,
        )
    if host == "jcli":
        jcli = read_jcli(config_path)
        return replace(jcli.config, warnings=jcli.warnings, files=jcli.files, workdir=jcli.cwd)
    if config_path.is_dir():
        message = "a folder must hold .claude/settings.json or .jcli/hooks (or be a hooks folder)"
        raise ConfigError(file, message)
    reader = READERS.get(config_path.suffix.lower())
    if reader is None:
        message = "unsupported file type: use .yaml or .yml (native) or .json (PicoClaw)"
        raise ConfigError(file, message)
    parse, read = reader
    return read(parse(file, read_config_text(config_path, file)), config_path)


def host_of_path(path: Path) -> str | None:
    """Which command-hook host a path belongs to, from where it sits: "claude", "jcli" or None
    (a native or PicoClaw file)."""
    if path.is_dir():
        if path.name == CLAUDE_DIR or (path / CLAUDE_DIR).is_dir():
            return "claude"
        if path.name == JCLI_DIR or (path / JCLI_DIR).is_dir() or _holds_hook_folders(path):
            return "jcli"
        return None
    if path.parent.name == CLAUDE_DIR and path.suffix == ".json":
        return "claude"
    if path.name in ("hooks.yaml", "HOOK.yaml", "HOOK.yml") and (
        path.parent.name in (JCLI_DIR, "agent") or path.name.startswith("HOOK")
    ):
        return "jcli"
    return None


def _holds_hook_folders(path: Path) -> bool:
    return any(
        (child / "HOOK.yaml").is_file() or (child / "HOOK.yml").is_file()
        for child in path.iterdir()
        if child.is_dir()
    )
