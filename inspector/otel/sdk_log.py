"""The SDK's own log, kept off the terminal: its exporter logs every failed batch (and every
retry), where hook-inspector says once that the collector did not take them, and why."""

from __future__ import annotations

import logging
import re

LOGGER = "opentelemetry"
ERRNO = re.compile(r"\[Errno -?\d+\] ([^'\")]+)")
MAX_REASON = 120


class FirstReason(logging.Handler):
    """Why the first failed batch failed, in a few words ("Connection refused", "Not Found")."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.text = ""

    def emit(self, record: logging.LogRecord) -> None:
        if not self.text and record.args and isinstance(record.args, tuple):
            self.text = short_reason(str(record.args[0]))


def short_reason(text: str) -> str:
    found = ERRNO.search(text)
    if found:
        return found.group(1).strip()
    if "timed out" in text.lower():
        return "no answer in time"
    return text if len(text) <= MAX_REASON else text[:MAX_REASON] + "…"


def quiet_sdk_log() -> FirstReason:
    """A new reason-holder on the SDK's logger, whose records go nowhere else."""
    logger = logging.getLogger(LOGGER)
    logger.propagate = False
    for handler in list(logger.handlers):
        if isinstance(handler, FirstReason):
            logger.removeHandler(handler)
    reason = FirstReason()
    logger.addHandler(reason)
    return reason
