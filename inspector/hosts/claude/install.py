"""`hook-inspector install claude` / `uninstall claude`: hook-inspector merged into a Claude Code
settings file, and taken out again (settings_hooks.py: backup first, idempotent, the user's own
hooks kept, the file given back byte for byte).

By default the handler is the command relay, in settings.json. With --http it is an `http`
handler that POSTs each event to the inspector on loopback, with the inspector's token in a
header; the token must not reach a file meant to be committed, so a project's handlers go into
settings.local.json (Claude Code's per-person file), and a user-level settings.json that is a
link (into a dotfiles repository) is refused. Uninstall takes both kinds out of both files."""

from __future__ import annotations

import subprocess
from pathlib import Path

from inspector.config.errors import ConfigError
from inspector.hosts.claude import NAME
from inspector.hosts.claude.bridge_mod import install_mod
from inspector.hosts.claude.events import EVENTS
from inspector.hosts.claude.handlers import DEFAULT_TIMEOUT_S
from inspector.hosts.claude.settings_hooks import merge, take_out
from inspector.hosts.http_endpoint import ensure_endpoint
from inspector.hosts.install_files import through_link
from inspector.hosts.install_relay import RelayHook, relay_hook
from inspector.hosts.installer import Flag, Options, Place

CLAUDE_DIR, SETTINGS, LOCAL_SETTINGS = ".claude", "settings.json", "settings.local.json"
GIT_TIMEOUT_S = 10
DEFAULT_EVENTS = (
    "SessionStart",
    "UserPromptSubmit",
    "PreToolUse",
    "PermissionRequest",
    "PostToolUse",
    "PostToolUseFailure",
    "Notification",
    "Stop",
    "SubagentStop",
    "SessionEnd",
)
# Claude Code skips an http handler on these ("HTTP hooks are not supported for", 2.1.332)
NO_HTTP_EVENTS = ("SessionStart", "Setup")
HTTP_DEFAULT_EVENTS = tuple(event for event in DEFAULT_EVENTS if event not in NO_HTTP_EVENTS)


HTTP = Flag(
    "http",
    "http handlers that POST each event to the inspector on loopback, with its token, in"
    " .claude/settings.local.json (no relay process; see docs/claude-code.md)",
)
MOD = Flag(
    "mod",
    "from 2.1.287, the inspector's endpoint for the bridge mod, and how to load the mod (no"
    " settings changed; see docs/claude-code.md, Mods)",
)


class ClaudeInstaller:
    flags: tuple[Flag, ...] = (HTTP, MOD)
    config_file: str | None = None
    default_timeout_s = DEFAULT_TIMEOUT_S

    def install(self, place: Place, options: Options) -> str:
        if options.own.get(MOD.name):
            return install_mod()
        http = bool(options.own.get(HTTP.name))
        default = HTTP_DEFAULT_EVENTS if http else DEFAULT_EVENTS
        hook = relay_hook(NAME, options, EVENTS, default, self.default_timeout_s)
        if http:
            return install_http(http_settings_file(place), hook, options.matcher)
        file = settings_file(place.project, place.user)
        return install(file, hook.command, hook.events, options.matcher, hook.timeout_s)

    def snippet(self, place: Place, options: Options) -> None:
        return None

    def uninstall(self, place: Place) -> str:
        file = settings_file(place.project, place.user)
        local = http_settings_file(place)
        done = [said for each in dict.fromkeys((file, local)) if (said := take_out(each))]
        if done:
            return "; ".join(done)
        if not file.exists():
            return f"{file} does not exist: nothing to take out"
        return f"the relay is not in {file}: nothing taken out"


def settings_file(project: Path | None, user: bool) -> Path:
    if user:
        return Path.home() / CLAUDE_DIR / SETTINGS
    return (project or Path.cwd()) / CLAUDE_DIR / SETTINGS


def http_settings_file(place: Place) -> Path:
    """Where --http puts its handlers: a project's settings.local.json, or the user's
    settings.json (Claude Code has no user-level local file)."""
    if place.user:
        return settings_file(None, True)
    return (place.project or Path.cwd()) / CLAUDE_DIR / LOCAL_SETTINGS


def install(
    file: Path, command: str, events: tuple[str, ...], matcher: str | None, timeout_s: int
) -> str:
    """Merge the relay into `file`; returns what was done, for the user."""
    handler = {"type": "command", "command": command, "timeout": timeout_s}
    saved, target = merge(file, handler, events, matcher)
    where = f" (the file as it was: {saved})" if saved else ""
    return f"the relay runs on {', '.join(events)} in {file}{where}{through_link(file, target)}"


def install_http(file: Path, hook: RelayHook, matcher: str | None) -> str:
    """Merge an http handler to the inspector into `file`; returns what was done, for the user."""
    refused = [event for event in hook.events if event in NO_HTTP_EVENTS]
    if refused:
        raise ConfigError(
            "--events", f"Claude Code sends no HTTP hooks on {', '.join(refused)}: leave it out"
        )
    if file.is_symlink():
        raise ConfigError(
            str(file),
            "is a link (into a repository?): the HTTP hook's token would be written there;"
            " use --project, whose settings.local.json stays on this machine",
        )
    endpoint = ensure_endpoint()
    handler = {
        "type": "http",
        "url": endpoint.url(hook.timeout_s),
        "headers": endpoint.header(),
        "timeout": hook.timeout_s,
    }
    saved, _ = merge(file, handler, hook.events, matcher)
    where = f" (the file as it was: {saved})" if saved else ""
    warning = ""
    if git_ignores(file) is False:
        warning = (
            f"; warning: git does not ignore {file}, which holds the token: add it to .gitignore"
        )
    return (
        f"HTTP hooks to hook-inspector at {endpoint.url(hook.timeout_s)} on"
        f" {', '.join(hook.events)} in {file}{where}{warning}"
    )


def git_ignores(file: Path) -> bool | None:
    """Whether git ignores `file`; None outside a git work tree, or with no git at hand."""
    argv = ["git", "-C", str(file.parent), "check-ignore", "-q", file.name]
    try:
        done = subprocess.run(argv, capture_output=True, timeout=GIT_TIMEOUT_S, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return {0: True, 1: False}.get(done.returncode)  # 128: not in a work tree


INSTALLER = ClaudeInstaller()
