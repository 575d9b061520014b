"""Watch the config and the hooks' scripts; a save that changes one makes one reload."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

from watchfiles import awatch

from inspector.config import ConfigError
from inspector.engine import Engine
from inspector.hosts.load import load_config
from inspector.journal.records import Reload
from inspector.reload.targets import digest, folders, watched_paths

DEBOUNCE_MS = 40  # long enough to fold an editor's burst (write, chmod, rename) into one change
STEP_MS = 20
# How often the watching thread hands back to asyncio with nothing seen: each hand-back wakes the
# loop, so a short one costs an idle app CPU for nothing (50 ms cost ten times a bare app's).
IDLE_YIELD_MS = 1_000


class Reloader:
    """Turns file changes into `Engine.apply_config` calls. A change counts only when the bytes
    of a watched file differ from what the running pipeline was built from."""

    def __init__(
        self,
        engine: Engine,
        config_path: Path,
        *,
        on_reload: Callable[[Reload], None] | None = None,
    ) -> None:
        self.engine = engine
        self.config_path = config_path.absolute()
        self.on_reload = on_reload
        self.paused = False
        self._paths = watched_paths(self.config_path, engine.config)
        self._digests = {path: digest(path) for path in self._paths}
        self._rewatch = asyncio.Event()
        self._lock = asyncio.Lock()
        self.armed = asyncio.Event()  # set once the watcher is looking (tests wait on it)

    async def watch(self) -> None:
        """Run until cancelled. The watched folders follow the config after each reload."""
        while True:
            self._rewatch.clear()
            watching = folders(self._paths)
            changes_seen = awatch(
                *watching,
                debounce=DEBOUNCE_MS,
                step=STEP_MS,
                stop_event=self._rewatch,
                recursive=False,
                yield_on_timeout=True,
                rust_timeout=IDLE_YIELD_MS,
            )
            async for changes in changes_seen:
                self.armed.set()
                if self.paused or not changes:
                    continue
                touched = {Path(path) for _, path in changes}
                if touched & self._paths.keys():
                    await self.reload(touched & self._paths.keys())
                if folders(self._paths) != watching:
                    break

    def pause(self) -> None:
        self.paused = True

    def resume(self) -> None:
        """Watch again; `reload()` then applies whatever was saved while paused."""
        self.paused = False

    async def reload(
        self, touched: set[Path] | None = None, *, trigger: str = "watch"
    ) -> Reload | None:
        """Reload if a watched file's content changed (always, when by hand)."""
        async with self._lock:
            changed = {path for path in self._paths if digest(path) != self._digests.get(path)}
            if trigger == "watch" and not changed:
                return None
            files = sorted(str(path) for path in (changed or touched or set()))
            try:
                config = load_config(self.config_path)
            except ConfigError as error:
                record = self.engine.reload_failed(str(error), files=files, trigger=trigger)
            else:
                hooks = {name for path in changed for name in self._paths.get(path, ())}
                record = await self.engine.apply_config(
                    config, changed_hooks=hooks, files=files, trigger=trigger
                )
                self._paths = watched_paths(self.config_path, config)
            self._digests = {path: digest(path) for path in self._paths}
            if self.on_reload is not None:
                self.on_reload(record)
            return record
