"""A PreToolUse hook that shows whether the calls of one message are decided side by side.

    meet.py FOLDER COUNT

Marks its call in FOLDER (a file named after the tool_use_id), then waits, at most 60 s, for
COUNT marks to be there. It appends `met` to FOLDER/met.log when they all were (the runs
overlapped), `alone` when its wait ran out (one ran after the other). It decides nothing.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

PATIENCE_S = 60.0


def main() -> int:
    folder, count = Path(sys.argv[1]), int(sys.argv[2])
    event = json.loads(sys.stdin.read())
    (folder / f"{event['tool_use_id']}.mark").touch()
    deadline = time.monotonic() + PATIENCE_S
    while len(list(folder.glob("*.mark"))) < count and time.monotonic() < deadline:
        time.sleep(0.01)
    met = len(list(folder.glob("*.mark"))) >= count
    with (folder / "met.log").open("a", encoding="utf-8") as log:
        log.write("met\n" if met else "alone\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
