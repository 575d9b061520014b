"""The closed sets of values some fields can have, so a misspelt value is an error, not a filter
that quietly matches nothing (`status:timout`)."""

from __future__ import annotations

import difflib
from collections.abc import Collection, Iterable

from inspector.filter.match import matcher
from inspector.hosts.registry import HOSTS as REGISTERED
from inspector.journal import records

STATUSES = (
    records.STATUS_OK,
    records.STATUS_ERROR,
    records.STATUS_TIMEOUT,
    records.STATUS_EXITED,
    records.STATUS_INVALID,
    records.STATUS_NOT_SENT,
    records.STATUS_DROPPED,
    records.STATUS_PENDING,
    records.STATUS_HELD,
    records.STATUS_CANCELLED,
)
# A hook process's states, then a relay's (inspector.bridge is a layer above: spelled out here)
STATES = (*records.HOOK_STATES, *("connected", "disconnected", "refused"))
# Every method or event any host's hooks are called with (a PicoClaw decision names its stage).
METHOD_NAMES = tuple(dict.fromkeys(event for host in REGISTERED for event in host.events))
SEVERITIES = ("error", "warn", "warning", "info")
HOSTS = tuple(host.name for host in REGISTERED)

KNOWN_VALUES: dict[str, tuple[str, ...]] = {
    "status": STATUSES,
    "state": STATES,
    "method": METHOD_NAMES,
    "severity": SEVERITIES,
    "host": HOSTS,
}
_LISTED_UP_TO = 20  # longer sets are not listed in one line; the nearest spelling still is


def matches_none(patterns: Iterable[str], known: Iterable[str]) -> bool:
    """True when no pattern (exact or glob, ignoring case) matches any known value."""
    return not any(map(matcher(patterns), known))


def unknown_value(what: str, written: str, known: Collection[str]) -> str:
    """`unknown WHAT 'written'` with the nearest known spelling, or the whole list when short."""
    message = f"unknown {what} '{written}'"
    spelled = {value.lower(): value for value in known}
    close = difflib.get_close_matches(written.lower(), list(spelled), n=1)
    if close:
        return f"{message} (did you mean '{spelled[close[0]]}'?)"
    if len(known) <= _LISTED_UP_TO:
        return f"{message} (one of {', '.join(known)})"
    return message
