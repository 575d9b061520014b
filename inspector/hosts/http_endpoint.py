"""Where Claude Code's HTTP hooks find the inspector: a loopback port and a token, kept in one
private file that `install claude --http` writes (or reuses) and `serve` and the UI read.

The token is the only thing that keeps another local process from answering for the inspector's
hooks (anyone on this machine can reach a loopback port), so its file gets the care the relay's
socket gets: its folder is made 0700 and must be this user's alone, the file is made 0600 and is
refused when it is not a regular file of this user's, or when others may read or write it. The
file lives in $XDG_STATE_HOME/hook-inspector (else ~/.local/state/hook-inspector), not beside
the socket in the runtime folder: the settings install writes hold the port and the token, and
they must still match after the runtime folder is emptied at logout or a reboot."""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import socket
import stat
from dataclasses import dataclass
from pathlib import Path

from inspector.config.errors import ConfigError
from inspector.safe_files import read_bytes_limited

FILE_NAME = "http-hook.json"
LOOPBACK = "127.0.0.1"
PATH = "/hook-inspector/claude"  # in every URL install writes, and in no other
TOKEN_HEADER = "Authorization"
TOKEN_SCHEME = "Bearer "
FILE_LIMIT = 4096
OTHERS = stat.S_IRWXG | stat.S_IRWXO


@dataclass(frozen=True)
class Endpoint:
    port: int
    token: str

    def url(self, timeout_s: int) -> str:
        """The URL a handler with Claude Code's `timeout` of `timeout_s` POSTs to: the timeout
        rides along, so the inspector answers before Claude Code gives up."""
        return f"http://{LOOPBACK}:{self.port}{PATH}?timeout={timeout_s}"

    def header(self) -> dict[str, str]:
        return {TOKEN_HEADER: TOKEN_SCHEME + self.token}


def endpoint_file() -> Path:
    state = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(state) / "hook-inspector" / FILE_NAME


def read_endpoint(file: Path | None = None) -> Endpoint | None:
    """The endpoint install made, or None when there is none. A file that is not private, or not
    an endpoint, is a ConfigError that says why."""
    file = file or endpoint_file()
    try:
        info = os.lstat(file)
    except FileNotFoundError:
        return None
    _check_private(file.parent, os.lstat(file.parent), "folder")
    _check_private(file, info, "regular file")
    try:
        value = json.loads(read_bytes_limited(file, FILE_LIMIT))
    except (OSError, ValueError) as error:
        raise ConfigError(str(file), f"cannot be read: {error}") from None
    port = value.get("port") if isinstance(value, dict) else None
    token = value.get("token") if isinstance(value, dict) else None
    if not isinstance(port, int) or not 0 < port < 65536 or not isinstance(token, str) or not token:
        raise ConfigError(str(file), 'expected {"port": PORT, "token": TOKEN}')
    return Endpoint(port, token)


def ensure_endpoint(file: Path | None = None) -> Endpoint:
    """The endpoint install made before, or a new one: a port free on loopback now, and a fresh
    token, written 0600 in a 0700 folder."""
    file = file or endpoint_file()
    endpoint = read_endpoint(file)
    if endpoint is not None:
        return endpoint
    endpoint = Endpoint(_free_port(), secrets.token_urlsafe(32))
    file.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    os.chmod(file.parent, 0o700)
    data = json.dumps({"port": endpoint.port, "token": endpoint.token}) + "\n"
    descriptor = os.open(file, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
    with os.fdopen(descriptor, "w") as out:
        out.write(data)
    return endpoint


def token_matches(endpoint: Endpoint, header: str | None) -> bool:
    """Whether a request's token header is the endpoint's, compared in constant time."""
    given = (header or "").encode()
    return secrets.compare_digest(given, (TOKEN_SCHEME + endpoint.token).encode())


def _check_private(path: Path, info: os.stat_result, what: str) -> None:
    is_kind = stat.S_ISDIR if what == "folder" else stat.S_ISREG
    if not is_kind(info.st_mode):
        raise ConfigError(str(path), f"is not a {what}: the HTTP hook's token is kept only in one")
    if info.st_uid not in (os.geteuid(), 0):
        raise ConfigError(str(path), f"belongs to uid {info.st_uid}, not to this user")
    if info.st_mode & OTHERS:
        raise ConfigError(
            str(path), f"other users may use it (mode {stat.S_IMODE(info.st_mode):o}): chmod go= it"
        )


def _free_port() -> int:
    with contextlib.closing(socket.socket(socket.AF_INET, socket.SOCK_STREAM)) as probe:
        probe.bind((LOOPBACK, 0))
        port: int = probe.getsockname()[1]
        return port
