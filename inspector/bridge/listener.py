"""The inspector's door for relays: a private Unix socket by default, or TCP with a token.

Whoever can connect can answer the agent's approvals, so the socket lives in a folder only its
owner can enter (0700) and is itself 0600, both set explicitly; TCP refuses any relay that does
not prove it knows the token (proving.py), and binds to loopback unless told otherwise. A
connection must greet within GREETING_TIMEOUT_S, and at most MAX_UNGREETED are waiting for their
greeting at once (see accept_loop.py)."""

from __future__ import annotations

import asyncio
import contextlib
import errno
import ipaddress
import os
import socket
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from inspector.bridge.accept_loop import BACKLOG, AcceptLoop, bind_tcp
from inspector.bridge.command_session import CommandSession
from inspector.bridge.greeting import DEFAULT_NAME, Greeting, Refused, read_greeting
from inspector.bridge.greeting_line import Allowance, FirstLine, TooLong, read_first_line
from inspector.bridge.http_hooks import LABEL as HTTP_LABEL
from inspector.bridge.http_hooks import HttpHooks
from inspector.bridge.jsonrpc_session import RelaySession
from inspector.bridge.plugin_session import PluginSession
from inspector.bridge.proving import greeting_line
from inspector.bridge.refusals import REFUSED, RefusalLog
from inspector.config.errors import ConfigError
from inspector.hosts.http_endpoint import read_endpoint
from inspector.journal.records import Lifecycle
from inspector.jsonrpc.framing import KEEP_LIMIT
from inspector.relay import command_wire, wire
from inspector.relay.command_wire import INSIDE_INSPECTOR
from inspector.relay.stdio import passable
from inspector.relay.wire import read_token

if TYPE_CHECKING:
    from inspector.engine import Engine

GREETING_TIMEOUT_S = 2.0  # a relay greets as soon as it connects, and waits 1 s for the welcome
MAX_UNGREETED = 32
STREAM_LIMIT = 1 << 20  # the longest greeting; later lines are framed by the session
PROBE_TIMEOUT_S = 1.0
LOOPBACK = "127.0.0.1"
OUT_OF_RESOURCES = frozenset({errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM})


class ListenError(Exception):
    """The inspector cannot listen where it was asked to."""


def parse_listen(text: str) -> tuple[str, int]:
    """`HOST:PORT` (`[::1]:PORT` for IPv6); no host means loopback, never every interface."""
    host, sep, port = text.rpartition(":")
    if not sep or not port.isdigit() or int(port) > 65535:
        raise ValueError(f"{text!r} is not HOST:PORT")
    host = host.removeprefix("[").removesuffix("]")
    return host or LOOPBACK, int(port)


def reach_beyond_loopback(host: str, port: int) -> str | None:
    """Why listening on `host` lets other machines knock on `port`, or None for loopback."""
    if host == "localhost":
        return None
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return f"{host} is a name, not a loopback address: {_reachable(port)}"
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    if address.is_loopback:
        return None
    if address.is_unspecified:
        return f"{host} is every interface: {_reachable(port)}"
    return f"{host} is not a loopback address: {_reachable(port)}"


def _reachable(port: int) -> str:
    return (
        f"other machines can reach port {port} and only the token keeps them out;"
        " listen on 127.0.0.1 and use an SSH tunnel to keep it on this machine"
    )


@dataclass(frozen=True)
class ListenOptions:
    """Where relays find the inspector: the private Unix socket (default), another socket
    path, or TCP with a token."""

    socket_path: Path | None = None
    tcp: tuple[str, int] | None = None
    token: str | None = None

    @classmethod
    def from_flags(
        cls, socket: Path | None, listen: str | None, token_file: Path | None
    ) -> ListenOptions:
        """Raises ValueError (or OSError for the token file) with a message for the user."""
        tcp = parse_listen(listen) if listen else None
        if tcp and not token_file:
            raise ValueError("--listen needs --token-file")
        return cls(socket, tcp, read_token(token_file) if token_file else None)

    @property
    def exposure(self) -> str | None:
        """Who else can reach a TCP address that is not loopback, for a warning; else None."""
        if self.tcp is None:
            return None
        host, port = self.tcp
        return reach_beyond_loopback(host, port)


async def listen_for_relays(engine: Engine, options: ListenOptions | None = None) -> Listener:
    """Serve relays (live agents) for `engine` on the private Unix socket
    (wire.default_socket_path() unless given), or on TCP, which needs a token. Close the listener
    before the engine stops, so pending calls get their fallback answer, not a dead hook's."""
    options = options or ListenOptions()
    listener = Listener(
        engine, socket_path=options.socket_path, tcp=options.tcp, token=options.token
    )
    await listener.start()
    return listener


class Listener:
    """Accepts relays for `engine`; each one becomes a RelaySession under a unique label."""

    def __init__(
        self,
        engine: Engine,
        *,
        socket_path: Path | None = None,
        tcp: tuple[str, int] | None = None,
        token: str | None = None,
        max_line: int = KEEP_LIMIT,
    ) -> None:
        if tcp is not None and not token:
            raise ValueError("listening on TCP needs a token: anyone who connects could approve")
        self.engine = engine
        self.socket_path = None if tcp else (socket_path or wire.default_socket_path())
        self.tcp = tcp
        self.token = token
        self.max_line = max_line
        self.sessions: dict[str, RelaySession] = {}
        self.command_sessions: set[CommandSession] = set()  # one event each, labels shared
        self.plugin_sessions: dict[str, PluginSession] = {}  # an OpenClaw Gateway's plugin each
        self.address = ""
        self._accept_loop: AcceptLoop | None = None
        self._inode: int | None = None
        self._connections: set[asyncio.StreamWriter] = set()
        self._greeting: set[socket.socket] = set()  # connected, their greeting not read yet
        self._closing = False
        self._handlers: set[asyncio.Task[None]] = set()
        self._accept_failing = False
        self._refusals = RefusalLog(engine.journal)
        self._received_fds = Allowance()  # descriptors sent with greetings, held at once
        self.http: HttpHooks | None = None  # Claude Code's HTTP hooks, once install made them

    async def start(self) -> None:
        try:
            if self.socket_path is not None:
                sockets = [self._bind_unix(self.socket_path)]
                self.address = str(self.socket_path)
            else:
                assert self.tcp is not None
                sockets = await bind_tcp(*self.tcp)
                host, port = sockets[0].getsockname()[:2]
                self.address = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
        except OSError as exc:
            raise ListenError(f"cannot listen on {self.socket_path or self.tcp}: {exc}") from exc
        self._accept_loop = AcceptLoop(
            sockets, self._connected, room=MAX_UNGREETED, on_trouble=self._cannot_accept
        )
        self._accept_loop.start()
        os.environ[INSIDE_INSPECTOR] = self.address  # inherited by every hook started from now
        await self._start_http()

    async def _start_http(self) -> None:
        """Claude Code's HTTP hooks' door, when `install claude --http` made its endpoint; a
        port another inspector holds, or an endpoint file not this user's alone, is said in
        the journal and the relays are served all the same."""
        try:
            endpoint = read_endpoint()
            if endpoint is None:
                return
            http = HttpHooks(self.engine, endpoint, max_body=self.max_line)
            await http.start()
        except (ConfigError, OSError) as error:
            detail = f"not listening for Claude Code's HTTP hooks: {error}"
            self.engine.journal.append(Lifecycle(hook=HTTP_LABEL, state="failed", detail=detail))
            return
        self.http = http

    def time_left(self, seq: int) -> float | None:
        """Seconds until a held relayed request (by exchange seq) is dropped; None for others."""
        for session in [*self._all_sessions(), *(self.http.calls if self.http else ())]:
            deadline = session.deadline_of(seq)
            if deadline is not None:
                return deadline.left_s()
        return None

    def _all_sessions(self) -> list[RelaySession | CommandSession | PluginSession]:
        return [*self.sessions.values(), *self.command_sessions, *self.plugin_sessions.values()]

    async def close(self) -> None:
        """Stop accepting; every relay's pending calls get their fallback answer first."""
        self._closing = True
        for conn in self._greeting:  # wakes its wait for a greeting with an end of file
            with contextlib.suppress(OSError):
                conn.shutdown(socket.SHUT_RDWR)
        if self._accept_loop is not None:
            await self._accept_loop.close()
        await asyncio.gather(*(session.close() for session in self._all_sessions()))
        if self.http is not None:
            await self.http.close()
        for writer in self._connections:  # still greeting
            writer.close()
        await asyncio.gather(*self._handlers, return_exceptions=True)
        if os.environ.get(INSIDE_INSPECTOR) == self.address:
            del os.environ[INSIDE_INSPECTOR]
        if self.socket_path is not None and self._inode is not None:
            with contextlib.suppress(FileNotFoundError):
                if os.stat(self.socket_path).st_ino == self._inode:  # not a newer inspector's
                    self.socket_path.unlink()

    # ---- the socket file -------------------------------------------------------------------

    def _bind_unix(self, path: Path) -> socket.socket:
        _private_folder(path.parent, ours=path == wire.default_socket_path())
        _clear_stale(path)
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        # the umask closes the moment between bind and chmod; chmod is the guarantee
        umask = os.umask(0o177)
        try:
            sock.bind(str(path))
            sock.listen(BACKLOG)
        except OSError:
            sock.close()
            raise
        finally:
            os.umask(umask)
        os.chmod(path, 0o600)
        self._inode = os.stat(path).st_ino
        return sock

    # ---- a relay connects ------------------------------------------------------------------

    def _connected(self, conn: socket.socket) -> None:
        self._accept_failing = False
        handler = asyncio.create_task(self._accept(conn))
        self._handlers.add(handler)
        handler.add_done_callback(self._handlers.discard)

    async def _read_greeting_line(self, conn: socket.socket) -> tuple[FirstLine, str | None]:
        return await _first_line(conn, self._received_fds)

    def _cannot_accept(self, error: OSError) -> None:
        """Out of descriptors or buffers: said once until an accept works again."""
        if error.errno not in OUT_OF_RESOURCES or self._accept_failing:
            return
        self._accept_failing = True
        detail = (
            f"cannot accept a connection ({error.strerror}): relays wait in the queue, and"
            " accepting goes on when the inspector has room again"
        )
        self.engine.journal.append(Lifecycle(hook=DEFAULT_NAME, state=REFUSED, detail=detail))

    async def _accept(self, conn: socket.socket) -> None:
        assert self._accept_loop is not None
        self._greeting.add(conn)
        first = FirstLine(b"")
        try:
            first, problem, proof = await greeting_line(conn, self.token, self._read_greeting_line)
            if self._closing:
                raise ConnectionAbortedError("the inspector is stopping")
            reader, writer = await _streams(conn, first.rest)
        except OSError:
            first.close_fds()
            conn.close()
            self._accept_loop.leave()
            return
        finally:
            self._greeting.discard(conn)
        self._connections.add(writer)
        try:
            peer = _peer(writer)
            try:
                greeting = self._greet(first.line, problem, writer, peer, proof)
            finally:
                self._accept_loop.leave()
            lent_stdin = _lent_stdin(greeting, first) if greeting is not None else None
            first.close_fds()  # those not taken
            if greeting is None:
                return
            if greeting.command is not None:
                await self._serve_command(greeting, reader, writer)
                return
            if greeting.plugin is not None:
                await self._serve_plugin(greeting, reader, writer)
                return
            label = self._label(greeting.name)
            session = RelaySession(
                self.engine,
                label,
                greeting,
                reader,
                writer,
                peer=peer,
                max_line=self.max_line,
                lent_stdin=lent_stdin,
            )
            self.sessions[label] = session
            self._connections.discard(writer)
            writer.write(wire.welcome(True, pipes=lent_stdin is not None))
            try:
                await session.serve()
            finally:
                del self.sessions[label]
        finally:
            self._connections.discard(writer)
            writer.close()

    async def _serve_command(
        self, greeting: Greeting, reader: asyncio.StreamReader, writer: asyncio.StreamWriter
    ) -> None:
        command = greeting.command
        assert command is not None
        session = CommandSession(self.engine, greeting, reader, writer, max_line=self.max_line)
        self.command_sessions.add(session)
        self._connections.discard(writer)
        writer.write(command_wire.welcome(command.timeout_ms, command.env_prefixes))
        try:
            await session.serve()
        finally:
            self.command_sessions.discard(session)

    async def _serve_plugin(
        self, greeting: Greeting, reader: asyncio.StreamReader, writer: asyncio.StreamWriter
    ) -> None:
        label = self._label(greeting.name)
        session = PluginSession(
            self.engine, label, greeting, reader, writer, max_line=self.max_line
        )
        self.plugin_sessions[label] = session
        self._connections.discard(writer)
        writer.write(wire.welcome(True))
        try:
            await session.serve()
        finally:
            del self.plugin_sessions[label]

    def _greet(
        self,
        line: bytes,
        problem: str | None,
        writer: asyncio.StreamWriter,
        peer: str,
        proof: str | None,
    ) -> Greeting | None:
        if problem is not None:
            self._refuse(writer, DEFAULT_NAME, peer, problem)
            return None
        if not line:
            return None  # connected and left without a word: a probe, nothing to record
        try:
            return read_greeting(line, proof)
        except Refused as refusal:
            self._refuse(writer, refusal.name, peer, str(refusal))
            return None

    def _refuse(self, writer: asyncio.StreamWriter, name: str, peer: str, reason: str) -> None:
        writer.write(wire.welcome(False, reason))
        self._refusals.refused(name, reason, peer)

    def _label(self, name: str) -> str:
        """The name the relay gave, with #2, #3, ... when a connected relay already has it."""
        label, count = name, 1
        while label in self.sessions or label in self.plugin_sessions:
            count += 1
            label = f"{name}#{count}"
        return label


def _private_folder(folder: Path, *, ours: bool) -> None:
    """Create the socket's folder 0700; the default folder is ours, so it must be ours alone."""
    if not folder.exists():
        folder.mkdir(mode=0o700, parents=True)
        os.chmod(folder, 0o700)
        return
    if ours:
        info = os.lstat(folder)
        if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.getuid():
            raise ListenError(f"{folder} is not a folder of this user's; not listening there")
        os.chmod(folder, 0o700)


def _clear_stale(path: Path) -> None:
    """Remove the socket a dead inspector left; refuse to take a live one's place."""
    if not os.path.lexists(path):
        return
    if not stat.S_ISSOCK(os.lstat(path).st_mode):
        raise ListenError(f"{path} exists and is not a socket")
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as probe:
        probe.settimeout(PROBE_TIMEOUT_S)
        try:
            probe.connect(str(path))
        except (ConnectionRefusedError, FileNotFoundError):
            path.unlink(missing_ok=True)
            return
    raise ListenError(f"another inspector is listening on {path}")


async def _first_line(conn: socket.socket, allowance: Allowance) -> tuple[FirstLine, str | None]:
    """The greeting line, with any descriptors sent with it; or why there is none."""
    reading = read_first_line(conn, STREAM_LIMIT, allowance)
    try:
        first = await asyncio.wait_for(reading, GREETING_TIMEOUT_S)
    except TimeoutError:
        return FirstLine(b""), "no greeting in time"
    except TooLong:
        return FirstLine(b""), "the greeting line is too long"
    return first, None


async def _streams(
    conn: socket.socket, rest: bytes
) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    """Streams over `conn`, whose reader starts with `rest` (read with the greeting)."""
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader(limit=STREAM_LIMIT)
    if rest:
        reader.feed_data(rest)
    protocol = asyncio.StreamReaderProtocol(reader)
    transport, _ = await loop.connect_accepted_socket(lambda: protocol, sock=conn)
    return reader, asyncio.StreamWriter(transport, protocol, reader, loop)


def _lent_stdin(greeting: Greeting, first: FirstLine) -> int | None:
    """The agent's stdin a relay sent with its greeting, taken out of `first` when usable: a
    PicoClaw relay's, exactly one descriptor, a pipe or a socket. Any other descriptors are
    closed by the caller at once."""
    if not greeting.pipes or greeting.command or greeting.plugin or len(first.fds) != 1:
        return None
    if not passable(first.fds[0]):
        return None
    (stdin,) = first.take_fds()
    return stdin


def _peer(writer: asyncio.StreamWriter) -> str:
    name = writer.get_extra_info("peername")
    if isinstance(name, tuple):
        return f"{name[0]}:{name[1]}"
    return "the Unix socket"
