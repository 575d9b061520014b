"""The filter language: terms, operators, precedence, globs, quoting, smart case, errors."""

from __future__ import annotations

import string
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from inspector.bridge.jsonrpc_session import CONNECTED, DISCONNECTED
from inspector.bridge.listener import REFUSED
from inspector.filter import FilterError, compile_filter
from inspector.filter.known_values import KNOWN_VALUES
from inspector.filter.parser import MAX_LENGTH
from inspector.filter.select import select
from inspector.journal.journal import Journal
from inspector.journal.records import (
    RECORD_TYPES,
    Decision,
    Event,
    Exchange,
    Finding,
    Lifecycle,
    Noise,
    Record,
    Reload,
    Stderr,
)
from tests.support.saved_sessions import reopened

RAW_BEFORE_TOOL = (
    '{"jsonrpc":"2.0","id":3,"method":"hook.before_tool","params":{"tool":"exec",'
    '"arguments":{"command":"rm -rf build/"}}}'
)
RAW_DENY = '{"jsonrpc":"2.0","id":3,"result":{"action":"deny_tool","reason":"Destructive"}}'
RAW_AFTER_TOOL = '{"jsonrpc":"2.0","id":4,"method":"hook.after_tool","params":{"tool":"read_file"}}'


def make_records() -> dict[str, Record]:
    return {
        "denied": Exchange(
            hook="review-gate",
            method="hook.before_tool",
            request={
                "jsonrpc": "2.0",
                "id": 3,
                "method": "hook.before_tool",
                "params": {"tool": "exec", "arguments": {"command": "rm -rf build/"}},
            },
            raw_request=RAW_BEFORE_TOOL,
            response={"jsonrpc": "2.0", "id": 3, "result": {"action": "deny_tool"}},
            raw_response=RAW_DENY,
            status="ok",
            action="deny_tool",
            source="relay:picoclaw",
            turn="turn-3",
            findings=[Finding("late-answer", "warning", "answered after 4.8 s")],
        ),
        "timeout": Exchange(
            hook="redactor",
            method="hook.after_tool",
            request={"jsonrpc": "2.0", "id": 4, "method": "hook.after_tool", "params": {}},
            raw_request=RAW_AFTER_TOOL,
            status="timeout",
            error="no answer within 5000 ms",
            source="scenario",
            turn="turn-4",
        ),
        "unsent": Exchange(
            hook="weather",
            method="hook.before_llm",
            request={"jsonrpc": "2.0", "id": 0, "params": {"messages": ["Secret plan"]}},
            status="not_sent",
            source="composer",
        ),
        "event": Event(
            kind="agent.tool.exec_end",
            severity="warn",
            payload={
                "kind": "agent.tool.exec_end",
                "scope": {"turn_id": "turn-3"},
                "payload": {"Tool": "exec", "Arguments": {"command": "pytest -q"}},
            },
            source="scenario",
            delivered=["event-logger"],
            findings=[Finding("observer-failed", "warning", "event-logger: broken pipe")],
        ),
        "stderr": Stderr(hook="review-gate", line="Traceback: KeyError 'tool'"),
        "noise": Noise(
            hook="weather",
            line='debug: loaded "cities.json" from C:\\data',
            findings=[Finding("stdout-not-json", "error", "not JSON")],
        ),
        "lifecycle": Lifecycle(
            hook="review-gate", state="exited", detail="exit code 1 (won't restart)"
        ),
        "decision": Decision(
            stage="approve_tool",
            verdict="denied",
            by="review-gate",
            reason="rm -rf is not allowed",
            source="relay:picoclaw",
            turn="turn-3",
            tool="exec",
        ),
        "reload": Reload(
            files=["hooks/gate.py"],
            restarted=["review-gate"],
            unchanged=["weather"],
            error="line 3: bad indent",
        ),
    }


RECORDS = make_records()
ALL = set(RECORDS)
EXCHANGES = {"denied", "timeout", "unsent"}
REVIEW_GATE = {"denied", "stderr", "lifecycle", "decision", "reload"}  # all about hook review-gate


def shown(expression: str) -> set[str]:
    predicate = compile_filter(expression)
    return {name for name, record in RECORDS.items() if predicate(record)}


TERMS = [
    ("", ALL),
    ("   \t", ALL),
    ("hook:review-gate", REVIEW_GATE),
    ("hook:REVIEW-Gate", REVIEW_GATE),
    ("hook:weather", {"unsent", "noise"}),  # a reload names the hooks it touched, not the rest
    ("hook:event-logger", {"event"}),  # an event names the hooks it was delivered to
    ("method:before_tool", {"denied"}),
    ("method:hook.before_tool", {"denied"}),
    ("method:approve_tool", {"decision"}),  # a decision's stage
    ("method:hook.approve_tool", {"decision"}),
    ("action:deny_tool", {"denied"}),
    ("action:denied", {"decision"}),
    ("status:ok", {"denied"}),
    ("status:timeout", {"timeout"}),
    ("status:not_sent", {"unsent"}),
    ("state:exited", {"lifecycle"}),
    ("source:scenario", {"timeout", "event"}),
    ("source:relay", {"denied", "decision"}),
    ("source:relay:picoclaw", {"denied", "decision"}),
    ("tool:exec", {"denied", "event", "decision"}),
    ("tool:read_file", set()),  # after_tool here has no params.tool
    ("turn:turn-3", {"denied", "event", "decision"}),
    ("type:stderr", {"stderr"}),
    ("type:reload", {"reload"}),
    ("type:Exchange", EXCHANGES),
    ("kind:agent.tool.exec_end", {"event"}),
    ("kind:tool_exec_end", {"event"}),  # the legacy name
    ("severity:warn", {"denied", "event"}),
    ("severity:warning", {"denied", "event"}),
    ("severity:error", {"noise"}),
    ("finding", {"denied", "event", "noise"}),
    ("FINDING", {"denied", "event", "noise"}),
    ("finding:late-answer", {"denied"}),
    ("finding:STDOUT-NOT-JSON", {"noise"}),
]

GLOBS = [
    ("hook:*gate", REVIEW_GATE),
    ("hook:review-*", REVIEW_GATE),
    ("hook:*view*", REVIEW_GATE),
    ("hook:w?ather", {"unsent", "noise"}),
    ("hook:r*-g*e", REVIEW_GATE),
    ("method:*_tool", {"denied", "timeout", "decision"}),
    ("method:hook.*", EXCHANGES | {"decision"}),
    ("source:relay:*", {"denied", "decision"}),
    ("type:e*", EXCHANGES | {"event"}),
    ("kind:agent.tool.*", {"event"}),
    ("finding:stdout-*", {"noise"}),
    ("status:*", EXCHANGES),
    ("turn:turn-?", {"denied", "timeout", "event", "decision"}),
    ("hook:[x]*", set()),  # brackets are plain characters
    ("method:Pre*", set()),  # a glob that names a known method family is accepted
    ("host:picoclaw", ALL),  # a record that names no host follows PicoClaw's rules
    ("host:jcli | host:claude", set()),
]

TEXT = [
    ("rm", {"denied", "decision"}),
    ("RM", set()),  # a capital letter makes the search case-sensitive
    ("keyerror", {"stderr"}),  # all lowercase: any case
    ("KeyError", {"stderr"}),
    ("KEYERROR", set()),
    ("destructive", {"denied"}),  # in the raw response
    ("5000 ms", {"timeout"}),  # two words, both in the exchange's error
    ('"5000 ms"', {"timeout"}),
    ("secret", {"unsent"}),  # never on the wire: searched in its message
    ("pytest", {"event"}),  # in the event payload
    ("""'"tool":"exec"'""", {"denied", "event"}),  # raw JSON, as it crossed the wire
    ("""'"Tool":"exec"'""", {"event"}),  # a capital letter: case-sensitive
    ('"\\"Tool\\":\\"exec\\""', {"event"}),  # the same in double quotes
    ("won't", {"lifecycle"}),  # a quote inside a word is a plain character
    ("'KeyError \\'tool\\''", {"stderr"}),  # \' inside single quotes
    ("hook:'review-gate'", REVIEW_GATE),
    ('hook:"review-gate" type:stderr', {"stderr"}),
    ("rm allowed", {"decision"}),  # every word, in any body
    ('"exit code"', {"lifecycle"}),
    ("gate.py", {"reload"}),  # a reload's files and error
    ("indent", {"reload"}),
    ('"\\"cities.json\\""', {"noise"}),  # \" is a quote
    ('"C:\\\\data"', {"noise"}),  # \\ is a backslash
    ('"from C:\\data"', {"noise"}),  # any other backslash is kept as it is
    ('"not"', {"decision"}),  # quoted keywords are text
    ('"finding"', set()),
]

OPERATORS = [
    ("!type:exchange", ALL - EXCHANGES),
    ("not type:exchange", ALL - EXCHANGES),
    ("NOT type:exchange", ALL - EXCHANGES),
    ("!!type:stderr", {"stderr"}),
    ("!status:ok", ALL - {"denied"}),  # records without a status are not ok
    ("hook:review-gate & type:stderr", {"stderr"}),
    ("hook:review-gate and type:stderr", {"stderr"}),
    ("hook:review-gate type:stderr", {"stderr"}),
    ("type:stderr | type:noise", {"stderr", "noise"}),
    ("type:stderr or type:noise", {"stderr", "noise"}),
    ("type:stderr|type:noise", {"stderr", "noise"}),
    ("rm | keyerror", {"denied", "decision", "stderr"}),
    ("(type:stderr)", {"stderr"}),
    ("((type:stderr | type:noise))", {"stderr", "noise"}),
    ("!(type:stderr | type:noise)", ALL - {"stderr", "noise"}),
]

PRECEDENCE = [
    # & binds tighter than |
    ("type:stderr | type:noise & hook:review-gate", {"stderr"}),
    ("(type:stderr | type:noise) & hook:weather", {"noise"}),
    ("type:noise & hook:weather | type:stderr", {"stderr", "noise"}),
    # adjacency is & and binds as tightly
    ("type:stderr | type:noise hook:review-gate", {"stderr"}),
    # ! binds tighter than &
    ("!type:stderr & hook:review-gate", REVIEW_GATE - {"stderr"}),
    ("!(type:stderr & hook:review-gate)", ALL - {"stderr"}),
    (
        "not type:stderr and hook:review-gate or type:noise",
        REVIEW_GATE - {"stderr"} | {"noise"},
    ),
    ("not type:stderr and hook:weather or type:event", {"unsent", "noise", "event"}),
]


@pytest.mark.parametrize(("expression", "expected"), TERMS + GLOBS + TEXT + OPERATORS + PRECEDENCE)
def test_filter_selects(expression: str, expected: set[str]) -> None:
    assert shown(expression) == expected


ERRORS = [
    ("(hook:gate", 10, "expected ')'"),
    ("(hook:gate type:stderr", 22, "expected ')'"),
    ("hook:gate)", 9, "unexpected ')'"),
    ("hok:gate", 0, "unknown field 'hok' (did you mean 'hook'?)"),
    ("hook:gate & staus:ok", 12, "unknown field 'staus' (did you mean 'status'?)"),
    ("hook:", 5, "expected a value after 'hook:'"),
    ("hook:gate &", 11, "expected a term after '&'"),
    ("hook:a | | hook:b", 9, "expected a term after '|'"),
    ("| hook:gate", 0, "unexpected '|'"),
    ("()", 0, "empty parentheses"),
    ('hook:a "unterminated', 7, "unterminated string"),
    ('hook:"open', 5, "unterminated string"),
    ("'open", 0, "unterminated string"),
    ('"tool":"exec"', 6, "expected a field name before ':'"),
    ("type:bogus", 5, "unknown record type 'bogus'"),
    ("!", 1, "expected a term after '!'"),
    ("hook:a and not", 14, "expected a term after 'not'"),
    ("(" * 60 + "x", 50, "more than 50 nested"),
    ("status:timout", 7, "unknown status 'timout' (did you mean 'timeout'?)"),
    ("method:before_toll", 7, "unknown method 'before_toll' (did you mean 'before_tool'?)"),
    ("method:hook.aprove_tool", 7, "unknown method 'hook.aprove_tool' (did you mean"),
    ("method:PreTolUse", 7, "unknown method 'PreTolUse' (did you mean 'PreToolUse'?)"),
    ("state:exitd", 6, "unknown state 'exitd' (did you mean 'exited'?)"),
    ("severity:eror", 9, "unknown severity 'eror' (did you mean 'error'?)"),
    ("host:j-cli", 5, "unknown host 'j-cli' (did you mean 'jcli'?)"),
    ("status:zz*", 7, "unknown status 'zz*' (one of ok, error, timeout,"),
    ("hook:a | method:'xyzzy'", 16, "unknown method 'xyzzy'"),
]


@pytest.mark.parametrize(("expression", "position", "message"), ERRORS)
def test_bad_expressions_say_what_and_where(expression: str, position: int, message: str) -> None:
    with pytest.raises(FilterError) as caught:
        compile_filter(expression)
    assert caught.value.position == position
    assert caught.value.message.startswith(message)
    assert str(caught.value) == f"{caught.value.message} (column {position + 1})"


def test_every_state_a_lifecycle_record_can_have_is_a_known_state() -> None:
    """A relay's connection states come from the bridge, a layer above the filter."""
    relay_states = {CONNECTED, DISCONNECTED, REFUSED}
    assert relay_states <= set(KNOWN_VALUES["state"])
    for state in relay_states:
        assert compile_filter(f"state:{state}")(Lifecycle(hook="picoclaw", state=state))


def test_an_unknown_field_far_from_any_lists_the_fields() -> None:
    with pytest.raises(FilterError, match=r"one of hook, method, .*type"):
        compile_filter("zzzzzz:1")


def test_long_chains_stay_shallow() -> None:
    """The longest filter allowed holds more alternatives than the stack has frames."""
    alternatives = "|".join(["hook:h"] * 1_400) + "|type:stderr"
    assert len(alternatives) <= MAX_LENGTH
    predicate = compile_filter(alternatives)
    assert predicate(RECORDS["stderr"]) and not predicate(RECORDS["noise"])
    assert compile_filter(" ".join(["rm"] * 3_000))(RECORDS["denied"])


def test_a_record_type_the_filter_does_not_know_has_no_fields() -> None:
    assert compile_filter("")(Record())
    assert not compile_filter("hook:x")(Record())
    assert compile_filter("!hook:x")(Record())


def test_a_new_payload_object_is_searched_afresh() -> None:
    event = Event(kind="agent.turn.start", payload={"note": "first"})
    assert compile_filter("first")(event)
    event.payload = {"note": "second"}
    assert compile_filter("second")(event) and not compile_filter("first")(event)


# ---- properties ---------------------------------------------------------------------------

FILTER_ALPHABET = string.ascii_letters + string.digits + ' ()!&|":*?\\._-\t'
expressions_as_typed = st.text(FILTER_ALPHABET, max_size=40) | st.text(max_size=40)

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner),
    max_leaves=8,
)
odd = st.none() | st.integers() | st.text(max_size=10) | json_values
findings = st.lists(
    st.builds(
        Finding, st.text(max_size=6), st.sampled_from(["error", "warning", "info"]), st.text()
    ),
    max_size=2,
)
request_like = st.fixed_dictionaries({"params": st.fixed_dictionaries({"tool": odd}) | odd}) | odd


def records_of_every_type() -> st.SearchStrategy[Record]:
    """Records as a hand-edited or newer JSONL file might hold them: any field, any JSON value."""
    fields: dict[str, Any] = {"hook": odd, "source": odd, "findings": findings}
    return st.one_of(
        st.builds(
            Exchange,
            method=odd,
            request=request_like,
            response=odd,
            raw_request=st.none() | st.text(),
            raw_response=st.none() | st.text(),
            error=odd,
            status=odd,
            turn=odd,
            action=odd,
            **fields,
        ),
        st.builds(
            Event,
            kind=odd,
            severity=odd,
            payload=st.fixed_dictionaries({"payload": odd, "scope": odd}) | json_values,
            delivered=odd,
            source=odd,
            findings=findings,
        ),
        st.builds(Stderr, hook=odd, line=odd),
        st.builds(Noise, hook=odd, line=odd, findings=findings),
        st.builds(Lifecycle, hook=odd, state=odd, detail=odd),
        st.builds(Decision, stage=odd, verdict=odd, by=odd, reason=odd, turn=odd, tool=odd),
        st.builds(Reload, files=odd, added=odd, removed=odd, restarted=odd, error=odd),
        st.builds(Record),
    )


FIELD_NAMES = "hook method action status state source tool turn kind severity finding host type"
names = st.sampled_from(FIELD_NAMES.split())
values = st.text(string.ascii_lowercase + "*?._-:", min_size=1, max_size=8)


@st.composite
def terms(draw: st.DrawFn) -> str:
    name = draw(names)
    if name == "type":
        return f"type:{draw(st.sampled_from(['exchange', 'event', 'stderr', 'noise', '*e*']))}"
    if name in KNOWN_VALUES:  # a closed set: any other value is an error
        return f"{name}:{draw(st.sampled_from([*KNOWN_VALUES[name], '*']))}"
    if draw(st.booleans()):
        return f"{name}:{draw(values)}"
    text = draw(st.text(max_size=8)).replace("\\", "\\\\").replace('"', '\\"')
    return f'"{text}"' if draw(st.booleans()) else f'{name}:"{text}"'


valid_expressions = st.recursive(
    terms() | st.just("finding") | st.sampled_from(["rm", "KeyError", "exec"]),
    lambda inner: st.one_of(
        inner.map(lambda e: f"!{e}"),
        inner.map(lambda e: f"not ({e})"),
        st.tuples(inner, st.sampled_from([" & ", " | ", " ", " and ", " or "]), inner).map(
            lambda parts: f"({parts[0]}){parts[1]}({parts[2]})"
        ),
    ),
    max_leaves=6,
)


@settings(max_examples=400)
@given(expressions_as_typed)
def test_any_text_compiles_or_raises_filter_error(text: str) -> None:
    try:
        predicate = compile_filter(text)
    except FilterError as error:
        assert 0 <= error.position <= len(text)
        return
    for record in RECORDS.values():
        assert predicate(record) in (True, False)


@settings(max_examples=300)
@given(valid_expressions, st.lists(records_of_every_type(), max_size=4))
def test_compiled_predicates_never_raise_and_operators_mean_what_they_say(
    expression: str, records: list[Record]
) -> None:
    predicate = compile_filter(expression)
    negated = compile_filter(f"!({expression})")
    conjunction = compile_filter(f"({expression}) & type:exchange")
    disjunction = compile_filter(f"({expression}) | type:stderr")
    for record in [*records, *RECORDS.values()]:
        result = predicate(record)
        assert result in (True, False)
        assert negated(record) is not result
        assert conjunction(record) == (result and record.type == "exchange")
        assert disjunction(record) == (result or record.type == "stderr")


@pytest.mark.parametrize(("expression", "expected"), TERMS + GLOBS + TEXT + OPERATORS + PRECEDENCE)
def test_filter_selects_over_a_session_opened_from_disk(
    expression: str, expected: set[str], tmp_path: Path
) -> None:
    journal = Journal()
    records = make_records()
    for record in records.values():
        journal.append(record)
    opened = reopened(journal, tmp_path)
    positions = select(opened.records, tuple(RECORD_TYPES.values()), compile_filter(expression))
    names = list(records)
    assert {names[p] for p in positions} == expected
