"""Themes (bundled and user), the settings file, and the help screen."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.app import App, ComposeResult
from textual.color import Color
from textual.widgets import Markdown, Static

from inspector.tui.screens.help import HelpScreen, keys_markdown
from inspector.tui.settings import (
    SETTINGS_DIR_ENV,
    SETTINGS_FILE,
    Settings,
    load_settings,
    save_theme,
    settings_dir,
)
from inspector.tui.themes import THEME_VARIABLE_DEFAULTS, bundled_theme_dir, load_themes

BUNDLED = {"inspector-dark", "inspector-light", "midnight", "solarized-ish"}


class ThemedApp(App[None]):
    """Uses every app variable in CSS, as the real app does, so a bad value fails the test."""

    CSS = """
    Static {
        color: $finding-error;
        background: $finding-warning 20%;
        border: solid $finding-info;
        outline: solid $status-held;
    }
    """

    def get_theme_variable_defaults(self) -> dict[str, str]:
        return dict(THEME_VARIABLE_DEFAULTS)

    def compose(self) -> ComposeResult:
        yield Static("finding")


def make_app() -> ThemedApp:
    app = ThemedApp()
    app.theme = "textual-dark"
    app.animation_level = "none"
    return app


def write(folder: Path, name: str, text: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def contrast(one: str, two: str) -> float:
    """WCAG contrast ratio of two colours."""

    def luminance(text: str) -> float:
        def channel(value: int) -> float:
            c = value / 255
            return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

        color = Color.parse(text)
        return 0.2126 * channel(color.r) + 0.7152 * channel(color.g) + 0.0722 * channel(color.b)

    high, low = sorted((luminance(one), luminance(two)), reverse=True)
    return (high + 0.05) / (low + 0.05)


# ---- themes --------------------------------------------------------------------------------


def test_bundled_themes_load_without_failures() -> None:
    themes, failures = load_themes(None)
    assert failures == []
    assert {theme.name for theme in themes} == BUNDLED
    assert [theme.name for theme in themes if not theme.dark] == ["inspector-light"]
    folder = bundled_theme_dir()
    assert folder is not None
    assert {path.stem for path in folder.glob("*.yaml")} == BUNDLED


def test_bundled_themes_set_app_variables_with_readable_contrast() -> None:
    themes, _ = load_themes(None)
    for theme in themes:
        assert set(THEME_VARIABLE_DEFAULTS) <= set(theme.variables), theme.name
        assert theme.background is not None and theme.foreground is not None
        for text in [theme.foreground, *(theme.variables[v] for v in THEME_VARIABLE_DEFAULTS)]:
            assert contrast(text, theme.background) >= 4.5, (theme.name, text)


async def test_bundled_themes_register_and_apply() -> None:
    themes, _ = load_themes(None)
    app = make_app()
    async with app.run_test() as pilot:
        for theme in themes:
            app.register_theme(theme)
            app.theme = theme.name
            await pilot.pause()
            variables = app.get_css_variables()
            assert variables["finding-error"] == theme.variables["finding-error"]
            assert variables["status-held"] == theme.variables["status-held"]
        app.theme = "nord"  # a built-in theme falls back to the app's defaults
        await pilot.pause()
        assert app.get_css_variables()["finding-info"] == THEME_VARIABLE_DEFAULTS["finding-info"]


async def test_user_theme_is_added_and_named_after_its_file(tmp_path: Path) -> None:
    write(tmp_path, "mine.yml", 'primary: "#336699"\ndark: false\n')
    write(tmp_path, "notes.txt", "not a theme")
    themes, failures = load_themes(tmp_path)
    assert failures == []
    mine = next(theme for theme in themes if theme.name == "mine")
    assert mine.primary == "#336699" and mine.dark is False
    app = make_app()
    async with app.run_test() as pilot:
        app.register_theme(mine)
        app.theme = "mine"
        await pilot.pause()
        assert app.current_theme.primary == "#336699"
        assert app.get_css_variables()["finding-error"] == THEME_VARIABLE_DEFAULTS["finding-error"]


def test_user_theme_replaces_a_bundled_theme_of_the_same_name(tmp_path: Path) -> None:
    write(tmp_path, "mine.yaml", 'name: midnight\nprimary: "#112233"\n')
    themes, failures = load_themes(tmp_path)
    assert failures == []
    assert [theme.primary for theme in themes if theme.name == "midnight"] == ["#112233"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("primary: red\n  dark: true\n", "broken.yaml:2: invalid YAML: mapping values"),
        ('primary: "#12345z"\n', 'broken.yaml:1: primary: "#12345z" is not a colour'),
        ("primary: #123456\n", "primary: expected a colour, got null"),
        (
            'primary: "#123456"\nbackgroud: "#000000"\n',
            "broken.yaml:2: backgroud: unknown theme key",
        ),
        ("secondary: red\n", 'needs a "primary" colour'),
        ('primary: red\ndark: "no"\n', "dark: expected true or false"),
        ("primary: red\ntext_alpha: 2\n", "text_alpha: expected a number from 0 to 1"),
        ("- primary\n", "expected a map, got a list"),
        ("primary: red\nvariables:\n  finding-eror: red\n", 'did you mean "finding-error"'),
        ("primary: red\nvariables:\n  status-held: auto 87%\n", '"auto 87%" is not a colour'),
        (
            "primary: red\nvariables:\n  footer-key-foreground: notacolour\n",
            'variables.footer-key-foreground: "notacolour" is not a colour',
        ),
        (
            "primary: red\nvariables:\n  block-cursor-text-style: shiny\n",
            '"shiny" is not a valid text-style value',
        ),
    ],
)
def test_broken_user_theme_is_reported_by_file_and_skipped(
    tmp_path: Path, text: str, expected: str
) -> None:
    write(tmp_path, "good.yaml", "primary: red\n")
    broken = write(tmp_path, "broken.yaml", text)
    themes, failures = load_themes(tmp_path)
    assert [theme.name for theme in themes if theme.name not in BUNDLED] == ["good"]
    assert len(failures) == 1
    assert str(broken) in failures[0]
    assert expected in failures[0]


def test_theme_variables_in_textual_formats_are_accepted(tmp_path: Path) -> None:
    write(
        tmp_path,
        "styled.yaml",
        "primary: red\nvariables:\n  text-muted: auto 50%\n  block-cursor-text-style: b reverse\n"
        "  link-style-hover: bold\n",
    )
    themes, failures = load_themes(tmp_path)
    assert failures == []
    styled = next(theme for theme in themes if theme.name == "styled")
    assert styled.variables["block-cursor-text-style"] == "b reverse"


def test_missing_user_theme_dir_is_not_a_problem(tmp_path: Path) -> None:
    themes, failures = load_themes(tmp_path / "absent")
    assert failures == []
    assert {theme.name for theme in themes} == BUNDLED


# ---- settings ------------------------------------------------------------------------------


def test_settings_dir_comes_from_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(SETTINGS_DIR_ENV, str(tmp_path / "conf"))
    assert settings_dir() == tmp_path / "conf"
    monkeypatch.delenv(SETTINGS_DIR_ENV)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    assert settings_dir() == tmp_path / "xdg" / "hook-inspector"


def test_missing_settings_file_gives_defaults(tmp_path: Path) -> None:
    assert load_settings(tmp_path) == (Settings(None, {}, tmp_path / "themes"), [])


def test_comment_only_settings_file_gives_defaults(tmp_path: Path) -> None:
    write(tmp_path, SETTINGS_FILE, "# theme: midnight\n\n")
    assert load_settings(tmp_path) == (Settings(None, {}, tmp_path / "themes"), [])


def test_valid_settings_file(tmp_path: Path) -> None:
    write(
        tmp_path,
        SETTINGS_FILE,
        "theme: midnight\nkeymap:\n  app.quit: ctrl+q\n  app.resend: r,ctrl+r\ntheme_dir: mine\n",
    )
    settings, problems = load_settings(tmp_path)
    assert problems == []
    assert settings == Settings(
        theme="midnight",
        keymap={"app.quit": "ctrl+q", "app.resend": "r,ctrl+r"},
        user_theme_dir=tmp_path / "mine",
    )


def test_broken_settings_yaml_gives_defaults_and_names_the_line(tmp_path: Path) -> None:
    path = write(tmp_path, SETTINGS_FILE, "theme: midnight\nkeymap:\n  app.quit: [ctrl+q\n")
    settings, problems = load_settings(tmp_path)
    assert settings == Settings(None, {}, tmp_path / "themes")
    assert len(problems) == 1
    assert problems[0].startswith(f"{path}:4: invalid YAML")
    assert problems[0].endswith("(using default settings)")


def test_settings_that_are_not_a_map_give_defaults(tmp_path: Path) -> None:
    write(tmp_path, SETTINGS_FILE, "- midnight\n")
    settings, problems = load_settings(tmp_path)
    assert settings.theme is None
    assert problems == [
        f"{tmp_path / SETTINGS_FILE}:1: expected a map, got a list (using default settings)"
    ]


def test_unknown_keys_and_wrong_types_are_reported_and_the_rest_kept(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        SETTINGS_FILE,
        "\n".join(
            [
                "theme: midnight",
                "keymap:",
                "  app.quit: 3",
                "  app.help: ''",
                "  app.resend: ctrl+r",
                "theme_dir: [a, b]",
                "them: midnight",
                "",
            ]
        ),
    )
    settings, problems = load_settings(tmp_path)
    assert settings == Settings("midnight", {"app.resend": "ctrl+r"}, tmp_path / "themes")
    assert problems == [
        f"{path}:3: keymap.app.quit: expected a string, got an integer (3)"
        " (quote it to make it a string) (ignored)",
        f"{path}:4: keymap.app.help: no keys given (ignored)",
        f"{path}:6: theme_dir: expected a string, got a list (ignored)",
        f'{path}:7: them: unknown setting "them" (did you mean "theme"?) (ignored)',
    ]


def test_keymap_that_is_not_a_map_is_ignored(tmp_path: Path) -> None:
    write(tmp_path, SETTINGS_FILE, "theme: midnight\nkeymap: ctrl+q\n")
    settings, problems = load_settings(tmp_path)
    assert settings.theme == "midnight" and settings.keymap == {}
    assert len(problems) == 1 and ":2: keymap: expected a map" in problems[0]


def test_save_theme_creates_the_file(tmp_path: Path) -> None:
    folder = tmp_path / "new"
    assert save_theme(folder, "midnight") is None
    assert (folder / SETTINGS_FILE).read_text() == "theme: midnight\n"
    assert load_settings(folder)[0].theme == "midnight"


def test_save_theme_keeps_everything_else(tmp_path: Path) -> None:
    original = (
        "# my settings\n"
        "keymap:\n"
        "  app.quit: ctrl+q  # not q\n"
        "theme:   midnight  # dark room\n"
        "theme_dir: ~/themes\n"
    )
    path = write(tmp_path, SETTINGS_FILE, original)
    assert save_theme(tmp_path, "inspector-light") is None
    assert path.read_text() == original.replace(
        "theme:   midnight  # dark room", "theme: inspector-light  # dark room"
    )
    settings, problems = load_settings(tmp_path)
    assert problems == []
    assert settings.theme == "inspector-light"
    assert settings.keymap == {"app.quit": "ctrl+q"}


def test_save_theme_appends_and_replaces_block_values(tmp_path: Path) -> None:
    path = write(tmp_path, SETTINGS_FILE, "keymap:\n  app.quit: ctrl+q")
    assert save_theme(tmp_path, "yes") is None  # a name YAML would read as a boolean
    assert path.read_text() == "keymap:\n  app.quit: ctrl+q\ntheme: 'yes'\n"
    path.write_text("theme:\n  midnight\nkeymap: {}\n")
    assert save_theme(tmp_path, "midnight") is None
    assert path.read_text() == "theme: midnight\nkeymap: {}\n"


def test_save_theme_leaves_a_file_it_cannot_update_alone(tmp_path: Path) -> None:
    original = "{keymap: {app.quit: ctrl+q}}\n"
    path = write(tmp_path, SETTINGS_FILE, original)
    message = save_theme(tmp_path, "midnight")
    assert message is not None and str(path) in message
    assert path.read_text() == original


# ---- help screen ---------------------------------------------------------------------------


def test_keys_markdown_groups_keys_of_one_action() -> None:
    table = keys_markdown(
        [("x", "Drop", "app.drop"), ("ctrl+x", "Drop", "app.drop"), ("|", "Pipe", "")]
    )
    assert "| `x`, `ctrl+x` | Drop | `app.drop` |" in table
    assert "| `\\|` | Pipe |  |" in table
    assert keys_markdown([]) == ""


@pytest.mark.parametrize("close_key", ["escape", "f1"])
async def test_help_screen_shows_the_text_and_closes(close_key: str) -> None:
    app = make_app()
    async with app.run_test(size=(100, 40)) as pilot:
        screen = HelpScreen(
            "Exchanges", "# Exchange list\n\nEvery request.", [("e", "Resend", "app.resend")]
        )
        await app.push_screen(screen)
        await pilot.pause()
        assert app.screen is screen
        markdown = screen.query_one(Markdown)
        assert markdown.source.startswith("# Exchange list\n\nEvery request.")
        assert "| `e` | Resend | `app.resend` |" in markdown.source
        rendered = app.export_screenshot()
        assert "Exchanges" in rendered and "Resend" in rendered and "app.resend" in rendered
        await pilot.press(close_key)
        await pilot.pause()
        assert app.screen is not screen
