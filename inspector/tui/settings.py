"""The user's settings.yaml, read leniently: each bad part is reported and skipped."""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Collection
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

import yaml

from inspector.config.checks import did_you_mean
from inspector.config.document import Document, KeyPath
from inspector.config.errors import ConfigError
from inspector.config.fields import want_map, want_str
from inspector.config.files import read_config_text
from inspector.config.parse import parse_yaml
from inspector.config.yaml_loader import GuardedLoader

SETTINGS_DIR_ENV = "HOOK_INSPECTOR_CONFIG_DIR"
SETTINGS_FILE = "settings.yaml"
_KEYS = ("theme", "keymap", "theme_dir")
_THEME_LINE = re.compile(r"""(?:theme|"theme"|'theme')[ \t]*:(?P<value>.*)""")

T = TypeVar("T")


@dataclass(frozen=True)
class Settings:
    theme: str | None
    """The theme chosen last, or None for the app's default."""
    keymap: dict[str, str]
    """Binding id -> keys, for `App.set_keymap`."""
    user_theme_dir: Path
    """Where the user's own theme files live."""


def settings_dir() -> Path:
    """$HOOK_INSPECTOR_CONFIG_DIR, else $XDG_CONFIG_HOME/hook-inspector, else ~/.config/..."""
    if override := os.environ.get(SETTINGS_DIR_ENV):
        return Path(override).expanduser()
    xdg = os.environ.get("XDG_CONFIG_HOME", "")
    base = Path(xdg) if os.path.isabs(xdg) else Path.home() / ".config"
    return base / "hook-inspector"


def default_settings(directory: Path) -> Settings:
    return Settings(theme=None, keymap={}, user_theme_dir=directory / "themes")


def load_settings(
    directory: Path, binding_ids: Collection[str] | None = None
) -> tuple[Settings, list[str]]:
    """The settings in `directory`, and one message per problem; never raises.

    A file that cannot be read or parsed gives the defaults; a bad key keeps its default. A
    keymap entry whose id is not in `binding_ids` (when given) is reported and left out.
    """
    path = directory / SETTINGS_FILE
    defaults = default_settings(directory)
    if not os.path.lexists(path):
        return defaults, []
    try:
        text = read_config_text(path)
        if _is_blank(text):
            return defaults, []
        doc = parse_yaml(str(path), text)
        data = want_map(doc, (), doc.data)
    except ConfigError as error:
        return defaults, [f"{error} (using default settings)"]

    errors: list[ConfigError] = []
    for key in data:
        if key not in _KEYS:
            errors.append(doc.error((key,), f'unknown setting "{key}"{did_you_mean(key, _KEYS)}'))
    theme = _read(doc, data, "theme", _want_theme, None, errors)
    entries: dict[str, object] = _read(doc, data, "keymap", want_map, {}, errors)
    keymap = _keymap(doc, entries, binding_ids, errors)
    theme_dir = _read(doc, data, "theme_dir", want_str, "", errors)
    user_theme_dir = defaults.user_theme_dir
    if theme_dir:  # relative to the settings folder; `/` keeps an absolute path as it is
        user_theme_dir = directory / Path(theme_dir).expanduser()
    errors.sort(key=lambda error: error.line or 0)
    return Settings(theme, keymap, user_theme_dir), [f"{error} (ignored)" for error in errors]


def save_theme(directory: Path, name: str) -> str | None:
    """Set `theme:` in the settings file, leaving every other line as it was.

    Returns a message when the theme could not be saved; never raises.
    """
    path = directory / SETTINGS_FILE
    try:
        text = read_config_text(path) if os.path.lexists(path) else ""
    except ConfigError as error:
        return f"{error} (theme not saved)"
    updated = _with_theme(text, name)
    try:
        saved = yaml.load(updated, Loader=GuardedLoader)
    except Exception:  # PyYAML raises ValueError and others on bad tags, not only YAMLError
        saved = None
    if not isinstance(saved, dict) or saved.get("theme") != name:
        return f"{path}: cannot update the file, it is not plain YAML settings (theme not saved)"
    try:
        directory.mkdir(parents=True, exist_ok=True)
        # Written in place rather than renamed over, so a symlinked settings file stays a symlink.
        path.write_text(updated, encoding="utf-8")
    except OSError as error:
        return f"{path}: cannot write the file: {error} (theme not saved)"
    return None


def _read(
    doc: Document,
    data: dict[str, object],
    key: str,
    want: Callable[[Document, KeyPath, object], T],
    default: T,
    errors: list[ConfigError],
) -> T:
    if key not in data:
        return default
    try:
        return want(doc, (key,), data[key])
    except ConfigError as error:
        errors.append(error)
        return default


def _want_theme(doc: Document, path: KeyPath, value: object) -> str | None:
    """A theme name; null or empty means no choice."""
    return None if value is None else want_str(doc, path, value).strip() or None


def _keymap(
    doc: Document,
    entries: dict[str, object],
    binding_ids: Collection[str] | None,
    errors: list[ConfigError],
) -> dict[str, str]:
    """The entries that name keys of known bindings; each bad one is reported and left out."""
    keymap: dict[str, str] = {}
    for binding_id, keys in entries.items():
        path = ("keymap", binding_id)
        try:
            if binding_ids is not None and binding_id not in binding_ids:
                close = did_you_mean(binding_id, sorted(binding_ids))
                raise doc.error(path, f'unknown binding id "{binding_id}"{close}')
            text = want_str(doc, path, keys).strip()
            if not text:
                raise doc.error(path, "no keys given")
        except ConfigError as error:
            errors.append(error)
        else:
            keymap[binding_id] = text
    return keymap


def _is_blank(text: str) -> bool:
    """Only blank lines and comments, which YAML reads as no document at all."""
    return all(not line.strip() or line.lstrip().startswith("#") for line in text.splitlines())


def _with_theme(text: str, name: str) -> str:
    """`text` with its top-level theme entry replaced (keeping a trailing comment) or appended."""
    entry = yaml.safe_dump({"theme": name}, allow_unicode=True, width=10_000).rstrip("\n")
    lines = text.splitlines(keepends=True)
    for index, line in enumerate(lines):
        match = _THEME_LINE.fullmatch(line.rstrip("\r\n"))
        if match:
            end = index + 1
            while end < len(lines) and _continues_value(lines[end]):
                end += 1
            comment = re.search(r"\s+#.*", match["value"])
            ending = line[len(line.rstrip("\r\n")) :] or "\n"
            lines[index:end] = [entry + (comment[0] if comment else "") + ending]
            return "".join(lines)
    separator = "\n" if text and not text.endswith("\n") else ""
    return text + separator + entry + "\n"


def _continues_value(line: str) -> bool:
    """An indented line with content: part of the value of the key above it."""
    stripped = line.strip()
    return line[:1] in (" ", "\t") and bool(stripped) and not stripped.startswith("#")
