"""The PicoClaw decoder's fast path (plain json.loads, then a direct typed decode) against its
full Go-faithful path, on many generated values and lines shaped like PicoClaw's own types,
with the tricky cases mixed in: keys that only match a field case-folded (ID, the Kelvin sign),
duplicate keys, escaped lone surrogates and invalid UTF-8, integers out of int64 and uint64,
-0, floats where Go wants integers, wrong types at any depth, times Go refuses. Whatever the
fast path takes, the full path must give the same; what it cannot take, it leaves to the full
path. Fixed examples (derandomize), so the file stays within seconds."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any
from unittest.mock import patch

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from inspector.hosts.picoclaw import decode as decoder
from inspector.hosts.picoclaw.decode import decode_answer, read_message, typed_params
from inspector.hosts.picoclaw.gojson.fast_decode import NotPlain, decode_plain, read_plain
from inspector.hosts.picoclaw.gojson.schemas import ANSWERS, PARAMS, RPC_MESSAGE
from inspector.hosts.picoclaw.gojson.types import (
    GoType,
    Interface,
    Map,
    Pointer,
    RawMessage,
    Scalar,
    Slice,
    Struct,
    Time,
    deep_equal,
)
from tests.hosts.picoclaw.test_fuzz import JSON_VALUES

FIXED = settings(
    derandomize=True,
    max_examples=300,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
STAGES = sorted(PARAMS)

TRICKY_TEXT = st.sampled_from(["\ud800", "a\udc00b", "\U0001f600", "é", "\u212a", "", "-0"])
TRICKY_INTS = st.sampled_from([0, -1, 2**53 + 1, 2**63 - 1, 2**63, -(2**63), -(2**63) - 1, 2**64])
TRICKY_FLOATS = st.sampled_from([-0.0, 1.5, 1e300, float("inf"), float("nan"), 3.0])
WRONG = st.one_of(
    st.booleans(), TRICKY_INTS, TRICKY_FLOATS, TRICKY_TEXT, st.just([1]), st.just({"a": 1})
)
TIMES = st.sampled_from(
    ["2026-01-02T03:04:05Z", "2026-01-02T03:04:05.123456789+02:00", "0001-01-01T00:00:00Z"]
)

_STRATEGIES: dict[int, st.SearchStrategy[Any]] = {}


def shaped(go_type: GoType) -> st.SearchStrategy[Any]:
    """Values for `go_type`: mostly of the right shape, sometimes wrong or tricky anywhere."""
    made = _STRATEGIES.get(id(go_type))
    if made is None:
        made = _STRATEGIES[id(go_type)] = st.deferred(lambda: _shaped(go_type))
    return made


def _shaped(go_type: GoType) -> st.SearchStrategy[Any]:
    right = _right(go_type)
    return st.one_of(right, right, right, right, right, right, WRONG, st.none())


def _right(go_type: GoType) -> st.SearchStrategy[Any]:
    if isinstance(go_type, Struct):
        return _struct(go_type)
    if isinstance(go_type, Scalar):
        return {
            "string": st.one_of(st.text(max_size=6), TRICKY_TEXT),
            "bool": st.booleans(),
            "float": st.one_of(st.floats(allow_nan=False, allow_infinity=False), TRICKY_FLOATS),
        }.get(go_type.kind, st.one_of(st.integers(-5, 5), TRICKY_INTS))
    if isinstance(go_type, Pointer):
        return shaped(go_type.elem)
    if isinstance(go_type, Slice):
        return st.lists(shaped(go_type.elem), max_size=2)
    if isinstance(go_type, Map):
        return st.dictionaries(
            st.one_of(st.text(max_size=3), TRICKY_TEXT), shaped(go_type.elem), max_size=2
        )
    if isinstance(go_type, Time):
        return st.one_of(TIMES, st.text(max_size=4), st.integers())
    if isinstance(go_type, Interface | RawMessage):
        return st.one_of(JSON_VALUES, TRICKY_TEXT, TRICKY_INTS, TRICKY_FLOATS)
    raise AssertionError(go_type)


def _struct(go_type: Struct) -> st.SearchStrategy[dict[str, Any]]:
    fields = {field.json: shaped(field.type) for field in go_type.fields}
    names = [field.json for field in go_type.fields]
    variants = [name.upper() for name in names] + [name.title() for name in names]
    extra = st.dictionaries(
        st.one_of(st.sampled_from(variants), st.sampled_from(["zz", "\u212a", "é"])),
        WRONG,
        max_size=1,
    )
    return st.builds(
        lambda base, more: {**base, **more},
        st.fixed_dictionaries({}, optional=fields),
        st.one_of(st.just({}), st.just({}), extra),
    )


@contextmanager
def full_path_only() -> Iterator[None]:
    """The decoder with its fast path refused everywhere: the Go-faithful path alone."""

    def refuse(*_: Any) -> Any:
        raise NotPlain

    with patch.multiple(decoder, read_plain=refuse, decode_plain=refuse):
        yield


def _typed_or_error(stage: str, params: Any) -> Any:
    try:
        return typed_params(stage, params)
    except ValueError as error:
        return f"{type(error).__name__}: {error}"


@FIXED
@given(
    st.sampled_from(STAGES).flatmap(lambda stage: st.tuples(st.just(stage), shaped(PARAMS[stage])))
)
def test_typed_params_agrees_with_the_full_path(case: tuple[str, Any]) -> None:
    stage, params = case
    if not isinstance(params, dict):
        params = {"tool": params}
    fast = _typed_or_error(stage, params)
    with full_path_only():
        full = _typed_or_error(stage, params)
    assert deep_equal(fast, full), (fast, full)


@st.composite
def answer_lines(draw: st.DrawFn) -> tuple[str, bytes]:
    """A hook's answer line to a stage call: an envelope around a shaped result, written as a
    hook might (ASCII-escaped or not, invalid UTF-8 for a lone surrogate), sometimes with a
    repeated or case-variant key or a CR spliced into the text."""
    stage = draw(st.sampled_from(STAGES))
    envelope = {
        "jsonrpc": "2.0",
        "id": draw(st.one_of(st.integers(0, 9), TRICKY_INTS, WRONG)),
        "result": draw(shaped(ANSWERS[stage])),
    }
    if draw(st.booleans()):
        envelope["error"] = draw(shaped(RPC_MESSAGE.fields[-1].type))
    text = json.dumps(envelope, ensure_ascii=draw(st.booleans()))
    splice = draw(st.sampled_from(["", "", "", ',"id":3', ',"ID":3', ',"result":{}', ',"x":-0']))
    if draw(st.booleans()):
        text = text.replace("-0.0", "-0")  # as Go writes a float64 -0
    text = text[:-1] + splice + "}" + draw(st.sampled_from(["", "", "\r", " "]))
    return stage, text.encode("utf-8", "surrogatepass")


def _outcome(stage: str, line: bytes) -> Any:
    read = read_message(line)
    node = read.result.node if read.result is not None else None
    fields = (read.kind, read.rpc_id, read.method, read.error, read.problem, read.invalid_utf8)
    if read.kind != "answer":
        return fields, node, None
    current = typed_params(stage, {})
    return fields, node, decode_answer(stage, read, current, "fuzzed")


@FIXED
@given(answer_lines())
def test_answer_lines_read_as_the_full_path_reads_them(case: tuple[str, bytes]) -> None:
    stage, line = case
    fast = _outcome(stage, line)
    with full_path_only():
        full = _outcome(stage, line)
    assert _same(fast, full), (line, fast, full)


def _same(a: Any, b: Any) -> bool:
    """Equal, with the same types all the way down (a Number is not a str, True is not 1)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(_same(a[key], b[key]) for key in a)
    if isinstance(a, list | tuple):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, float):
        return repr(a) == repr(b)  # -0.0 is not 0.0
    return bool(a == b)


ORDINARY = (
    b'{"jsonrpc":"2.0","id":7,"result":{"action":"modify","call":{"tool":"exec",'
    b'"arguments":{"command":"ls","n":2,"ratio":0.5},"meta":{"Iteration":3}}}}'
)


def test_an_ordinary_answer_takes_the_fast_path() -> None:
    message = decode_plain(read_plain(ORDINARY), RPC_MESSAGE)
    answer = decode_plain(message["result"].plain, ANSWERS["before_tool"])
    assert answer["call"]["arguments"] == {"command": "ls", "n": 2.0, "ratio": 0.5}
    assert type(answer["call"]["arguments"]["n"]) is float  # Go's any holds a float64
    assert answer["call"]["meta"]["Iteration"] == 3


@pytest.mark.parametrize(
    "line",
    [
        b'{"id":1,"id":2}',  # Go merges a repeated key in its own order
        b'{"ID":1}',  # matches the field id only case-folded
        b'{"id":1,"result":{"reason":"\\ud800"}}',  # Go reads a lone surrogate as U+FFFD
        b'{"id":1,"result":{"a":-0}}',  # json.loads reads -0 as the int 0, Go as float64 -0
        b'{"id":1,"result":{"a":NaN}}',  # not JSON to Go
        b'{"id":1,"result":"\xff"}',  # invalid UTF-8, one U+FFFD per byte in Go
    ],
)
def test_lines_plain_json_would_misread_are_left_to_the_full_path(line: bytes) -> None:
    with pytest.raises(NotPlain):
        message = decode_plain(read_plain(line), RPC_MESSAGE)
        decode_plain(message["result"].plain, ANSWERS["approve_tool"])


@pytest.mark.parametrize(
    ("value", "go_type"),
    [
        ({"Iteration": 1.0}, PARAMS["before_tool"].fields[0].type),  # a float for an int
        ({"Iteration": 2**63}, PARAMS["before_tool"].fields[0].type),  # beyond int64
        ({"Iteration": True}, PARAMS["before_tool"].fields[0].type),  # a bool is not an int
        ({"tool": "x", "TOOL": "y"}, PARAMS["before_tool"]),  # a case variant
        ({"arguments": {1: "x"}}, PARAMS["before_tool"]),  # json.dumps would write "1"
        ({"arguments": {"x": float("inf")}}, PARAMS["before_tool"]),  # Go cannot read it
    ],
)
def test_params_plain_values_would_misread_are_left_to_the_full_path(
    value: dict[str, Any], go_type: GoType
) -> None:
    with pytest.raises(NotPlain):
        decode_plain(value, go_type)
