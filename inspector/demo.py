"""The bundled demo: example hooks, their config and scenarios, shipped inside the package.
The examples folder holds one project per host; the demo is PicoClaw's."""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path

EXAMPLES = Path(str(files("inspector") / "examples"))
DEMO_FOLDER = EXAMPLES / "picoclaw"
DEMO_CONFIG = DEMO_FOLDER / "demo.yaml"
DEMO_SCENARIO = DEMO_FOLDER / "demo_scenario.yaml"


def scenarios_near(config_path: Path | None) -> list[Path]:
    """Scenario files a user can pick: those next to the config, or the demo ones."""
    if config_path is None:
        folder = DEMO_FOLDER
    else:  # a j-cli or Claude Code project is a folder; a config file sits in one
        folder = config_path if config_path.is_dir() else config_path.parent
    return sorted(
        path for pattern in ("*scenario*.yaml", "*scenario*.yml") for path in folder.glob(pattern)
    )


def default_scenario(config_path: Path | None) -> Path:
    """The scenario a run plays when none is named: the first one next to the config (a j-cli
    or Claude Code example brings its own), else the demo's."""
    found = scenarios_near(config_path) if config_path is not None else []
    return found[0] if found else DEMO_SCENARIO
