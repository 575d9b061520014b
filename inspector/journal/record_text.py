"""The text of a record a free-text filter searches: an exchange's lines as they crossed the wire
and its error, an event's payload as compact JSON, a stderr or noise line, a lifecycle's detail,
a decision's reason, a reload's files and error. The filter reads it record by record; the
journal's index keeps it lowercased for every record written, so a search over a long session
reads that text, not the records."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from typing import Any

from inspector.journal.records import Record

Haystack = Callable[[Any], str]

# Serialising an event payload costs about 5 us, so a search over 100,000 events would spend half
# a second in json alone. Payloads are cached by id() of the object, and kept with it so a reused
# id cannot match. Bounded: past the bound a refilter pays the serialising again.
JSON_CACHE_SIZE = 100_000
_json_cache: dict[int, tuple[object, str]] = {}
_json_lock = threading.Lock()
_encoder = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), default=str)


def json_text(obj: object) -> str:
    """`obj` as compact JSON, the way it crossed the wire; cached while `obj` is the same object."""
    hit = _json_cache.get(id(obj))
    if hit is not None and hit[0] is obj:
        return hit[1]
    text = _serialise(obj)
    with _json_lock:
        if len(_json_cache) >= JSON_CACHE_SIZE:
            del _json_cache[next(iter(_json_cache))]
        _json_cache[id(obj)] = (obj, text)
    return text


def _serialise(obj: object) -> str:
    try:
        return _encoder.encode(obj)
    except (ValueError, TypeError, RecursionError):  # circular, odd keys, too deep
        return ""


def _plain(value: object) -> str:
    return value if isinstance(value, str) else "" if value is None else str(value)


def _message(message: object) -> str:
    # An exchange that never reached the wire (not sent, still held) has only its message.
    return "" if message is None else json_text(message)


def _exchange_text(record: Any) -> str:
    request, response, error = record.raw_request, record.raw_response, record.error
    if request is None:
        request = _message(record.request)
    if response is None:
        response = _message(record.response)
    # NUL keeps a word from matching across two bodies; no one types it into a filter.
    return f"{request}\0{response}\0{'' if error is None else error}"


def _reload_text(record: Any) -> str:
    files = record.files if isinstance(record.files, list) else []
    return "\0".join([*map(_plain, files), _plain(record.error)])


HAYSTACKS: dict[str, Haystack] = {
    "exchange": _exchange_text,
    "event": lambda record: json_text(record.payload),
    "stderr": lambda record: _plain(record.line),
    "noise": lambda record: _plain(record.line),
    "lifecycle": lambda record: _plain(record.detail),
    "decision": lambda record: _plain(record.reason),
    "reload": _reload_text,
}


def searched_text(record: Record) -> str:
    """What a free-text filter searches in `record` ("" for a type it does not search)."""
    haystack = HAYSTACKS.get(record.type)
    return "" if haystack is None else haystack(record)
