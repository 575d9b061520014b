"""The host's stdin for a command relay: one event, read by the relay's deadline and only up to
a limit, so a host that never closes stdin, or writes without end, still gets an answer in time
and the relay's memory stays small."""

from __future__ import annotations

import os
import select  # socket imports it already: free at the relay's start
import time

# Claude Code's events are kilobytes; a Write of a large file can be megabytes. JSON can write a
# byte of stdin as six (\u0000), and 6 x 8 MiB stays under the inspector's 64 MiB line.
STDIN_LIMIT = 8 * 1024 * 1024
_CHUNK = 1 << 16


class StdinTooLong(Exception):
    """The host wrote more than `limit` bytes; the rest was left unread."""

    def __init__(self, limit: int) -> None:
        super().__init__(f"over {limit >> 20} MiB")
        self.limit = limit


def read_stdin(fd: int, answer_by: float, limit: int = STDIN_LIMIT) -> bytes:
    """Everything on `fd` to its end, read by `answer_by` (time.monotonic(); TimeoutError
    otherwise), or StdinTooLong as soon as more than `limit` bytes have come. Waits with poll
    rather than making `fd` non-blocking: the host may share that pipe's flags."""
    waiting = select.poll()
    waiting.register(fd, select.POLLIN)
    data = bytearray()
    while True:
        left = answer_by - time.monotonic()
        if left <= 0 or not waiting.poll(left * 1000):
            raise TimeoutError
        chunk = os.read(fd, min(_CHUNK, limit + 1 - len(data)))
        if not chunk:
            return bytes(data)
        data += chunk
        if len(data) > limit:
            raise StdinTooLong(limit)
