"""Strings shaped like known credentials, found by gitleaks' rules (secret_rules: about 220
providers, and its generic `name = value` rule), by Yelp's detect-secrets plugins (AWS, GitHub,
GitLab, Slack, Stripe, JWT, npm, OpenAI, Azure storage, SendGrid, Twilio, Discord, PyPI, ...)
and by a few shapes neither knows.

detect-secrets is imported here only, and only `hook-inspector export` imports this module: it
pulls in `requests` (about half a second), which no other command should pay for.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from functools import cache

from detect_secrets.core.plugins.util import get_mapping_from_secret_type_to_class
from detect_secrets.plugins.base import BasePlugin, RegexBasedDetector

from inspector.journal.secret_rules import gitleaks_rules
from inspector.journal.spans import merged

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
# A word (lower case) that every match of a plugin's patterns holds, read off the patterns of
# detect-secrets 1.5: a plugin runs only on text that holds one, as gitleaks runs a rule only
# on text that holds one of its keywords. A plugin not named here runs on all text.
DETECTOR_WORDS = {
    "ArtifactoryDetector": ("akc", "ap"),
    "AWSKeyDetector": ("a3t", "abia", "acca", "akia", "asia", "aws"),
    "AzureStorageKeyDetector": ("accountkey=",),
    "BasicAuthDetector": ("://",),
    "CloudantDetector": ("cl",),
    "GitHubTokenDetector": ("ghp_", "gho_", "ghu_", "ghs_", "ghr_"),
    "GitLabTokenDetector": ("gl", "gr1348941"),
    "IbmCloudIamDetector": ("key", "pwd", "pass", "token"),
    "IbmCosHmacDetector": ("secret",),
    "JwtTokenDetector": ("eyj",),
    "MailchimpDetector": ("-us",),
    "NpmDetector": ("_authtoken",),
    "OpenAIDetector": ("t3blbkfj",),
    "PypiTokenDetector": ("pypi-",),
    "SendGridDetector": ("sg.",),
    "SlackDetector": ("xox", "hooks.slack.com"),
    "SoftlayerDetector": ("sl", "softlayer"),
    "SquareOAuthDetector": ("sq0csp-",),
    "StripeDetector": ("k_live_",),
    "TelegramBotTokenDetector": (":",),
    "TwilioKeyDetector": ("ac", "sk"),
}
# Shapes neither detect-secrets 1.5.0 nor gitleaks' rules know (or know only more strictly),
# each at the start of a token: not after a letter, digit, `_` or `-` (`task-sk-runner-...`).
OWN_SHAPES = re.compile(
    r"(?<![\w-])(?:"
    r"AIza[0-9A-Za-z_-]{35}"  # Google API keys
    r"|hf_[A-Za-z0-9]{30,}"  # Hugging Face tokens (gitleaks wants 34 letters)
    r"|npm_[A-Za-z0-9]{36}"  # npm access tokens (the plugin needs an .npmrc line)
    r"|sk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{16,}"  # OpenAI keys without T3BlbkFJ
    r"|github_pat_[A-Za-z0-9_]{22,}"  # GitHub fine-grained tokens
    r"|whsec_[A-Za-z0-9+/=]{24,}"  # Stripe webhook signing secrets
    r")"
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


@cache
def _detector_words() -> frozenset[str]:
    return frozenset(word for words in DETECTOR_WORDS.values() for word in words)


def shaped_secrets(text: str) -> list[tuple[int, int]]:
    """The spans of `text` that hold a credential by its shape, merged, in order."""
    return merged(_candidates(text))


def _candidates(text: str) -> Iterator[tuple[int, int]]:
    for match in OWN_SHAPES.finditer(text):
        yield _widened(text, *match.span())
    for start, end in gitleaks_rules().find(text):
        yield _widened(text, start, end)
    lowered = text.lower()
    present = {word for word in _detector_words() if word in lowered}
    for detector in detectors():
        words = DETECTOR_WORDS.get(type(detector).__name__)
        if words is not None and present.isdisjoint(words):
            continue
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
