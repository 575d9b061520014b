"""YAML themes, bundled and the user's: checked before registering, so a bad file is skipped."""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import cache
from importlib.resources import files
from pathlib import Path

from textual.color import Color, ColorParseError
from textual.css.stylesheet import Stylesheet, StylesheetParseError
from textual.css.tokenizer import TokenError
from textual.design import ColorSystem
from textual.theme import Theme

from inspector.config.checks import did_you_mean
from inspector.config.document import Document, KeyPath
from inspector.config.errors import ConfigError
from inspector.config.fields import want_bool, want_map, want_str
from inspector.config.files import read_config_text
from inspector.config.parse import parse_yaml

# The app's own theme variables. These fallbacks serve themes that do not set them (Textual's
# built-in ones), so they are mid-tones that stay readable on both dark and light backgrounds.
THEME_VARIABLE_DEFAULTS: dict[str, str] = {
    "finding-error": "#D9363E",
    "finding-warning": "#A86A00",
    "finding-info": "#2A7BC4",
    "status-held": "#9656CC",
}

THEME_SUFFIXES = (".yaml", ".yml")


def bundled_theme_dir() -> Path | None:
    """The themes/ folder: inside the installed package, or at the repository root in a checkout."""
    installed = files("inspector") / "themes"
    if installed.is_dir():  # a wheel install, where themes/ is force-included as inspector/themes
        return Path(str(installed))
    checkout = Path(__file__).resolve().parents[2] / "themes"
    return checkout if checkout.is_dir() else None


def load_themes(user_dir: Path | None) -> tuple[list[Theme], list[str]]:
    """Bundled themes, then the user's (which replace a bundled theme of the same name).

    Returns the themes and one message per file that could not be used; never raises.
    """
    themes: dict[str, Theme] = {}
    failures: list[str] = []
    for folder in (bundled_theme_dir(), user_dir):
        for path in _theme_files(folder, failures):
            try:
                theme = load_theme_file(path)
            except ConfigError as error:
                failures.append(f"{error} (theme skipped)")
            else:
                themes[theme.name] = theme
    return list(themes.values()), failures


def _theme_files(folder: Path | None, failures: list[str]) -> list[Path]:
    if folder is None or not folder.is_dir():
        return []
    try:
        # Not only regular files: a FIFO or device named like a theme is reported, not skipped.
        return sorted(p for p in folder.iterdir() if p.suffix in THEME_SUFFIXES and not p.is_dir())
    except OSError as error:
        failures.append(f"{folder}: cannot list themes: {error.strerror or error}")
        return []


def load_theme_file(path: Path) -> Theme:
    """One theme file; the name defaults to the file's stem. Raises ConfigError."""
    text = read_config_text(path)
    return theme_from_document(parse_yaml(str(path), text), default_name=path.stem)


def theme_from_document(doc: Document, *, default_name: str) -> Theme:
    data = want_map(doc, (), doc.data)
    values: dict[str, object] = {"name": default_name}
    for key, value in data.items():
        want = _FIELDS.get(key)
        if want is None:
            raise doc.error((key,), f'unknown theme key "{key}"{did_you_mean(key, _FIELDS)}')
        values[key] = want(doc, (key,), value)
    if "primary" not in values:
        raise doc.error((), 'a theme needs a "primary" colour')
    return Theme(**values)  # type: ignore[arg-type]


def _want_name(doc: Document, path: KeyPath, value: object) -> str:
    name = want_str(doc, path, value).strip()
    if not name:
        raise doc.error(path, "the theme name is empty")
    return name


def _want_colour(doc: Document, path: KeyPath, value: object) -> str:
    if value is None:
        raise doc.error(path, 'expected a colour, got null (quote colours that start with "#")')
    text = want_str(doc, path, value)
    try:
        Color.parse(text)
    except ColorParseError:
        raise doc.error(path, f"{json.dumps(text)} is not a colour") from None
    return text


def _want_fraction(doc: Document, path: KeyPath, value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 1:
        raise doc.error(path, "expected a number from 0 to 1")
    return float(value)


def _want_variables(doc: Document, path: KeyPath, value: object) -> dict[str, str]:
    variables = want_map(doc, path, value)
    return {name: _want_variable(doc, (*path, name), text) for name, text in variables.items()}


def _want_variable(doc: Document, path: KeyPath, value: object) -> str:
    """A variable Textual or the app knows, with a value its CSS can use (a bad one crashes it)."""
    name = str(path[-1])
    known = _known_variables()
    if name not in known:
        raise doc.error(path, f'unknown theme variable "{name}"{did_you_mean(name, known)}')
    if _is_colour(known[name]):
        return _want_colour(doc, path, value)
    text = want_str(doc, path, value)
    # The rest are text styles or "auto 87%"-like colours: check them the way CSS will read them.
    rule = "text-style" if "-style" in name else "color"
    stylesheet = Stylesheet(variables={"value": text})
    stylesheet.add_source(f"Screen {{ {rule}: $value; }}")
    try:
        stylesheet.parse()
    except (StylesheetParseError, TokenError):
        raise doc.error(path, f"{json.dumps(text)} is not a valid {rule} value") from None
    return text


@cache
def _known_variables() -> dict[str, str]:
    """Every theme variable with a sample value; the sample tells what kind of value it takes."""
    return ColorSystem(primary="#808080").generate() | THEME_VARIABLE_DEFAULTS


def _is_colour(text: str) -> bool:
    try:
        Color.parse(text)
    except ColorParseError:
        return False
    return True


_FIELDS: dict[str, Callable[[Document, KeyPath, object], object]] = {
    "name": _want_name,
    "primary": _want_colour,
    "secondary": _want_colour,
    "warning": _want_colour,
    "error": _want_colour,
    "success": _want_colour,
    "accent": _want_colour,
    "foreground": _want_colour,
    "background": _want_colour,
    "surface": _want_colour,
    "panel": _want_colour,
    "boost": _want_colour,
    "dark": want_bool,
    "ansi": want_bool,
    "luminosity_spread": _want_fraction,
    "text_alpha": _want_fraction,
    "variables": _want_variables,
}
