"""Bookkeeping that can wait for the agent's answer. Within a relayed call (`answer_first`), the
journal work the answer does not depend on (a hook's reading put on record, the chain's
decision) runs right after the answer is written to the agent, so a live agent never waits for
it; anywhere else it runs at once. The context variable is per task, so concurrent calls keep
their own queues, and a task a call starts and that outlives it runs its work at once."""

from __future__ import annotations

import contextvars
from collections.abc import Callable, Iterator
from contextlib import contextmanager

Work = Callable[[], object]


class _Waiting:
    __slots__ = ("open", "work")

    def __init__(self) -> None:
        self.work: list[Work] = []
        self.open = True

    def run(self) -> None:
        while self.work:
            self.work.pop(0)()


_WAITING: contextvars.ContextVar[_Waiting | None] = contextvars.ContextVar(
    "after_answer", default=None
)


def after_answer(work: Work) -> None:
    """Run `work` once the agent has its answer: now, outside a relayed call."""
    waiting = _WAITING.get()
    if waiting is None or not waiting.open:
        work()
    else:
        waiting.work.append(work)


def catch_up() -> None:
    """Run the waiting work now: what was put off so far must be on record before what comes
    next (the next hook of a chain is asked, and a person may look at the journal meanwhile)."""
    waiting = _WAITING.get()
    if waiting is not None:
        waiting.run()


@contextmanager
def answer_first() -> Iterator[Callable[[], None]]:
    """Within, after_answer waits; call the function this yields once the answer is written
    (leaving runs what is left, however the block ends)."""
    waiting = _Waiting()
    token = _WAITING.set(waiting)
    try:
        yield waiting.run
    finally:
        waiting.open = False
        _WAITING.reset(token)
        waiting.run()
