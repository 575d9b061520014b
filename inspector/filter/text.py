"""Free-text terms: needles searched in the bodies of a record, with smart case."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Sequence
from typing import Any

from inspector.filter.combine import Predicate

Contains = Callable[[str], bool]

# Serialised payloads, keyed by id() of the object and kept with it so a reused id cannot match.
# Bounded: a refilter of a huge journal re-serialises, a small one (the usual case) does not.
JSON_CACHE_SIZE = 20_000
_json_cache: dict[int, tuple[object, str]] = {}
_json_lock = threading.Lock()


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
        return json.dumps(obj, ensure_ascii=False, separators=(",", ":"), default=str)
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


HAYSTACKS: dict[str, Callable[[Any], str]] = {
    "exchange": _exchange_text,
    "event": lambda record: json_text(record.payload),
    "stderr": lambda record: _plain(record.line),
    "noise": lambda record: _plain(record.line),
    "lifecycle": lambda record: _plain(record.detail),
    "decision": lambda record: _plain(record.reason),
}


def text_term(needles: Sequence[str]) -> Predicate:
    """True when every needle occurs in the record's bodies.

    Smart case: an all-lowercase needle ignores case, one with a capital letter matches exactly.
    """
    contains = _contains_all(
        folded=tuple(needle for needle in needles if needle.lower() == needle),
        exact=tuple(needle for needle in needles if needle.lower() != needle),
    )
    find = HAYSTACKS.get

    def term(record: Any) -> bool:
        haystack = find(record.type)
        return haystack is not None and contains(haystack(record))

    return term


def _contains_all(folded: tuple[str, ...], exact: tuple[str, ...]) -> Contains:
    if not exact and len(folded) == 1:
        [needle] = folded
        return lambda text: needle in text.lower()
    if not folded and len(exact) == 1:
        [needle] = exact
        return lambda text: needle in text

    def contains(text: str) -> bool:
        if not all(map(text.__contains__, exact)):
            return False
        low = text.lower()  # once for all the case-insensitive words
        return all(map(low.__contains__, folded))

    return contains
