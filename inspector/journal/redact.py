"""Secrets out of journal records, so a session can be shared.

Wherever a record holds JSON (request, response, event payload, and the raw wire lines, which
are parsed, redacted and written again as compact JSON; a line with nothing secret is kept byte
for byte), the value of a secret key (secret_keys; unless null, empty or a boolean) becomes
"[REDACTED]", and so does the value of a header given as a pair (`[["Authorization", "Bearer
..."]]`) or as `{"name": "Authorization", "value": ...}`. A key that is itself a secret (a token
used as a dict key) is redacted as text. Every other string, and every line that is not JSON
(stderr, stray stdout, error messages), goes through secret_text. A private key printed over
several stderr or stdout lines of one hook is hidden line by line up to its END line.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterable, Iterator
from typing import Any

from inspector.journal.records import Noise, Record, Stderr, record_from_json
from inspector.journal.secret_keys import is_secret_key
from inspector.journal.secret_text import (
    REDACTED,
    opens_private_key,
    private_key_end,
    redact_text,
)
from inspector.protocol.jsonrpc import go_json

TEXT_FIELDS = frozenset({"raw_request", "raw_response", "line", "stderr"})  # JSON, or text
HEADER_NAME_FIELDS = ("name", "key")  # {"name": "Authorization", "value": "Bearer ..."}


def redact_session(records: Iterable[Record]) -> Iterator[Record]:
    """Each record redacted, in order; a private key's body lines that follow its BEGIN line
    in the same hook's stderr or stdout are hidden whole."""
    in_private_key: set[tuple[str, str]] = set()  # (record type, hook)
    for record in records:
        if not isinstance(record, Stderr | Noise):
            yield redact(record)
            continue
        stream = (record.type, record.hook)
        if stream in in_private_key:
            end = private_key_end(record.line)
            if end < 0:
                yield dataclasses.replace(record, line=REDACTED)
                continue
            in_private_key.discard(stream)
            hidden = REDACTED if end else ""
            yield dataclasses.replace(record, line=hidden + redact_line(record.line[end:]))
            continue
        if opens_private_key(record.line):
            in_private_key.add(stream)
        yield redact(record)


def redact(record: Record) -> Record:
    """A copy of `record` with every secret replaced by "[REDACTED]"."""
    return record_from_json({name: _field(name, value) for name, value in record.to_json().items()})


def _field(name: str, value: Any) -> Any:
    if name in TEXT_FIELDS and isinstance(value, str):
        return redact_line(value)
    return redact_value(value)


def redact_line(text: str) -> str:
    """A wire line: redacted as JSON when it is a JSON object or array, else as text."""
    try:
        parsed = json.loads(text)
    except (ValueError, RecursionError):
        return redact_text(text)
    if not isinstance(parsed, dict | list):
        return redact_text(text)
    redacted = redact_value(parsed)
    return text if redacted == parsed else go_json(redacted)


def redact_value(value: Any) -> Any:
    """A copy of a JSON value with secret keys' values and secrets in strings replaced."""
    if isinstance(value, dict):
        return _redact_object(value)
    if isinstance(value, list):
        if value and all(_is_pair(item) for item in value):  # [[name, value], ...]: headers
            return [_redact_pair(item) for item in value]
        return [redact_value(item) for item in value]
    if isinstance(value, str):
        return redact_text(value)
    return value


def _redact_object(value: dict[str, Any]) -> dict[str, Any]:
    named = next((value[f] for f in HEADER_NAME_FIELDS if isinstance(value.get(f), str)), "")
    header_is_secret = "value" in value and is_secret_key(named)
    redacted: dict[str, Any] = {}
    for key, item in value.items():
        secret = is_secret_key(key) or (header_is_secret and key == "value")
        hidden = REDACTED if secret and _hideable(item) else redact_value(item)
        redacted[_unused(redact_text(key), redacted)] = hidden
    return redacted


def _is_pair(item: Any) -> bool:
    return isinstance(item, list) and len(item) == 2 and isinstance(item[0], str)


def _redact_pair(pair: list[Any]) -> list[Any]:
    name, value = pair
    if is_secret_key(name) and _hideable(value):
        return [name, REDACTED]
    return [redact_text(name), redact_value(value)]


def _unused(key: str, taken: dict[str, Any]) -> str:
    """Two secret keys both redacted stay two keys."""
    candidate, number = key, 1
    while candidate in taken:
        number += 1
        candidate = f"{key} {number}"
    return candidate


def _hideable(value: Any) -> bool:
    return not (value is None or value == "" or isinstance(value, bool))
