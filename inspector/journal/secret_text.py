"""Secrets in free text (stderr, stray stdout, error messages, any string in a JSON value).

Hidden, each replaced by "[REDACTED]": the body of a private key block (PEM, OpenSSH, PGP; to
the end of the text when its END line is not in it); `key=value`, `key: value`,
`"key": "value"`, `"key": {...}` and `--key value` with a secret key (secret_keys); passwords
on command lines (secret_commands: `mysql -pX`, `curl -u user:X`, `htpasswd -b f user X`, `aws
configure set aws_secret_access_key X`, ...); passwords told in prose or printed after a
prompt (secret_prose); the password of a `scheme://user:password@host` URL (the user may be
empty: `redis://:pw@host`); a `Bearer` or `Basic` credential; strings shaped like known
credentials (secret_shapes: gitleaks' and detect-secrets' rules); and base64 that decodes to
text holding any of these (secret_encoded). Text with nothing secret comes back unchanged.
"""

from __future__ import annotations

import functools
import re

from inspector.journal.secret_commands import (
    COMMAND_PASSWORDS,
    COMMAND_WORDS,
    htpasswd_passwords,
    setting_values,
)
from inspector.journal.secret_encoded import encoded_secrets
from inspector.journal.secret_keys import SECRET_NAME_END, is_secret_key
from inspector.journal.secret_prose import PROMPTED, PROSE, is_prose
from inspector.journal.secret_shapes import shaped_secrets
from inspector.journal.spans import merged

REDACTED = "[REDACTED]"
CACHED_LENGTH = 1024
# Names that hold a secret as `pass=x` or `"pass": "x"`, but not as `PASS: test_login` (a test
# runner's report line).
WEAK_NAMES = frozenset({"pass"})

_PRIVATE_KEY = re.compile(
    r"(?P<begin>-----BEGIN (?P<label>[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?)-----)"
    r"(?P<body>.*?)(?=-----END (?P=label)-----|\Z)",
    re.DOTALL,
)
_PRIVATE_KEY_END = re.compile(r"-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----")
# Words every secret name (secret_keys) and every prose or prompt name (secret_prose) holds.
NAME_WORDS = ("token", "pass", "pwd", "secret", "auth", "credential", "cookie", "sig", "key")
_KEY = rf"(?P<key>(?:[A-Za-z][\w.-]*?)?(?i:{SECRET_NAME_END}))(?![\w.-])"
_VALUE = (
    r"(?P<value>\{(?:[^{}]|\{[^{}]*\})*\}"  # {"an": "object"}, two levels deep
    r'|\\"(?:[^"\\]|\\[^"])*\\"'  # \"escaped\", in JSON inside a string
    r'|"(?:[^"\\]|\\.)*"|\'[^\']*\''  # "double" or 'single' quoted
    r"|(?:(?:Bearer|Basic|Token|Digest)\s+)?"  # bare, maybe with a scheme
    r"(?:\[REDACTED\]|[^\s,;&\"'}\]\\]+))"  # (already hidden: no second "]")
)
# key=value, key = value, key: value, "key": ... (not `sig= a word`: prose)
_PAIR = re.compile(rf"(?<![\w.]){_KEY}(?:\\?[\"'])?(?:\s*:\s*|=|\s+=\s*){_VALUE}")
_FLAG = re.compile(rf"(?<![\w-])--?{_KEY}\s+(?!-){_VALUE}")  # --key value
# An object that is a JSON schema of a secret field ({"type": "string", ...}): not a secret.
SCHEMA_TYPES = frozenset({"string", "number", "integer", "object", "array", "boolean", "null"})
_SCHEMA = re.compile(
    r'^\{\s*\\?"type\\?"\s*:\s*\\?"(?:' + "|".join(sorted(SCHEMA_TYPES)) + r')\\?"'
)
_URL_PASSWORD = re.compile(r"(?<=://)(?P<user>[^/\s:@]*):[^/\s@]+(?=@)")
_SCHEME_CREDENTIAL = re.compile(r"\b(?:Bearer|Basic)\s+(?P<value>[\w.~+/-]+=*)")


def redact_text(text: str) -> str:
    # A session repeats most of its strings (meta, tool names, templates); a big one is kept
    # out of the cache so that the cache stays small.
    return _redact_short(text) if len(text) <= CACHED_LENGTH else _redact(text)


def _redact(text: str) -> str:
    lowered = text.lower()  # each pattern below is tried only on text with a word it needs
    if "-----begin" in lowered:
        text = _PRIVATE_KEY.sub(_hide_private_key, text)
    if any(word in lowered for word in COMMAND_WORDS):
        for command in COMMAND_PASSWORDS:
            text = command.sub(_hide_value, text)
        text = _hide_spans(text, list(htpasswd_passwords(text)))
    if any(word in lowered for word in NAME_WORDS):
        text = _hide_spans(text, [match.span("value") for match in setting_values(text)])
        text = _FLAG.sub(_hide_flag, _PAIR.sub(_hide_pair, text))
        text = PROSE.sub(_hide_prose, text)
        text = PROMPTED.sub(_hide_value, text)
    if "://" in text:
        text = _URL_PASSWORD.sub(lambda match: f"{match['user']}:{REDACTED}", text)
    if "bearer" in lowered or "basic" in lowered:
        text = _SCHEME_CREDENTIAL.sub(_hide_credential, text)
    text = _hide_spans(text, shaped_secrets(text))
    return _hide_spans(text, merged(encoded_secrets(text, redact_text)))


_redact_short = functools.lru_cache(maxsize=1 << 16)(_redact)


def opens_private_key(text: str) -> bool:
    """Whether a private key block begins in `text` and does not end there (its body follows
    in the next lines, e.g. the next stderr records)."""
    blocks = list(_PRIVATE_KEY.finditer(text))
    return bool(blocks) and blocks[-1].end() == len(text)


def private_key_end(text: str) -> int:
    """Where the END line of a private key block starts in `text`, or -1."""
    end = _PRIVATE_KEY_END.search(text)
    return -1 if end is None else end.start()


def _hide_private_key(match: re.Match[str]) -> str:
    return match["begin"] + REDACTED if match["body"] else match[0]


def _hide_pair(match: re.Match[str]) -> str:
    key = match["key"]
    if not is_secret_key(key):
        return match[0]
    separator = match[0][match.end("key") - match.start() : match.start("value") - match.start()]
    if key.lower() in WEAK_NAMES and not any(mark in separator for mark in "=\"'"):
        return match[0]
    if _SCHEMA.match(match["value"]):
        return match[0]
    return _hide_value(match)


def _hide_prose(match: re.Match[str]) -> str:
    return match[0] if is_prose(match["value"]) else _hide_value(match)


def _hide_flag(match: re.Match[str]) -> str:
    return _hide_value(match) if is_secret_key(match["key"]) else match[0]


def _hide_value(match: re.Match[str]) -> str:
    return match[0][: match.start("value") - match.start()] + _hidden(match["value"])


def _hidden(value: str) -> str:
    """What replaces a value: "[REDACTED]", in the value's quotes if it had them."""
    quote = value[:2] if value[:2] == '\\"' else value[:1]
    if quote in ("'", '"', '\\"') and len(value) >= 2 * len(quote) and value.endswith(quote):
        return f"{quote}{REDACTED}{quote}"
    return REDACTED


def _hide_credential(match: re.Match[str]) -> str:
    """A scheme's credential, told from prose ("Bearer authentication") by a digit or length."""
    value = match["value"]
    if not (len(value) >= 20 or any(c.isdigit() for c in value)):
        return match[0]
    return match[0][: match.start("value") - match.start()] + REDACTED


def _hide_spans(text: str, spans: list[tuple[int, int]]) -> str:
    if not spans:
        return text
    parts, position = [], 0
    for start, end in spans:
        parts += [text[position:start], _hidden(text[start:end])]
        position = end
    parts.append(text[position:])
    return "".join(parts)
