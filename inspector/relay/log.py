"""The relay's voice: a few lines on stderr, flushed at once, never a line twice.

PicoClaw logs each stderr line of a hook as a warning, so the relay speaks only when its state
changes (connected, offline, refused) and reports each kind of protocol trouble once.
"""

from __future__ import annotations

import sys


class Log:
    def __init__(self, name: str) -> None:
        self._prefix = f"hook-inspector relay ({name}): "
        self._kinds_said: set[str] = set()
        self._state: str | None = None

    def say(self, text: str) -> None:
        try:
            sys.stderr.write(self._prefix + text + "\n")
            sys.stderr.flush()
        except OSError:  # the agent stopped reading our stderr: nothing left to tell
            pass

    def once(self, kind: str, text: str) -> None:
        if kind not in self._kinds_said:
            self._kinds_said.add(kind)
            self.say(text)

    def state(self, key: str, text: str) -> None:
        """Say `text` unless the last state said had the same key."""
        if key != self._state:
            self._state = key
            self.say(text)
