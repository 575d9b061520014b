"""The command relay knows no host: the inspector's registry does. A greeting names a host, the
inspector refuses a name no command-hook host has (listing those it has), and its welcome tells
the relay the host's handler timeout and the variables the host sets for its hooks."""

from __future__ import annotations

import json
import socket
import threading
from pathlib import Path

import pytest

from inspector.bridge.greeting import Refused, read_greeting
from inspector.hosts.host import Host
from inspector.hosts.registry import HOSTS
from inspector.relay import command_wire
from inspector.relay.command import Deadline, Target, relay_event
from inspector.relay.wire import answer_by_ms

COMMAND_HOSTS = [host for host in HOSTS if host.runs_commands]


def greeting_line(host: str, timeout_ms: int | None) -> bytes:
    return command_wire.greeting("agent", 42, None, host, timeout_ms)


@pytest.mark.parametrize("host", COMMAND_HOSTS, ids=lambda host: host.name)
def test_a_relay_that_names_no_timeout_gets_its_hosts(host: Host) -> None:
    greeting = read_greeting(greeting_line(host.name, None), None)
    assert greeting.command is not None
    assert greeting.command.timeout_ms == host.default_timeout_ms
    assert greeting.command.env_prefixes == host.env_prefixes


def test_a_relay_for_a_host_none_has_is_refused_with_the_hosts_there_are() -> None:
    with pytest.raises(Refused) as refused:
        read_greeting(greeting_line("claud", 1000), None)
    names = ", ".join(sorted(host.name for host in COMMAND_HOSTS))
    assert str(refused.value) == f"command.host must be one of {names}"


def test_the_welcome_sets_the_deadline_and_picks_the_hosts_variables(tmp_path: Path) -> None:
    path = tmp_path / "inspector.sock"
    received: list[bytes] = []
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as listening:
        listening.bind(str(path))
        listening.listen(1)
        inspector = threading.Thread(target=_welcome_then_answer, args=(listening, received))
        inspector.start()
        deadline = Deadline(None)
        assert deadline.answer_by == deadline.started + answer_by_ms(10_000) / 1000
        output = relay_event(
            Target("agent", "agent", None, path=str(path)),
            b'{"hook_event_name": "Stop"}\n',
            {"AGENT_DIR": "/p", "HOME": "/h", "AGENT_ID": "7"},
            "/p",
            pytest.fail,
            deadline,
        )
        inspector.join()
    assert (output.stdout, output.exit_code) == ('{"ok": true}', 0)
    greeting, event = received[0].split(b"\n", 1)
    assert json.loads(greeting)["command"] == {"host": "agent", "timeout_ms": None}
    assert json.loads(event)["env"] == {"AGENT_DIR": "/p", "AGENT_ID": "7"}
    assert deadline.answer_by == deadline.started + answer_by_ms(4_000) / 1000


def _welcome_then_answer(listening: socket.socket, received: list[bytes]) -> None:
    connection, _ = listening.accept()
    with connection:
        data = b""
        while data.count(b"\n") < 1:
            data += connection.recv(1 << 16)
        connection.sendall(command_wire.welcome(4_000, ("AGENT_",)))
        while chunk := connection.recv(1 << 16):  # the relay closes its side after the event
            data += chunk
        connection.sendall(command_wire.answer('{"ok": true}', "", 0))
    received.append(data)
