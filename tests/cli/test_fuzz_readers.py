"""Every reader of a user file, fed hostile documents: deep nesting, alias bombs, numbers too long
for Python, fields of the wrong type, stray bytes. Each gives a value or the project's own error
(naming the file), never another exception, and in bounded time: the examples are fixed
(derandomize) and few, so the whole file stays within seconds. A journal's index is fuzzed
beside a valid journal: what it holds never changes the records read.
tests/hosts/picoclaw/test_fuzz.py covers ordinary malformed configs and scenarios;
tests/cli/test_bad_input.py the same defects end to end."""

from __future__ import annotations

import json
import math
import os
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from inspector.cli.export import export_session
from inspector.config import Config
from inspector.config.errors import ConfigError
from inspector.filter import compile_filter
from inspector.filter.select import select
from inspector.hosts.load import load_config
from inspector.journal.index_files import (
    COLUMNS,
    LINE,
    LINE_SIZE,
    LINES,
    META,
    META_SIZE,
    TEXT,
    VALUES,
    index_folder,
)
from inspector.journal.jsonl import JournalLoadError, dumps, load_journal, scan_journal
from inspector.journal.records import RECORD_TYPES, field_names
from inspector.journal.redact import redact
from inspector.journal.saved import open_journal
from inspector.relay.wire import read_token
from inspector.scenario import Scenario, load_scenario
from inspector.tui.settings import Settings, load_settings
from inspector.tui.themes import load_themes
from tests.hosts.picoclaw.test_fuzz import JSON_VALUES as PLAIN_JSON_VALUES
from tests.support.index import denials_journal, every_line

FIXED = settings(
    derandomize=True,
    max_examples=100,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

# ---- hostile documents -----------------------------------------------------------------------

DEPTHS = st.sampled_from([99, 100, 101, 150, 1_000, 5_000, 50_000])


def nested(depth: int, opener: str) -> str:
    if opener == "[":
        return "[" * depth + "]" * depth
    return '{"a": ' * depth + "1" + "}" * depth


DEEP = st.builds(nested, DEPTHS, st.sampled_from(["[", "{"]))
LONG_NUMBERS = st.integers(4_250, 4_400).map(lambda digits: "-" * (digits % 2) + "7" * digits)


@st.composite
def alias_chains(draw: st.DrawFn) -> str:
    """A flow mapping of anchors, each a list of `fan` aliases to the one before."""
    fan, levels = draw(st.integers(1, 9)), draw(st.integers(1, 9))
    parts = ['a0: &a0 ["lol"]']
    for level in range(1, levels):
        parts.append(f"a{level}: &a{level} [{', '.join([f'*a{level - 1}'] * fan)}]")
    return "{" + ", ".join(parts) + "}"


# json.dumps writes these as NaN and Infinity, and json.loads reads them back
JSON_VALUES = PLAIN_JSON_VALUES | st.sampled_from([math.nan, math.inf, -math.inf])
HOSTILE_JSON = DEEP | LONG_NUMBERS | JSON_VALUES.map(json.dumps)
HOSTILE_YAML = HOSTILE_JSON | alias_chains()
STRAY = st.binary(max_size=60)


def in_document(template: str, values: st.SearchStrategy[str]) -> st.SearchStrategy[bytes]:
    """`template` with one hostile value in its `VALUE` slot, or stray bytes instead."""
    return values.map(lambda value: template.replace("VALUE", value).encode()) | STRAY


# ---- configs of each host --------------------------------------------------------------------

NATIVE = "hooks:\n  gate:\n    command: [python3, x.py]\n    priority: VALUE\n    env: {A: VALUE}\n"
PICOCLAW = '{"hooks": {"enabled": true, "processes": {"gate": {"command": VALUE, "priority": 1}}}}'
JCLI = "events: [PreToolUse]\ncommand: VALUE\ntimeout: 5\n"
CLAUDE = '{"hooks": {"PreToolUse": [{"matcher": VALUE, "hooks": [{"type": "command"}]}]}}'
HOSTS = {  # the file written, what it holds, and whether the config is the file or its project
    "native": ("hooks.yaml", in_document(NATIVE, HOSTILE_YAML), True),
    "picoclaw": ("config.json", in_document(PICOCLAW, HOSTILE_JSON), True),
    "jcli": (".jcli/hooks/gate/HOOK.yaml", in_document(JCLI, HOSTILE_YAML), False),
    "claude": (".claude/settings.json", in_document(CLAUDE, HOSTILE_JSON), False),
}


@pytest.mark.parametrize("host", HOSTS)
@FIXED
@given(data=st.data())
def test_configs_of_each_host(tmp_path: Path, host: str, data: st.DataObject) -> None:
    relative, documents, is_the_config = HOSTS[host]
    path = tmp_path / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data.draw(documents))
    config = path if is_the_config else tmp_path
    try:
        assert isinstance(load_config(config), Config)
    except ConfigError as error:
        assert str(error).startswith(str(config)), str(error)


# ---- scenarios -------------------------------------------------------------------------------

SCENARIO = (
    "turns:\n- user: hi\n  rounds:\n  - tool_calls:\n    - tool: exec\n"
    "      arguments: {x: VALUE}\n  - content: VALUE\n"
)


@FIXED
@given(data=in_document(SCENARIO, HOSTILE_YAML))
def test_scenarios(tmp_path: Path, data: bytes) -> None:
    path = tmp_path / "scenario.yaml"
    path.write_bytes(data)
    try:
        scenario = load_scenario(path)
    except ConfigError as error:
        assert str(error).startswith(str(path)), str(error)
    else:
        assert isinstance(scenario, Scenario)
        json.dumps([call.arguments for call in scenario.calls()])  # what a turn sends


# ---- journals --------------------------------------------------------------------------------

# Mostly a right type, time and seq, so the other fields get checked too.
HEADER = {
    "type": st.sampled_from(sorted(RECORD_TYPES)) | JSON_VALUES,
    "ts": st.just(1_700_000_000.0) | JSON_VALUES,
    "seq": st.integers(0, 5) | JSON_VALUES,
}
FIELDS = {name for cls in RECORD_TYPES.values() for name in field_names(cls)} - set(HEADER)
RECORDS = st.fixed_dictionaries(
    HEADER, optional={name: JSON_VALUES for name in sorted(FIELDS)}
).map(json.dumps)
JOURNAL_LINES = (
    RECORDS
    | DEEP
    | LONG_NUMBERS
    | JSON_VALUES.map(json.dumps)
    | STRAY.map(lambda data: data.replace(b"\n", b" ").decode("utf-8", "replace"))
)


@FIXED
@given(lines=st.lists(JOURNAL_LINES, min_size=1, max_size=6))
def test_journals(tmp_path: Path, lines: list[str]) -> None:
    path = tmp_path / "session.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8", errors="surrogatepass")
    try:
        journal = load_journal(path)
    except JournalLoadError as error:
        assert str(error).startswith(f"{path}:"), str(error)
    else:
        for record in journal.records:  # what export does with each
            dumps(redact(record))


@FIXED
@given(line=RECORDS, limit=st.integers(1, 200))
def test_a_journal_line_over_the_limit_is_an_error_naming_it(
    tmp_path: Path, line: str, limit: int
) -> None:
    path = tmp_path / "session.jsonl"
    path.write_text(line + "\n", encoding="utf-8")
    try:
        load_journal(path, line_limit=limit)
    except JournalLoadError as error:
        if len(line.encode()) + 1 > limit:
            assert str(error).startswith(f"{path}:1: too large: "), str(error)
    else:
        assert len(line.encode()) + 1 <= limit


# ---- settings, themes, token files -----------------------------------------------------------

SETTINGS = "theme: VALUE\nkeymap: {quit: VALUE}\ntheme_dir: VALUE\n"
THEME = 'primary: "#336699"\nvariables: {finding-error: VALUE}\nluminosity_spread: VALUE\n'


@FIXED
@given(data=in_document(SETTINGS, HOSTILE_YAML))
def test_settings_warn_and_fall_back(tmp_path: Path, data: bytes) -> None:
    (tmp_path / "settings.yaml").write_bytes(data)
    loaded, problems = load_settings(tmp_path)
    assert isinstance(loaded, Settings)
    assert all(isinstance(problem, str) for problem in problems)


@FIXED
@given(data=in_document(THEME, HOSTILE_YAML))
def test_themes_warn_and_skip(tmp_path: Path, data: bytes) -> None:
    (tmp_path / "fuzzed.yaml").write_bytes(data)
    themes, failures = load_themes(tmp_path)
    fuzzed = [theme for theme in themes if theme.name == "fuzzed"]
    assert len(fuzzed) + len(failures) == 1, failures
    assert all(failure.startswith(str(tmp_path / "fuzzed.yaml")) for failure in failures)


@FIXED
@given(data=STRAY | st.text(max_size=30).map(str.encode))
def test_token_files(tmp_path: Path, data: bytes) -> None:
    path = tmp_path / "token"
    path.write_bytes(data)
    try:
        token = read_token(path)
    except ValueError as error:
        assert str(error).startswith(f"{path}: "), str(error)
    else:
        assert token and token == token.strip() and "\n" not in token


# ---- a journal's index -----------------------------------------------------------------------

INDEX_FILES = (LINES, COLUMNS, VALUES, TEXT, META)
RECORDS_WRITTEN = 26  # denials_journal's
# Bytes written over a file of the index, its size changed (to a sparse terabyte too), or rows
# that point at another record's line, nowhere, or past the end, counted as a forger would. (A
# row left out and counted out too only the user could write, as they could edit the journal
# itself: it is not looked for, and not fuzzed.)
OVERWRITE = st.tuples(
    st.just("overwrite"),
    st.sampled_from(INDEX_FILES),
    st.integers(0, 3000),
    st.binary(min_size=1, max_size=40),
)
RESIZE = st.tuples(
    st.just("resize"),
    st.sampled_from(INDEX_FILES),
    st.integers(0, 3000) | st.just(1 << 40),
    st.just(b""),
)
ROW = st.tuples(
    st.integers(0, RECORDS_WRITTEN + 3),  # the row's seq
    st.integers(0, RECORDS_WRITTEN - 1) | st.integers(1, 1 << 40),  # a record's line, or anywhere
    st.integers(0, 300) | st.just(0xFFFF_FFFF) | st.none(),  # its size (None: that line's)
    st.integers(0, 9),  # its type
)
INDEX_EDITS = st.lists(OVERWRITE | RESIZE | st.tuples(st.just("row"), ROW), max_size=4)


def _edit_index(journal: Path, edits: list[Any]) -> None:
    folder = index_folder(journal)
    lines = [(offset, size) for offset, size, _record in scan_journal(journal)]
    for how, *what in edits:
        if how == "row":
            if (folder / LINES).stat().st_size > RECORDS_WRITTEN * 2 * LINE_SIZE:
                continue  # made sparse and huge: rows are not written into it
            (seq, line, size, kind), rows = what[0], bytearray((folder / LINES).read_bytes())
            offset, its_size = lines[line] if line < len(lines) else (line, 100)
            rows.extend(bytes(max(0, (seq + 1) * LINE_SIZE - len(rows))))
            offset = offset + 1 if line < len(lines) else offset
            LINE.pack_into(rows, seq * LINE_SIZE, offset, its_size if size is None else size, kind)
            (folder / LINES).write_bytes(rows)
            _recount(folder, rows)  # as a forger would: the count matches the rows
        elif how == "overwrite":
            name, at, data = what
            with (folder / name).open("r+b") as file:
                file.seek(at)
                file.write(data)
        else:
            name, size, _ = what
            os.truncate(folder / name, size)


def _recount(folder: Path, rows: bytes) -> None:
    if (folder / META).stat().st_size > META_SIZE:
        return
    try:
        meta = json.loads((folder / META).read_bytes())
    except ValueError:
        return  # bytes written over it: not a meta.json to count in
    offsets = [LINE.unpack_from(rows, at)[0] for at in range(0, len(rows), LINE_SIZE)]
    meta["records"] = sum(1 for offset in offsets if offset)
    (folder / META).write_bytes(json.dumps(meta).ljust(META_SIZE).encode())


@FIXED
@given(edits=INDEX_EDITS)
def test_an_index_beside_a_journal_never_changes_what_it_reads(
    tmp_path: Path, edits: list[Any]
) -> None:
    journal = denials_journal(Path(tempfile.mkdtemp(dir=tmp_path)) / "session.jsonl")
    expected = every_line(journal)
    _edit_index(journal, edits)
    try:
        records = open_journal(journal).records
        assert [record.to_json() for record in records] == expected
        for expression in ("action:deny", "step 5", "hook:gate"):  # through its columns
            select(records, tuple(RECORD_TYPES.values()), compile_filter(expression))
        assert export_session(journal, journal.with_name("out.jsonl"), redact_secrets=True) == 0
    except JournalLoadError as error:
        assert str(error).startswith(str(journal)), str(error)
