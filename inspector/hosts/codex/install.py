"""`hook-inspector install codex` / `uninstall codex`: the command relay merged into a Codex
hooks.json (the project's `.codex/hooks.json`, or with --user CODEX_HOME's, else
~/.codex/hooks.json), and taken out again (hooks_file.py, on json_settings_hooks.py as for
Claude Code and Gemini CLI: backup first, idempotent, the user's own hooks kept, the file given
back byte for byte).

Codex runs a hook nobody trusted only under --dangerously-bypass-hook-trust. So install also
trusts the relay hooks it wrote, and nothing else: it adds, to the user's config.toml, one
`[hooks.state."<key>"] trusted_hash` entry per relay handler, computed as Codex computes it
(trust.py, keyed by the hooks file's real path as Codex keys it), between two comment lines of
its own; the config.toml is backed up first. Each hooks file's entries are its own: installing
into a second project keeps the first's, and uninstall takes out only the entries of the hooks
file it takes the relay out of (the block goes when it is empty). Both files' new text is made
and checked first, so an install that fails changes neither. The user's own hooks keep whatever
trust they had. A
project's `.codex` folder loads only when Codex trusts the project itself (its own prompt, or
`codex exec --trust`): install does not do that for you."""

from __future__ import annotations

from pathlib import Path

from inspector.hosts.codex import NAME
from inspector.hosts.codex.config import CODEX_DIR, CONFIG_TOML, HOOKS_JSON, codex_home
from inspector.hosts.codex.events import DEFAULT_TIMEOUT_S, EVENTS
from inspector.hosts.codex.hooks_file import merge, roll_back, take_out
from inspector.hosts.codex.trust_file import check_config, trust, trusted_text, untrust
from inspector.hosts.install_files import Backup, through_link
from inspector.hosts.install_relay import relay_hook
from inspector.hosts.installer import Flag, Options, Place
from inspector.hosts.json_settings_hooks import write

DEFAULT_EVENTS = (
    "SessionStart",
    "UserPromptSubmit",
    "PreToolUse",
    "PermissionRequest",
    "PostToolUse",
    "Stop",
)


class CodexInstaller:
    flags: tuple[Flag, ...] = ()
    config_file: str | None = None
    default_timeout_s = DEFAULT_TIMEOUT_S

    def install(self, place: Place, options: Options) -> str:
        hook = relay_hook(NAME, options, EVENTS, DEFAULT_EVENTS, self.default_timeout_s)
        file = hooks_file(place)
        check_config(config_file())  # before anything is written
        handler = {"type": "command", "command": hook.command, "timeout": hook.timeout_s}
        data, written = merge(file, handler, hook.events, options.matcher)
        config = trusted_text(config_file(), file, written)  # fails before anything is written
        previous = file.read_bytes() if file.exists() else None
        backed_up = Backup(file).content() is not None
        saved, target = write(file, data)
        try:
            trusted = trust(config_file(), config, len(written))
        except OSError:
            roll_back(file, target, previous, backed_up)
            raise
        where = f" (the file as it was: {saved})" if saved else ""
        linked = through_link(file, target)
        return f"the relay runs on {', '.join(hook.events)} in {file}{where}{linked}; {trusted}"

    def snippet(self, place: Place, options: Options) -> None:
        return None

    def uninstall(self, place: Place) -> str:
        file = hooks_file(place)
        said = [done for done in (take_out(file), untrust(config_file(), file)) if done]
        if said:
            return "; ".join(said)
        if not file.exists():
            return f"{file} does not exist: nothing to take out"
        return f"the relay is not in {file}: nothing taken out"


def hooks_file(place: Place) -> Path:
    if place.user:
        return codex_home() / HOOKS_JSON
    return (place.project or Path.cwd()).absolute() / CODEX_DIR / HOOKS_JSON


def config_file() -> Path:
    """The user's config.toml, where Codex keeps hook trust."""
    return codex_home() / CONFIG_TOML


INSTALLER = CodexInstaller()
