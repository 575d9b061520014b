"""Is the Unix socket the relay is about to use really this user's hook-inspector?

Whoever answers the relay answers the agent: it can rewrite a tool call or approve `rm -rf /`.
The default socket lives in a shared place when there is no XDG_RUNTIME_DIR ($TMPDIR), where
another local user may have made the folder first and be listening in it. So, before it sends a
byte, the relay checks that

- the socket's folder belongs to this user (or root) and nobody else may write to it (a sticky
  folder such as /tmp aside: there nobody else may replace what is ours),
- the socket itself is a socket (not a link), belongs to this user (or root) and nobody else
  may write to it, and
- once connected, the process listening on it runs as this user (or root), as the kernel says
  (SO_PEERCRED; on a system without it, the two checks on the files stand alone).

Root is trusted because it could read the relay's memory anyway.
"""

from __future__ import annotations

import os
import socket
import stat
import struct

WRITABLE_BY_OTHERS = stat.S_IWGRP | stat.S_IWOTH
PEER_CREDENTIALS = struct.Struct("3i")  # struct ucred: pid, uid, gid
ROOT = 0


class Untrusted(Exception):
    """The socket or whoever listens on it is not this user's; the message says why."""


def check_socket_file(path: str | os.PathLike[str]) -> None:
    """Raises Untrusted, or OSError (FileNotFoundError...) when there is nothing to check."""
    path = os.fspath(path)
    parent = os.path.dirname(path) or "."
    folder = os.lstat(parent)
    if not stat.S_ISDIR(folder.st_mode):
        raise Untrusted(f"its folder {parent} is not a folder")
    _check_owner(parent, folder)
    if folder.st_mode & WRITABLE_BY_OTHERS and not folder.st_mode & stat.S_ISVTX:
        raise Untrusted(f"its folder {parent} may be written by other users")
    info = os.lstat(path)
    if not stat.S_ISSOCK(info.st_mode):
        raise Untrusted(f"{path} is not a socket")
    _check_owner(path, info)
    if info.st_mode & WRITABLE_BY_OTHERS:
        raise Untrusted(f"{path} may be written by other users")


def check_listener(sock: socket.socket) -> None:
    """Raises Untrusted when the process listening at the other end of `sock` runs as another
    user (it is the process that called listen(), whoever made the file)."""
    if not hasattr(socket, "SO_PEERCRED"):
        return
    raw = sock.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, PEER_CREDENTIALS.size)
    pid, uid, _gid = PEER_CREDENTIALS.unpack(raw)
    if uid not in _trusted_uids():
        raise Untrusted(
            f"the process listening on it (pid {pid}) runs as uid {uid}, not as this user"
            f" (uid {os.geteuid()})"
        )


def _check_owner(path: str, info: os.stat_result) -> None:
    if info.st_uid not in _trusted_uids():
        raise Untrusted(
            f"{path} belongs to uid {info.st_uid}, not to this user (uid {os.geteuid()})"
        )


def _trusted_uids() -> frozenset[int]:
    return frozenset({os.geteuid(), ROOT})
