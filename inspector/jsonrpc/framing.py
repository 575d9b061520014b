"""Newline framing for hook stdio, with PicoClaw's 1 MiB line limit made visible."""

from __future__ import annotations

from dataclasses import dataclass

# PicoClaw's bufio.Scanner gives up on a line whose length, newline included, exceeds this.
PICOCLAW_MAX_LINE = 1024 * 1024
# Past this we stop keeping the bytes of one line (but still find its end), so a hook that never
# prints a newline cannot exhaust memory.
KEEP_LIMIT = 64 * 1024 * 1024


@dataclass(slots=True)
class Line:
    data: bytes  # without the newline; cut to KEEP_LIMIT bytes when `truncated`
    size: int  # bytes on the wire, without the newline
    truncated: bool = False

    @property
    def over_picoclaw_limit(self) -> bool:
        return self.size + 1 > PICOCLAW_MAX_LINE


class LineSplitter:
    """Turns chunks of bytes, split anywhere, into whole lines."""

    def __init__(self, keep_limit: int = KEEP_LIMIT) -> None:
        self._buffer = bytearray()
        self._dropped = 0  # bytes of the current line past keep_limit
        self._keep_limit = keep_limit

    def feed(self, chunk: bytes) -> list[Line]:
        lines: list[Line] = []
        start = 0
        while True:
            end = chunk.find(b"\n", start)
            if end < 0:
                if start < len(chunk):  # most chunks end with a newline: nothing to keep
                    self._keep(chunk[start:])
                return lines
            if self._buffer or self._dropped:
                self._keep(chunk[start:end])
                lines.append(self._take())
            else:  # the whole line is in this chunk: no copy through the buffer
                data = chunk[start:end]
                if len(data) > self._keep_limit:
                    lines.append(Line(data[: self._keep_limit], len(data), truncated=True))
                else:
                    lines.append(Line(data, len(data)))
            start = end + 1

    def unfinished(self) -> bytes:
        """The bytes of a line begun and not ended (none once past the keep limit)."""
        return b"" if self._dropped else bytes(self._buffer)

    def close(self) -> list[Line]:
        """The unterminated tail, if any, as a last line."""
        if self._buffer or self._dropped:
            return [self._take()]
        return []

    def _keep(self, piece: bytes) -> None:
        room = self._keep_limit - len(self._buffer)
        if len(piece) <= room:
            self._buffer += piece
        else:
            self._buffer += piece[: max(room, 0)]
            self._dropped += len(piece) - max(room, 0)

    def _take(self) -> Line:
        data = bytes(self._buffer)
        line = Line(data=data, size=len(data) + self._dropped, truncated=self._dropped > 0)
        self._buffer.clear()
        self._dropped = 0
        return line
