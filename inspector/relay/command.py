"""The command relay: one event of a command hook (Claude Code, j-cli, ...) handed to
hook-inspector, and its answer given back as the hook's own stdout, stderr and exit code.

Plain blocking sockets: one connection, one event, no event loop to start. Whatever goes wrong
(no inspector, a socket that is not this user's, a refusal, no answer before the deadline) the
hook answers as if it were not there: exit 0, no output, one line on stderr saying why. The
agent is never blocked past `answer_by_ms` of its own timeout."""

from __future__ import annotations

import os
import socket
import time
from collections.abc import Callable, Mapping

from inspector.relay import command_wire, proof
from inspector.relay.slotted_value import Value
from inspector.relay.trust import Untrusted, check_listener, check_socket_file
from inspector.relay.wire import answer_by_ms, read_token, refusal

CONNECT_TIMEOUT_S = 1.0
WELCOME_LIMIT = 64 * 1024
_CHUNK = 1 << 16


class Target(Value):
    """Which inspector to reach and what to tell it: the host, the label, the handler's
    timeout (None when the command line does not say it: the welcome does), and a Unix socket
    `path` or a TCP `host_port` with a `token_file`."""

    __slots__ = ("host", "host_port", "name", "path", "timeout_ms", "token_file")

    def __init__(
        self,
        host: str,
        name: str,
        timeout_ms: int | None,
        path: str | None = None,
        host_port: tuple[str, int] | None = None,
        token_file: str | None = None,
    ) -> None:
        self.host, self.name, self.timeout_ms = host, name, timeout_ms
        self.path, self.host_port, self.token_file = path, host_port, token_file

    def __str__(self) -> str:
        if self.host_port is not None:
            return f"{self.host_port[0]}:{self.host_port[1]}"
        return str(self.path)


class Output(Value):
    __slots__ = ("exit_code", "stderr", "stdout")

    def __init__(self, stdout: str, stderr: str, exit_code: int) -> None:
        self.stdout, self.stderr, self.exit_code = stdout, stderr, exit_code


ABSENT = Output("", "", 0)  # what the host sees from a hook that says nothing


class _Unanswered(Exception):
    """The inspector was reached but gave no usable answer; the message says why."""


class Deadline(Value):
    """When the relay answers at the latest (time.monotonic()): counted from its start, so
    reading the host's stdin counts against it too. A relay that does not know its handler's
    timeout waits at most UNTIL_WELCOMED_MS for the welcome that tells it."""

    __slots__ = ("answer_by", "started")

    def __init__(self, timeout_ms: int | None) -> None:
        self.started = time.monotonic()
        self.answer_by = self.started
        self.set_timeout(timeout_ms or command_wire.UNTIL_WELCOMED_MS)

    def set_timeout(self, timeout_ms: int) -> None:
        self.answer_by = self.started + answer_by_ms(timeout_ms) / 1000


def relay_event(
    target: Target,
    stdin: bytes,
    environ: Mapping[str, str],
    cwd: str,
    say: Callable[[str], None],
    deadline: Deadline,
) -> Output:
    """The inspector's answer to one event by the `deadline`, or ABSENT (after one line through
    `say`)."""
    passes = "the event passes as if this hook were absent"
    if environ.get(command_wire.INSIDE_INSPECTOR):
        say(f"started by hook-inspector's own hooks, which it would loop back to; {passes}")
        return ABSENT
    try:
        with _connect(target, deadline.answer_by) as sock:
            return _ask(sock, target, stdin, environ, cwd, deadline)
    except Untrusted as distrust:
        say(f"not trusting the socket {target}: {distrust}; sent it nothing, {passes}")
    except _Unanswered as why:
        say(f"hook-inspector at {target} {why}; {passes}")
    except TimeoutError:
        say(f"hook-inspector at {target} did not answer in time; {passes}")
    except OSError as error:
        say(f"no hook-inspector at {target} ({error.strerror or error}); {passes}")
    return ABSENT


def _connect(target: Target, answer_by: float) -> socket.socket:
    timeout = min(CONNECT_TIMEOUT_S, _left(answer_by))
    if target.host_port is not None:
        return socket.create_connection(target.host_port, timeout=timeout)
    assert target.path is not None
    check_socket_file(target.path)
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        sock.settimeout(timeout)
        sock.connect(str(target.path))
        check_listener(sock)
    except BaseException:
        sock.close()
        raise
    return sock


def _ask(
    sock: socket.socket,
    target: Target,
    stdin: bytes,
    environ: Mapping[str, str],
    cwd: str,
    deadline: Deadline,
) -> Output:
    token = _token(target.token_file) if target.token_file else None
    lines = _Lines(sock, deadline)
    relay_proof = _prove(sock, lines, token) if token is not None else None
    greeting = command_wire.greeting(
        target.name, os.getpid(), relay_proof, target.host, target.timeout_ms
    )
    sock.sendall(greeting)
    welcome = lines.next(WELCOME_LIMIT)
    _check_welcome(welcome)
    timeout_ms, env_prefixes = command_wire.welcomed_facts(welcome)
    if target.timeout_ms is None and timeout_ms is not None:
        deadline.set_timeout(timeout_ms)
    env = command_wire.host_env(env_prefixes, environ)
    sock.sendall(command_wire.event(stdin, env, cwd))
    sock.shutdown(socket.SHUT_WR)
    try:
        stdout, stderr, code = command_wire.read_answer(lines.next(command_wire.ANSWER_LIMIT))
    except command_wire.BadAnswer as problem:
        raise _Unanswered(f"sent an answer that is not one ({problem})") from None
    return Output(stdout, stderr, code)


class _Lines:
    """Lines from `sock`, each read by the deadline at the latest (TimeoutError otherwise)."""

    def __init__(self, sock: socket.socket, deadline: Deadline) -> None:
        self._sock = sock
        self._deadline = deadline
        self._buffer = bytearray()

    def next(self, limit: int) -> bytes:
        while (end := self._buffer.find(b"\n")) < 0:
            if len(self._buffer) > limit:
                raise _Unanswered(f"sent a line over {limit:,} bytes")
            self._sock.settimeout(_left(self._deadline.answer_by))
            chunk = self._sock.recv(_CHUNK)
            if not chunk:
                if self._buffer:
                    end = len(self._buffer)
                    break
                raise _Unanswered("closed the connection without an answer")
            self._buffer += chunk
        line = bytes(self._buffer[:end])
        del self._buffer[: end + 1]
        return line


def _prove(sock: socket.socket, lines: _Lines, token: str) -> str:
    """The relay's proof for its greeting, once the inspector proved it knows the token
    (proof.Unproven, an Untrusted, otherwise: the event goes nowhere)."""
    nonce = proof.new_nonce()
    sock.sendall(proof.challenge(nonce))
    try:
        return proof.relay_proof(lines.next(WELCOME_LIMIT), token, nonce)
    except proof.ChallengeRefused as refusal:
        raise _Unanswered(f"refused this relay: {refusal.reason}") from None


def _check_welcome(line: bytes) -> None:
    why = refusal(line)
    if why is not None:
        raise _Unanswered(f"refused this relay: {why}")


def _token(path: str) -> str:
    try:
        return read_token(path)
    except ValueError as problem:
        raise _Unanswered(f"cannot be reached: cannot read the token file: {problem}") from None


def _left(answer_by: float) -> float:
    left = answer_by - time.monotonic()
    if left <= 0:
        raise TimeoutError
    return left
