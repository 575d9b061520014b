"""Where a relayed call's answer owes something to the inspector being kinder than PicoClaw on
purpose (it reads past a line over 1 MiB, it restarts a crashed hook), the exchange the agent
received says what PicoClaw's own host would have done with that hook mounted directly."""

from __future__ import annotations

from inspector.hosts.picoclaw.codes import finding
from inspector.journal.records import Exchange, Finding

KINDER_CODE = "kinder-than-picoclaw"


def kinder_findings(hook: str, answered: Exchange, crashes_before: int) -> list[Finding]:
    """What in `hook`'s part of a relayed call PicoClaw would have done otherwise; `crashes_before`
    is how often the hook had exited before this call."""
    found = []
    if any(each.code == "oversized-line" for each in answered.findings):
        message = (
            f'hook "{hook}" answered with a line over 1 MiB; hook-inspector read it, and the '
            "agent's answer was built on it"
        )
        picoclaw = (
            f'Stops reading hook "{hook}" for good at that line: this call and every later one '
            f"to it time out (interceptors skipped, approvals denied: {_timed_out(hook)})."
        )
        found.append(finding(KINDER_CODE, message, host_does=picoclaw))
    if crashes_before:
        message = (
            f'hook "{hook}" exited {crashes_before} time(s) and hook-inspector restarted it; the '
            "agent's answer includes its part"
        )
        picoclaw = (
            f'Never restarts a crashed hook: until a config reload "{hook}" is skipped at every '
            f'interceptor stage and its approvals are denied (tool approval hook "{hook}" failed).'
        )
        found.append(finding(KINDER_CODE, message, host_does=picoclaw))
    return found


def _timed_out(hook: str) -> str:
    return f'tool approval hook "{hook}" timed out'
