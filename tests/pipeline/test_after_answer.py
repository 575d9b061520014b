"""Bookkeeping put off until the agent has its answer (inspector.hosts.after_answer)."""

from __future__ import annotations

import asyncio

from inspector.hosts.after_answer import after_answer, answer_first, catch_up


def test_outside_a_relayed_call_work_runs_at_once() -> None:
    done: list[str] = []
    after_answer(lambda: done.append("now"))
    catch_up()  # nothing waits: nothing happens
    assert done == ["now"]


def test_inside_work_waits_for_the_answer_and_runs_in_order() -> None:
    done: list[str] = []
    with answer_first() as answered:
        after_answer(lambda: done.append("reading"))
        after_answer(lambda: done.append("decision"))
        done.append("answer written")
        answered()
        assert done == ["answer written", "reading", "decision"]
        after_answer(lambda: done.append("late"))  # still inside: waits for the end
        assert done[-1] == "decision"
    assert done[-1] == "late"


def test_catch_up_runs_what_waits_before_the_next_hook_is_asked() -> None:
    done: list[str] = []
    with answer_first():
        after_answer(lambda: done.append("first hook's reading"))
        catch_up()
        done.append("second hook asked")
    assert done == ["first hook's reading", "second hook asked"]


def test_work_left_when_the_call_fails_still_runs() -> None:
    done: list[str] = []
    try:
        with answer_first():
            after_answer(lambda: done.append("reading"))
            raise asyncio.CancelledError
    except asyncio.CancelledError:
        pass
    assert done == ["reading"]


async def test_a_task_started_inside_and_outliving_the_call_runs_its_work_at_once() -> None:
    done: list[str] = []
    release = asyncio.Event()

    async def straggler() -> None:
        await release.wait()
        after_answer(lambda: done.append("straggler"))
        done.append("after")

    with answer_first():
        task = asyncio.create_task(straggler())  # it inherits the call's context
    release.set()
    await task
    assert done == ["straggler", "after"]


async def test_concurrent_calls_keep_their_own_queues() -> None:
    done: list[str] = []
    a_waiting, b_answered = asyncio.Event(), asyncio.Event()

    async def call_a() -> None:
        with answer_first() as answered:
            after_answer(lambda: done.append("a bookkeeping"))
            a_waiting.set()
            await b_answered.wait()  # b answers while a's bookkeeping waits
            done.append("a answered")
            answered()

    async def call_b() -> None:
        await a_waiting.wait()
        with answer_first() as answered:
            after_answer(lambda: done.append("b bookkeeping"))
            done.append("b answered")
            answered()
        b_answered.set()

    await asyncio.gather(call_a(), call_b())
    assert done == ["b answered", "b bookkeeping", "a answered", "a bookkeeping"]
