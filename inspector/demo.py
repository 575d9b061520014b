"""The bundled demo: example hooks, their config and scenarios, shipped inside the package."""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path

EXAMPLES = Path(str(files("inspector") / "examples"))
DEMO_CONFIG = EXAMPLES / "demo.yaml"
DEMO_SCENARIO = EXAMPLES / "demo_scenario.yaml"


def scenarios_near(config_path: Path | None) -> list[Path]:
    """Scenario files a user can pick: those next to the config, or the demo ones."""
    folder = config_path.parent if config_path else EXAMPLES
    return sorted(
        path for pattern in ("*scenario*.yaml", "*scenario*.yml") for path in folder.glob(pattern)
    )


def default_scenario(config_path: Path | None) -> Path:
    """The scenario a run plays when none is named: the first one next to the config (a j-cli
    or Claude Code example brings its own), else the demo's."""
    if config_path is None:
        return DEMO_SCENARIO
    folder = config_path if config_path.is_dir() else config_path.parent
    found = scenarios_near(folder / "config")
    return found[0] if found else DEMO_SCENARIO
