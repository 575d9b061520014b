"""time.Time's JSON form: read as strict RFC 3339, written as RFC 3339 with nanoseconds."""

from __future__ import annotations

import calendar
import re

from inspector.hosts.picoclaw.gojson.types import GoTime

RFC3339 = "2006-01-02T15:04:05Z07:00"
_SHAPE = re.compile(
    rb"(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:(Z)|([+-])(\d{2}):(\d{2}))"
)


class TimeError(ValueError):
    """What time.Time.UnmarshalJSON returns; Go's decoder passes it on as it is."""


def parse_time(raw: bytes) -> GoTime:
    """`raw` is the JSON value's text. Like Go, the quoted bytes are parsed without unescaping."""
    if len(raw) < 2 or raw[:1] != b'"' or raw[-1:] != b'"':
        raise TimeError("Time.UnmarshalJSON: input is not a JSON string")
    body = raw[1:-1]
    match = _SHAPE.fullmatch(body)
    if match is None or not _in_range(match):
        raise TimeError(_parse_error(body.decode("utf-8", "replace")))
    year, month, day, hour, minute, second = (int(match.group(i)) for i in range(1, 7))
    nanos = (match.group(7) or b"").decode()[:9].ljust(9, "0")
    offset = "Z"
    if match.group(9):
        hours, minutes = int(match.group(10)), int(match.group(11))
        if hours or minutes:
            offset = f"{match.group(9).decode()}{hours:02d}:{minutes:02d}"
    fraction = nanos.rstrip("0")
    stamp = f"{year:04d}-{month:02d}-{day:02d}T{hour:02d}:{minute:02d}:{second:02d}"
    return GoTime(stamp + (f".{fraction}" if fraction else "") + offset)


def _in_range(match: re.Match[bytes]) -> bool:
    year, month, day, hour, minute, second = (int(match.group(i)) for i in range(1, 7))
    if not 1 <= month <= 12 or hour > 23 or minute > 59 or second > 59:
        return False
    if not 1 <= day <= calendar.monthrange(year or 2000, month)[1]:
        return False
    return not match.group(9) or (int(match.group(10)) < 24 and int(match.group(11)) < 60)


def _parse_error(text: str) -> str:
    """Go's message for the commonest failure (no year first); other failures get the same
    lead with a shorter explanation."""
    lead = f'parsing time "{text}" as "{RFC3339}"'
    if not re.match(r"\d{4}", text):
        return f'{lead}: cannot parse "{text}" as "2006"'
    return f"{lead}: not RFC 3339"
