"""--otlp's spans for a live session, once the flag's URL and the optional packages check out."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from inspector.otel.endpoint import OtlpOptions, require_sdk, traces_url

if TYPE_CHECKING:
    from inspector.otel.exporter import LiveSpans


def live_spans(
    given: str | None, *, bodies: bool, warn: Callable[[str], None] | None
) -> LiveSpans | None:
    """None without --otlp (`given` None); raises OtlpError for a bad URL or missing packages."""
    if given is None:
        return None
    options = OtlpOptions(traces_url(given), bodies=bodies)
    require_sdk()
    from inspector.otel.exporter import LiveSpans

    return LiveSpans(options, warn)
