"""Property tests for everything that reads input the inspector does not control: hook stdout
(framing and JSON-RPC decoding), config files and scenario files. The filter language has its
own in tests/filter/test_filter.py."""

from __future__ import annotations

import json
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from inspector.config import Config
from inspector.config.errors import ConfigError
from inspector.hosts.load import load_config
from inspector.hosts.picoclaw import line_findings
from inspector.hosts.picoclaw.codes import CODES
from inspector.hosts.picoclaw.decode import read_line
from inspector.hosts.picoclaw.gojson.decode import fold
from inspector.hosts.picoclaw.outcome import RpcLine
from inspector.jsonrpc.framing import Line, LineSplitter
from inspector.scenario import Scenario, parse_scenario

QUICK = settings(max_examples=150, deadline=None)
WITH_TMP = settings(
    max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
UINT64_END = 1 << 64

# ---- hook stdout ---------------------------------------------------------------------------

# Mostly short pieces, so newlines, empty lines and split UTF-8 come up often.
PIECES = st.sampled_from([b"\n", b"\n\n", b"{", b"}", b'"id":1', b"\xc3", b"\xa9", b"\xff", b" "])
STREAMS = st.lists(PIECES | st.binary(max_size=12), max_size=40).map(b"".join)


def chunked(data: bytes, cuts: list[int]) -> list[bytes]:
    points = sorted({0, len(data), *(cut % (len(data) + 1) for cut in cuts)})
    return [data[start:end] for start, end in pairwise(points)]


def split_lines(chunks: list[bytes], keep_limit: int | None = None) -> list[Line]:
    splitter = LineSplitter() if keep_limit is None else LineSplitter(keep_limit)
    lines = [line for chunk in chunks for line in splitter.feed(chunk)]
    return lines + splitter.close()


def expected_lines(stream: bytes) -> list[bytes]:
    """What a stream holds: its lines, and the unterminated tail if there is one."""
    lines = stream.split(b"\n")
    return lines if lines[-1] else lines[:-1]


@QUICK
@given(stream=STREAMS, cuts=st.lists(st.integers(min_value=0), max_size=12))
def test_the_splitter_never_loses_or_merges_a_line(stream: bytes, cuts: list[int]) -> None:
    lines = split_lines(chunked(stream, cuts))
    assert [line.data for line in lines] == expected_lines(stream)
    assert all(line.size == len(line.data) and not line.truncated for line in lines)


@QUICK
@given(
    stream=STREAMS,
    cuts=st.lists(st.integers(min_value=0), max_size=12),
    keep=st.integers(min_value=1, max_value=8),
)
def test_a_keep_limit_cuts_lines_short_but_still_finds_every_end(
    stream: bytes, cuts: list[int], keep: int
) -> None:
    lines = split_lines(chunked(stream, cuts), keep_limit=keep)
    want = expected_lines(stream)
    assert [(line.data, line.size, line.truncated) for line in lines] == [
        (data[:keep], len(data), len(data) > keep) for data in want
    ]


def check_read(read: RpcLine) -> None:
    assert read.kind in ("answer", "no-id", "undecodable")
    if read.kind == "answer":
        assert isinstance(read.rpc_id, int) and 0 < read.rpc_id < UINT64_END
    elif read.kind == "undecodable":
        assert read.problem
    if read.kind != "answer":
        assert [finding.code in CODES for finding in line_findings.unread(read)] == [True]


JSON_SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=6)
)
JSON_VALUES = st.recursive(
    JSON_SCALARS,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3)
    ),
    max_leaves=12,
)
IDS = st.integers(min_value=0, max_value=2**70) | JSON_VALUES
JSONISH_LINES = st.one_of(
    st.binary(max_size=40),
    st.text(alphabet='{}[]":,0123456789.-eE truefalsn\\u', max_size=40).map(str.encode),
    st.dictionaries(st.sampled_from(["jsonrpc", "id", "result", "error", "method"]), IDS)
    .map(json.dumps)
    .map(str.encode),
    st.integers(min_value=1, max_value=20_000).map(lambda depth: b"[" * depth + b"]" * depth),
)


@QUICK
@given(lines=st.lists(JSONISH_LINES, max_size=8), cuts=st.lists(st.integers(0), max_size=8))
def test_decode_classifies_every_line_and_never_raises(lines: list[bytes], cuts: list[int]) -> None:
    stream = b"\n".join(lines)
    for line in split_lines(chunked(stream, cuts)):
        check_read(read_line(line.data))


RPC_ERRORS = st.fixed_dictionaries({"code": st.integers(-33000, 0), "message": st.text(max_size=8)})
RESPONSES = st.builds(
    lambda rpc_id, body, extra: {**extra, "jsonrpc": "2.0", "id": rpc_id, **body},
    st.integers(min_value=1, max_value=UINT64_END - 1),
    st.one_of(
        st.builds(lambda result: {"result": result}, JSON_VALUES),
        st.builds(lambda error: {"error": error}, RPC_ERRORS),
        st.just({}),
    ),
    # other keys, none that Go would take for a member of the message (it folds key case)
    st.dictionaries(
        st.text(max_size=4).filter(lambda key: fold(key) not in RPC_KEYS), JSON_VALUES, max_size=2
    ),
)
RPC_KEYS = {fold(key) for key in ("jsonrpc", "id", "method", "params", "result", "error")}


@QUICK
@given(
    responses=st.lists(RESPONSES, min_size=1, max_size=6),
    ascii_only=st.booleans(),
    cuts=st.lists(st.integers(0), max_size=10),
)
def test_well_formed_responses_are_responses_with_their_id_whatever_the_chunking(
    responses: list[dict[str, Any]], ascii_only: bool, cuts: list[int]
) -> None:
    stream = b"".join(
        json.dumps(response, ensure_ascii=ascii_only).encode() + b"\n" for response in responses
    )
    read = [read_line(line.data) for line in split_lines(chunked(stream, cuts))]
    assert [(line.kind, line.rpc_id) for line in read] == [
        ("answer", response["id"]) for response in responses
    ]
    assert [line.error for line in read] == [response.get("error") for response in responses]


# ---- config and scenario files -------------------------------------------------------------

CONFIG_KEYS = [
    # native YAML
    "hooks",
    "defaults",
    "kind",
    "command",
    "dir",
    "env",
    "priority",
    "intercept",
    "observe",
    "enabled",
    "on_timeout",
    "interceptor_timeout_ms",
    # PicoClaw config.json
    "processes",
    "builtins",
    "transport",
    "config",
]
SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(-3, 3)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=5)
    | st.sampled_from(["stdio", "manual", "*", "before_tool", "approve_tool", "python3", "x.py"])
)


def shaped(keys: list[str]) -> st.SearchStrategy[Any]:
    """Dicts, lists and scalars, the dicts keyed mostly by the names the reader looks for."""
    key = st.sampled_from(keys) | st.text(max_size=4)
    return st.recursive(
        SCALARS,
        lambda inner: st.lists(inner, max_size=3) | st.dictionaries(key, inner, max_size=4),
        max_leaves=20,
    )


def dumped(values: st.SearchStrategy[Any]) -> st.SearchStrategy[str]:
    return st.one_of(
        values.map(lambda value: yaml.safe_dump(value, allow_unicode=True)),
        values.map(json.dumps),
        values.map(lambda value: json.dumps(value, indent=2)),
    )


def load_or_error(path: Path) -> None:
    try:
        assert isinstance(load_config(path), Config)
    except ConfigError as error:
        assert str(error).startswith(f"{path}:")


@pytest.mark.parametrize("suffix", [".yaml", ".json"])
@WITH_TMP
@given(text=dumped(shaped(CONFIG_KEYS)) | st.text(max_size=80))
def test_any_config_text_loads_or_is_a_config_error_naming_the_file(
    tmp_path: Path, suffix: str, text: str
) -> None:
    path = tmp_path / f"config{suffix}"
    path.write_text(text, encoding="utf-8")
    load_or_error(path)


SCENARIO_KEYS = [
    "name",
    "session",
    "channel",
    "model",
    "system",
    "tools",
    "turns",
    "user",
    "rounds",
    "content",
    "tool_calls",
    "tool",
    "arguments",
    "result",
    "error",
    "description",
    "parameters",
]


@QUICK
@given(text=dumped(shaped(SCENARIO_KEYS)) | st.text(max_size=80))
def test_any_scenario_text_parses_or_is_a_config_error(text: str) -> None:
    try:
        assert isinstance(parse_scenario(text, "fuzz.yaml"), Scenario)
    except ConfigError as error:
        assert str(error).startswith("fuzz.yaml")


def test_an_impossible_date_in_scenario_arguments_is_a_config_error() -> None:
    text = (
        "turns:\n- user: hi\n  rounds:\n  - tool_calls:\n    - tool: x\n"
        "      arguments: {when: 2001-13-01}\n  - content: done\n"
    )
    with pytest.raises(ConfigError, match="arguments"):
        parse_scenario(text)
