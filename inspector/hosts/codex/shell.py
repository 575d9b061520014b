"""The shell Codex runs a hook's command with, chosen as codex 0.171.0 chooses it (its
shell_detect.rs and shell.rs, and seen through the real CLI): the account's shell in the password
database when Codex knows it by its exact path (not `$SHELL`); else bash found on PATH (or
/bin/bash), else zsh, else /bin/sh. A known shell runs `SHELL -c COMMAND`, not as a login shell;
PowerShell runs `-NoProfile -Command COMMAND`."""

from __future__ import annotations

import os
import pwd
import shutil
from collections.abc import Callable

ZSH, BASH, SH, POWERSHELL = "zsh", "bash", "sh", "powershell"
KNOWN_PATHS = {
    ZSH: ("zsh", "/bin/zsh", "/usr/bin/zsh", "/usr/local/bin/zsh", "/opt/homebrew/bin/zsh"),
    SH: ("sh", "/bin/sh", "/usr/bin/sh"),
    BASH: ("bash", "/bin/bash", "/usr/bin/bash", "/usr/local/bin/bash", "/opt/homebrew/bin/bash"),
    POWERSHELL: (
        "pwsh",
        "powershell",
        "/usr/local/bin/pwsh",
        "/usr/bin/pwsh",
        "/bin/pwsh",
        "/opt/homebrew/bin/pwsh",
    ),
}
# where Codex looks for bash and zsh when PATH has none, and what it runs when neither is found
FALLBACK_PATHS = {ZSH: "/bin/zsh", BASH: "/bin/bash"}
LAST_RESORT = "/bin/sh"


def codex_shell() -> tuple[str, ...]:
    """The argv prefix of a hook's command on this machine, for this account."""
    return shell_for(_account_shell(), shutil.which, os.path.isfile)


def shell_for(
    account_shell: str | None, which: Callable[[str], str | None], is_file: Callable[[str], bool]
) -> tuple[str, ...]:
    """The argv prefix for an account whose shell is `account_shell` (None: no passwd entry),
    `which` finding a program on PATH and `is_file` telling whether a path is a file."""
    kind = _kind(account_shell)
    if account_shell is not None and kind is not None:
        return _argv(kind, account_shell)  # Codex keeps the account's own path for a kind it knows
    for kind in (BASH, ZSH):
        fallback = FALLBACK_PATHS[kind]
        found = which(kind) or (fallback if is_file(fallback) else None)
        if found is not None:
            return _argv(kind, found)
    return _argv(SH, LAST_RESORT)


def _argv(kind: str, path: str) -> tuple[str, ...]:
    return (path, "-NoProfile", "-Command") if kind == POWERSHELL else (path, "-c")


def _kind(path: str | None) -> str | None:
    return next((kind for kind, paths in KNOWN_PATHS.items() if path in paths), None)


def _account_shell() -> str | None:
    try:
        return pwd.getpwuid(os.getuid()).pw_shell
    except KeyError:
        return None
