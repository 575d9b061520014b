"""Strings shaped like known credentials, found by Yelp's detect-secrets plugins (AWS, GitHub,
GitLab, Slack, Stripe, JWT, npm, OpenAI, Azure storage, SendGrid, Twilio, Discord, PyPI, ...)
and by a few shapes those plugins do not know yet.

detect-secrets is imported here only, and only `hook-inspector export` imports this module: it
pulls in `requests` (about half a second), which no other command should pay for.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from functools import cache

from detect_secrets.core.plugins.util import get_mapping_from_secret_type_to_class
from detect_secrets.plugins.base import BasePlugin, RegexBasedDetector

# Plugins whose findings are not credentials by their shape: entropy (git SHAs, UUIDs, base64 of
# ordinary text), any public IP, keywords (key names are judged by secret_keys.is_secret_key,
# which keeps `password_hint` and `PWD` readable), and the private key header (the whole
# block, body included, is secret_text's job).
NOT_SHAPES = frozenset(
    {
        "Base64HighEntropyString",
        "HexHighEntropyString",
        "IPPublicDetector",
        "KeywordDetector",
        "PrivateKeyDetector",
    }
)
# Shapes detect-secrets 1.5.0 has no plugin for.
OWN_SHAPES = re.compile(
    r"\bAIza[0-9A-Za-z_-]{35}"  # Google API keys
    r"|\bhf_[A-Za-z0-9]{30,}"  # Hugging Face tokens
    r"|\bnpm_[A-Za-z0-9]{36}"  # npm access tokens (the plugin needs an .npmrc line)
    r"|\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{16,}"  # OpenAI keys without T3BlbkFJ
    r"|\bgithub_pat_[A-Za-z0-9_]{22,}"  # GitHub fine-grained tokens
)
# A match is widened over the rest of its token: some plugins match a fixed-length prefix (a
# JWT's signature, a key longer than the plugin expects), and what follows is secret too.
TOKEN_TAIL = re.compile(r"[\w+/=.-]*")
# Some patterns take the character around the token (a space, a quote) into their match.
BORDER = " \t\"'=:"


@cache
def detectors() -> tuple[RegexBasedDetector, ...]:
    # detect-secrets types this mapping with a TypeVar bound to nothing; it holds plugin classes.
    plugins: Mapping[str, type[BasePlugin]] = get_mapping_from_secret_type_to_class()
    return tuple(
        plugin()
        for plugin in plugins.values()
        if issubclass(plugin, RegexBasedDetector) and plugin.__name__ not in NOT_SHAPES
    )


def shaped_secrets(text: str) -> list[tuple[int, int]]:
    """The spans of `text` that hold a credential by its shape, merged, in order."""
    spans = sorted(_candidates(text))
    merged: list[tuple[int, int]] = []
    for start, end in spans:
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
        else:
            merged.append((start, end))
    return merged


def _candidates(text: str) -> Iterator[tuple[int, int]]:
    for match in OWN_SHAPES.finditer(text):
        yield _widened(text, *match.span())
    for detector in detectors():
        for pattern in detector.denylist:
            for match in pattern.finditer(text):
                start, end = _secret_span(match)
                # the plugin's own check too (a JWT's parts must decode)
                if start < end and any(detector.analyze_string(match[0])):
                    yield _widened(text, start, end)


def _secret_span(match: re.Match[str]) -> tuple[int, int]:
    """The secret in a plugin's match: its last group that matched something (as findall
    reports it), else the match without the border characters the pattern took."""
    for group in range(len(match.groups()), 0, -1):
        if match.group(group):
            return match.span(group)
    start, end = match.span()
    while start < end and match.string[start] in BORDER:
        start += 1
    while end > start and match.string[end - 1] in BORDER:
        end -= 1
    return start, end


def _widened(text: str, start: int, end: int) -> tuple[int, int]:
    tail = TOKEN_TAIL.match(text, end)
    return start, tail.end() if tail else end
