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
