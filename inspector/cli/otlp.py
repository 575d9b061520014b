"""--otlp on the commands that run hooks (run, serve, check, the UI): the flags, and the one line
at the end that says what became of the spans."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from inspector.otel.exporter import LiveSpans

EXIT_OK, EXIT_NOT_SENT, EXIT_BAD_INPUT = 0, 1, 2


def add_otlp(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--otlp",
        nargs="?",
        const="",
        metavar="URL",
        help="send every exchange as OpenTelemetry spans over OTLP/HTTP to URL (default: "
        "OTEL_EXPORTER_OTLP_ENDPOINT, else http://localhost:4318); needs hook-inspector[otel]",
    )
    parser.add_argument(
        "--otlp-bodies",
        action="store_true",
        help="with --otlp, add request and answer bodies to the spans, secrets redacted",
    )


def spans_for(args: argparse.Namespace, *, on_screen: bool = False) -> LiveSpans | None:
    """The session's spans, or None without --otlp; raises OtlpError (main prints it).
    `on_screen`: the UI owns the terminal, so a collector's failure is said only on leaving."""
    from inspector.otel.start import live_spans

    return live_spans(args.otlp, bodies=args.otlp_bodies, warn=None if on_screen else say)


def say(line: str) -> None:
    print(f"hook-inspector: {line}", file=sys.stderr, flush=True)


def close_spans(spans: LiveSpans | None) -> None:
    if spans is not None:
        say(spans.close())


def replay_spans(path: Path, given: str) -> int:
    """`export FILE --otlp URL`: 0 when the collector took every span, 1 when it did not."""
    from inspector.journal.jsonl import JournalLoadError
    from inspector.journal.saved import open_journal
    from inspector.otel.endpoint import require_sdk, shown_url, traces_url

    url = traces_url(given)
    require_sdk()
    from inspector.otel.replay import send_session

    try:
        records = open_journal(path).records
    except JournalLoadError as error:
        say(str(error))
        return EXIT_BAD_INPUT
    sent, failed, why = send_session(records, url)
    where = shown_url(url)
    if failed:
        say(f"{sent:,} span(s) sent to {where}; {failed:,} not taken by the collector ({why})")
        return EXIT_NOT_SENT
    say(f"{sent:,} span(s) of {path} sent to {where}")
    return EXIT_OK
