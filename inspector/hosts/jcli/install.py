"""`hook-inspector install jcli` / `uninstall jcli`: the relay as a j-cli hook of its own, a folder
`hook-inspector/` beside the user's hooks (`.jcli/hooks/` of a project, `~/.jdata/agent/hooks/`
of the user) holding one HOOK.yaml. The user's own hooks are never touched: uninstall removes
that folder and nothing else, and neither command changes a folder of that name that is not
install's."""

from __future__ import annotations

import json
from pathlib import Path

from inspector.config.errors import ConfigError
from inspector.config.files import read_config_text
from inspector.hosts.install_files import write_atomically
from inspector.hosts.install_relay import relay_hook
from inspector.hosts.installer import Flag, Options, Place
from inspector.hosts.jcli import NAME
from inspector.hosts.jcli.events import EVENTS
from inspector.hosts.jcli.hookdef import DEFAULT_TIMEOUT_S

FOLDER_NAME = "hook-inspector"
HOOK_FILE = "HOOK.yaml"
MARK = "# Written by `hook-inspector install jcli`;"
DEFAULT_EVENTS = EVENTS


class JcliInstaller:
    flags: tuple[Flag, ...] = ()
    config_file: str | None = None
    default_timeout_s = DEFAULT_TIMEOUT_S

    def install(self, place: Place, options: Options) -> str:
        hook = relay_hook(NAME, options, EVENTS, DEFAULT_EVENTS, self.default_timeout_s)
        folder = hook_folder(place.project, place.user)
        return install(folder, hook.command, hook.events, hook.timeout_s)

    def snippet(self, place: Place, options: Options) -> None:
        return None

    def uninstall(self, place: Place) -> str:
        return uninstall(hook_folder(place.project, place.user))


def hook_folder(project: Path | None, user: bool) -> Path:
    if user:
        return Path.home() / ".jdata" / "agent" / "hooks" / FOLDER_NAME
    return (project or Path.cwd()) / ".jcli" / "hooks" / FOLDER_NAME


def install(folder: Path, command: str, events: tuple[str, ...], timeout_s: int) -> str:
    """Write the relay's HOOK.yaml in `folder`; returns what was done, for the user."""
    hook_file = folder / HOOK_FILE
    if folder.exists() and not _ours(hook_file):
        raise ConfigError(str(folder), "exists and is not hook-inspector's: not changing it")
    folder.mkdir(parents=True, exist_ok=True)
    text = (
        f"{MARK} `hook-inspector uninstall jcli` removes this folder.\n"
        f"events: [{', '.join(events)}]\n"
        f"command: {json.dumps(command)}\n"
        f"timeout: {timeout_s}\n"
        "on_error: skip\n"
    )
    write_atomically(hook_file, text)
    return f"the relay runs on {', '.join(events)} from {hook_file}"


def uninstall(folder: Path) -> str:
    """Remove the relay's folder; returns what was done, for the user."""
    if not folder.exists():
        return f"{folder} does not exist: nothing to take out"
    if not _ours(folder / HOOK_FILE):
        raise ConfigError(str(folder), "is not hook-inspector's: not removing it")
    (folder / HOOK_FILE).unlink()
    others = sorted(path.name for path in folder.iterdir())
    if others:
        return f"removed {folder / HOOK_FILE}; kept the folder, which also holds {others[0]}"
    folder.rmdir()
    return f"removed {folder}"


def _ours(hook_file: Path) -> bool:
    return hook_file.is_file() and read_config_text(hook_file).startswith(MARK)


INSTALLER = JcliInstaller()
