"""Secrets out of journal records, so a session can be shared.

Wherever a record holds JSON (request, response, event payload, and the raw wire lines, which
are parsed, redacted and written again as compact JSON; a line with nothing secret is kept byte
for byte), the value of a secret key (secret_keys; unless null, empty or a boolean) becomes
"[REDACTED]", and so does the value of a header given as a pair (`[["Authorization", "Bearer
..."]]`) or as `{"name": "Authorization", "value": ...}`. When that value is an object or a
list, every string and number in it is hidden and its shape is kept (`"token": {"value":
"[REDACTED]"}`), unless it is a JSON schema (`"password": {"type": "string"}`, a tool's
parameters), which is redacted as any other value. A key that is itself a secret (a token
used as a dict key) is redacted as text. A string that holds a JSON object or array is
redacted as JSON. Every other string, and every line that is not JSON (stderr, stray stdout,
error messages), goes through secret_text. Across the stderr or stdout lines of one hook: a
private key's body is hidden line by line up to its END line, and the one word on the line
after a prompt for a secret ("Enter password:", "Generated password for admin:") is hidden.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterable, Iterator
from typing import Any

from inspector.journal.records import Noise, Record, Stderr, record_from_json
from inspector.journal.secret_keys import is_secret_key
from inspector.journal.secret_prose import prompts_for_secret
from inspector.journal.secret_text import (
    REDACTED,
    SCHEMA_TYPES,
    opens_private_key,
    private_key_end,
    redact_text,
)
from inspector.jsonrpc.messages import go_json

TEXT_FIELDS = frozenset({"raw_request", "raw_response", "line", "stderr"})  # JSON, or text
HEADER_NAME_FIELDS = ("name", "key")  # {"name": "Authorization", "value": "Bearer ..."}


def redact_session(records: Iterable[Record]) -> Iterator[Record]:
    """Each record redacted, in order; a private key's body lines that follow its BEGIN line
    in the same hook's stderr or stdout are hidden whole, and so is a one-word line that
    follows a prompt for a secret there."""
    in_private_key: set[tuple[str, str]] = set()  # (record type, hook)
    after_prompt: set[tuple[str, str]] = set()
    for record in records:
        if not isinstance(record, Stderr | Noise):
            yield redact(record)
            continue
        stream = (record.type, record.hook)
        prompted = stream in after_prompt
        after_prompt.discard(stream)
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
        if prompts_for_secret(record.line):
            after_prompt.add(stream)
        if prompted and _one_word(record.line):
            yield dataclasses.replace(
                record, line=record.line.replace(record.line.strip(), REDACTED)
            )
            continue
        yield redact(record)


def _one_word(line: str) -> bool:
    return len(line.split()) == 1


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
        return redact_line(value) if value.lstrip()[:1] in ("{", "[") else redact_text(value)
    return value


def _redact_object(value: dict[str, Any]) -> dict[str, Any]:
    named = next((value[f] for f in HEADER_NAME_FIELDS if isinstance(value.get(f), str)), "")
    header_is_secret = "value" in value and is_secret_key(named)
    redacted: dict[str, Any] = {}
    for key, item in value.items():
        secret = is_secret_key(key) or (header_is_secret and key == "value")
        hidden = _hidden(item) if secret else redact_value(item)
        redacted[_unused(redact_text(key), redacted)] = hidden
    return redacted


def _hidden(value: Any) -> Any:
    """A secret key's value hidden: every string and number in it, its shape kept; a JSON
    schema of the secret field is no secret."""
    if isinstance(value, dict):
        if value.get("type") in SCHEMA_TYPES:
            return redact_value(value)
        hidden: dict[str, Any] = {}
        for key, item in value.items():  # keys hidden alike stay apart, as in _redact_object
            hidden[_unused(redact_text(key), hidden)] = _hidden(item)
        return hidden
    if isinstance(value, list):
        return [_hidden(item) for item in value]
    return REDACTED if _hideable(value) else value


def _is_pair(item: Any) -> bool:
    return isinstance(item, list) and len(item) == 2 and isinstance(item[0], str)


def _redact_pair(pair: list[Any]) -> list[Any]:
    name, value = pair
    if is_secret_key(name):
        return [name, _hidden(value)]
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
