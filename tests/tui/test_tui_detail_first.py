"""The detail pane puts what matters first: the tool and arguments of a call, the action and
reason of an answer, above meta and context; long strings wrap instead of running off."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Input, Static, TextArea

from inspector.journal.journal import Journal
from inspector.journal.records import Exchange, Finding
from inspector.tui.widgets.detail_pane import DetailPane, tab_id
from tests.support.saved_sessions import LIVE_AND_OPENED, Session, again
from tests.tui.test_tui_widgets import harness, until

META = {"AgentID": "main", "TurnID": "turn-1", "SessionKey": "agent:main:main"}
LONG = "echo " + "x" * 400


def tool_call() -> Exchange:
    params = {"meta": META, "context": {"cwd": "/srv"}, "tool": "exec", "arguments": {"c": LONG}}
    answer = {"reason": "looks fine", "action": "continue"}
    return Exchange(
        hook="guard",
        method="hook.before_tool",
        status="ok",
        request={"jsonrpc": "2.0", "id": 4, "method": "hook.before_tool", "params": params},
        response={"jsonrpc": "2.0", "id": 4, "result": answer},
    )


def lines_with(text: str, *words: str) -> list[int]:
    lines = text.splitlines()
    return [next(i for i, line in enumerate(lines) if f'"{word}"' in line) for word in words]


@LIVE_AND_OPENED
async def test_the_call_and_the_verdict_come_before_meta_and_long_strings_wrap(
    session: Session,
) -> None:
    journal = Journal()
    record = journal.append(tool_call())
    journal = session(journal)
    record = again(journal, record)
    pane = DetailPane(journal)
    async with harness(pane).run_test(size=(100, 40)) as pilot:
        pane.show(record)
        area = pane.query_one(f"#{tab_id('request')}").query_one(TextArea)
        await until(pilot, lambda: '"tool"' in area.text)
        tool, arguments, meta, context = lines_with(
            area.text, "tool", "arguments", "meta", "context"
        )
        assert tool < arguments < meta and arguments < context
        assert area.soft_wrap
        assert area.wrapped_document.height > area.document.line_count  # the long line wraps

        pane.open_tab("response")
        answer = pane.query_one(f"#{tab_id('response')}").query_one(TextArea)
        await until(pilot, lambda: '"action"' in answer.text)
        action, reason = lines_with(answer.text, "action", "reason")
        assert action < reason


@LIVE_AND_OPENED
async def test_find_in_the_request_tab_selects_each_match_in_turn(session: Session) -> None:
    journal = Journal()
    record = journal.append(tool_call())
    journal = session(journal)
    record = again(journal, record)
    pane = DetailPane(journal)
    async with harness(pane).run_test(size=(100, 40)) as pilot:
        pane.show(record)
        area = pane.query_one(f"#{tab_id('request')}").query_one(TextArea)
        await until(pilot, lambda: '"tool"' in area.text)
        pane.start_search()
        field = pane.query_one("#detail-search", Input)
        await until(pilot, lambda: field.has_focus)
        await pilot.press(*"AGENT", "enter")  # case is ignored
        first = area.selection
        assert area.selected_text == "Agent"  # "AgentID" in meta
        await pilot.press("enter")
        assert area.selection != first  # the next one: "agent:main:main"
        assert area.selected_text.lower() == "agent"
        assert not pane.find("no such text")


@LIVE_AND_OPENED
async def test_space_folds_the_object_under_the_cursor_and_minus_outlines_the_whole(
    session: Session,
) -> None:
    journal = Journal()
    record = journal.append(tool_call())
    journal = session(journal)
    record = again(journal, record)
    pane = DetailPane(journal)
    async with harness(pane).run_test(size=(100, 40)) as pilot:
        pane.show(record)
        area = pane.query_one(f"#{tab_id('request')}").query_one(TextArea)
        await until(pilot, lambda: '"tool"' in area.text)
        unfolded = area.text
        (meta,) = lines_with(unfolded, "meta")
        area.focus()
        area.move_cursor((meta + 1, 0))  # inside meta: its AgentID line
        await pilot.press("space")
        assert '"meta": {…3 keys},' in area.text and '"AgentID"' not in area.text
        assert area.cursor_location[0] == meta  # on the folded line, ready to unfold
        await pilot.press("space")
        assert area.text == unfolded

        await pilot.press("minus")  # an outline: every object below the top folded
        assert '"params": {…4 keys}' in area.text and '"tool"' not in area.text
        await pilot.press("minus")
        assert area.text == unfolded

        pane.show(None)
        pane.show(record)  # another record's folds are its own: shown afresh, unfolded
        await until(pilot, lambda: area.text == unfolded)


@LIVE_AND_OPENED
async def test_find_in_the_findings_tab_marks_each_match_in_turn(session: Session) -> None:
    journal = Journal()
    call = tool_call()
    call.findings = [
        Finding("slow-hook", "warning", "took 900 ms"),
        Finding("stdin-unread", "info", "the hook was slow to read"),
    ]
    record = journal.append(call)
    journal = session(journal)
    record = again(journal, record)
    pane = DetailPane(journal)
    async with harness(pane).run_test(size=(100, 40)) as pilot:
        pane.show(record)
        pane.open_tab("findings")
        body = pane.query_one(f"#{tab_id('findings')}").query_one(Static)
        await until(pilot, lambda: "slow-hook" in str(body.content))

        def marked() -> list[tuple[int, str]]:
            content = body.content
            assert isinstance(content, Text)
            spans = [span for span in content.spans if "reverse" in str(span.style)]
            return [(span.start, content.plain[span.start : span.end]) for span in spans]

        assert pane.find("SLOW")
        [(first, word)] = marked()
        assert word == "slow"  # in slow-hook
        assert pane.find("slow")
        [(second, word)] = marked()
        assert word == "slow" and second > first  # "slow to read", the next one
        assert pane.find("slow")
        assert marked() == [(first, "slow")]  # round the end
        assert not pane.find("nowhere")
