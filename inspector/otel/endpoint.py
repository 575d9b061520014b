"""Where spans go: --otlp URL, else the collector OpenTelemetry's variables name, else a local
one. A base URL (no path) gets OTLP/HTTP's traces path, as OTEL_EXPORTER_OTLP_ENDPOINT does;
OTEL_EXPORTER_OTLP_HEADERS (and the other OTEL_EXPORTER_OTLP_* settings) the SDK's exporter
reads itself."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from urllib.parse import urlsplit, urlunsplit

TRACES_PATH = "/v1/traces"
LOCAL_COLLECTOR = "http://localhost:4318"
INSTALL_HINT = "pip install 'hook-inspector[otel]'"


class OtlpError(Exception):
    """--otlp cannot be used as given: the optional packages are missing, or the URL is bad."""


@dataclass(frozen=True, slots=True)
class OtlpOptions:
    url: str
    bodies: bool = False  # request and answer bodies as attributes, redacted


def traces_url(given: str | None, environ: Mapping[str, str] = os.environ) -> str:
    """The URL to POST spans to. `given` is --otlp's value ("" when the flag has none)."""
    if given:
        return _with_traces_path(given)
    specific = environ.get("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT")
    if specific:
        return _checked(specific)
    return _with_traces_path(environ.get("OTEL_EXPORTER_OTLP_ENDPOINT") or LOCAL_COLLECTOR)


def shown_url(url: str) -> str:
    """`url` as said on screen: without the `user:token@` and the query (`?api_key=...`) that
    may hold the collector's credentials."""
    parts = urlsplit(url)
    host = parts.netloc.rpartition("@")[2]
    return urlunsplit((parts.scheme, host, parts.path, "", ""))


def _with_traces_path(url: str) -> str:
    parts = urlsplit(_checked(url))
    if parts.path.strip("/"):
        return url
    return urlunsplit(parts._replace(path=parts.path.rstrip("/") + TRACES_PATH))


def _checked(url: str) -> str:
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise OtlpError(f"--otlp wants an http:// or https:// URL of a collector, not {url!r}")
    return url


def require_sdk() -> None:
    """OtlpError, saying how to install them, when the optional packages are not there."""
    try:
        import opentelemetry.exporter.otlp.proto.http.trace_exporter
        import opentelemetry.sdk.trace  # noqa: F401
    except ImportError as error:
        raise OtlpError(
            f"--otlp needs the OpenTelemetry packages ({error.name or error} is missing): "
            f"{INSTALL_HINT}"
        ) from None
