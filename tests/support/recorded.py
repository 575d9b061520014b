"""The records a hook script wrote, one JSON object a line."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any


def recorded_lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
