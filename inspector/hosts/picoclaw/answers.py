"""How PicoClaw's host reads one hook's answer at one stage: the exchange's recorded answer goes
through PicoClaw's own decoder (inspector/hosts/picoclaw) once, and that one reading gives both
the decision and the findings."""

from __future__ import annotations

from typing import Any

from inspector.hosts.picoclaw.decode import decode_answer, read_recorded, typed_params
from inspector.hosts.picoclaw.gojson.decode import GoDecodeError
from inspector.hosts.picoclaw.outcome import APPROVED, DENIED, SKIPPED, Decoded
from inspector.journal.journal import Journal
from inspector.journal.records import (
    STATUS_DROPPED,
    STATUS_ERROR,
    STATUS_INVALID,
    STATUS_OK,
    STATUS_TIMEOUT,
    Exchange,
)
from inspector.jsonrpc.messages import go_json
from inspector.jsonrpc.stages import CONTINUE, MODIFY, RESPOND

ANSWERED = frozenset({STATUS_OK, STATUS_ERROR, STATUS_INVALID})  # a line matched the call


def read_answer(stage: str, exchange: Exchange, current: dict[str, Any]) -> Decoded:
    """What PicoClaw makes of the answer in `exchange` to the `stage` call that sent `current`
    (typed, see typed_params). A call that got no answer fails as PicoClaw's call() fails:
    interceptors are skipped, approvals denied."""
    if exchange.status in ANSWERED and exchange.response is not None:
        text = exchange.raw_response
        if text is None:  # an answer made here (a person's approval), not read from a pipe
            text = go_json(exchange.response)
        return decode_answer(stage, read_recorded(text), current, exchange.hook)
    if stage != "approve_tool":
        return Decoded(stage, exchange.hook, SKIPPED, value=current, error=_failure(exchange))
    if exchange.status in (STATUS_TIMEOUT, STATUS_DROPPED):  # a dropped request never answers
        reason = f'tool approval hook "{exchange.hook}" timed out'
    else:
        reason = f'tool approval hook "{exchange.hook}" failed'
    return Decoded(stage, exchange.hook, DENIED, reason=reason, error=_failure(exchange))


def _failure(exchange: Exchange) -> str:
    return exchange.error or exchange.status


def settle(journal: Journal, exchange: Exchange, decoded: Decoded) -> None:
    """Put the reading on the exchange: the action the host took and the findings."""
    findings = [*exchange.findings, *decoded.findings]
    journal.amend(exchange, action=label_for(decoded), findings=findings)


def settle_answer(journal: Journal, stage: str, exchange: Exchange, sent: dict[str, Any]) -> None:
    """Read one answer to `sent` outside a chain (a request sent by hand) and settle it. Params
    PicoClaw's structs cannot hold have no PicoClaw reading (the composer refuses them first)."""
    try:
        typed = typed_params(stage, sent)
    except GoDecodeError:
        return
    settle(journal, exchange, read_answer(stage, exchange, typed))


def label_for(decoded: Decoded) -> str:
    """The action or verdict the host takes from one answer, as the exchange list shows it:
    `modify` and `continue` as the hook said them (they act alike)."""
    if decoded.taken == CONTINUE:
        return MODIFY if decoded.said == MODIFY else CONTINUE
    if decoded.taken == RESPOND and decoded.hook_result is None:
        return "respond (no result)"
    return decoded.taken


def verdict_label(approved: bool) -> str:
    return APPROVED if approved else DENIED
