"""Secrets out of journal records, so a session can be shared.

A key is secret when the last word of its name names a secret: `token`, `password(s)`, `passwd`,
`passphrase`, `secret(s)`, `authorization`, `auth`, `credential(s)`, `cookie`, or `key` right
after `api`, `private`, `secret`, `access`, `signing` or `encryption` (`apikey` and friends
written as one word too). Words are split at `_`, `-`, `.` and camelCase, case-insensitively:
`GITHUB_TOKEN`, `X-Api-Key`, `clientSecret` and `Authorization` are secret; `max_tokens`,
`token_count`, `SessionKey`, `session_key` and `prompt_cache_key` are not (PicoClaw's session
key routes a conversation and hook authors need to read it; `key` alone is not secret either).

A secret key's value (unless null, empty or a boolean) becomes "[REDACTED]" wherever a record
holds JSON: request, response, event payload, and the raw wire lines, which are parsed,
redacted and written again as compact JSON (a line with nothing secret is kept byte for byte).
In every string, and in text that is not JSON (stderr and stray stdout lines, error messages),
`key=value`, `key: value`, `"key": "value"` and `--key value` with a secret key, the password
of a `scheme://user:password@host` URL, and tokens shaped like OpenAI, GitHub or AWS keys are
replaced as well.
"""

from __future__ import annotations

import json
import re
from typing import Any

from inspector.journal.records import Record, record_from_json
from inspector.protocol.jsonrpc import go_json

REDACTED = "[REDACTED]"
SECRET_WORDS = frozenset(
    {
        "token",
        "password",
        "passwords",
        "passwd",
        "passphrase",
        "secret",
        "secrets",
        "authorization",
        "auth",
        "credential",
        "credentials",
        "cookie",
        "apikey",
        "privatekey",
        "secretkey",
        "accesskey",
    }
)
KEY_QUALIFIERS = frozenset({"api", "private", "secret", "access", "signing", "encryption"})
TEXT_FIELDS = frozenset({"raw_request", "raw_response", "line", "stderr"})  # JSON, or text

_WORD = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+")
# In text: a key that may be secret (is_secret_key decides), a separator, and a value.
_SECRET_END = (
    r"token|passwords?|passwd|passphrase|secrets?|authorization|auth|credentials?|cookie"
    r"|(?:api|private|secret|access|signing|encryption)[_.-]?key"
)
_KEY = rf"(?P<key>(?:[A-Za-z][\w.-]*?)?(?i:{_SECRET_END}))(?![\w.-])"
_VALUE = (
    r'(?P<value>\\"(?:[^"\\]|\\[^"])*\\"'  # \"escaped\", in JSON inside a string
    r'|"(?:[^"\\]|\\.)*"|\'[^\']*\''  # "double" or 'single' quoted
    r"|(?:(?:Bearer|Basic|Token|Digest)\s+)?"  # bare, maybe with a scheme
    r"(?:\[REDACTED\]|[^\s,;&\"'}\]\\]+))"  # (already hidden: no second "]")
)
_PAIR = re.compile(rf"(?<![\w.]){_KEY}(?:\\?[\"'])?\s*[:=]\s*{_VALUE}")  # key=value, "key": ...
_FLAG = re.compile(rf"(?<![\w-])--?{_KEY}\s+(?!-){_VALUE}")  # --key value
_URL_PASSWORD = re.compile(r"(?<=://)(?P<user>[^/\s:@]+):[^/\s@]+(?=@)")
_TOKEN_SHAPES = re.compile(
    r"\bsk-[A-Za-z0-9_-]{16,}"  # OpenAI-style keys
    r"|\b(?:ghp|gho|ghs|ghu|github_pat)_[A-Za-z0-9_]{20,}"  # GitHub tokens
    r"|\b(?:AKIA|ASIA)[0-9A-Z]{16}\b"  # AWS access key ids
)


def is_secret_key(name: str) -> bool:
    words = [word.lower() for word in _WORD.findall(name)]
    if not words:
        return False
    if words[-1] in SECRET_WORDS:
        return True
    return words[-1] == "key" and len(words) > 1 and words[-2] in KEY_QUALIFIERS


def redact(record: Record) -> Record:
    """A copy of `record` with every secret replaced by "[REDACTED]"."""
    return record_from_json({name: _field(name, value) for name, value in record.to_json().items()})


def _field(name: str, value: Any) -> Any:
    if name in TEXT_FIELDS and isinstance(value, str):
        return redact_line(value)
    return redact_value(value)


def redact_value(value: Any) -> Any:
    """A copy of a JSON value with secret keys' values and secrets in strings replaced."""
    if isinstance(value, dict):
        return {
            key: REDACTED if is_secret_key(str(key)) and _hideable(item) else redact_value(item)
            for key, item in value.items()
        }
    if isinstance(value, list):
        return [redact_value(item) for item in value]
    if isinstance(value, str):
        return redact_text(value)
    return value


def redact_line(text: str) -> str:
    """A wire line: redacted as JSON when it is a JSON object or array, else as text."""
    try:
        parsed = json.loads(text)
    except ValueError:
        return redact_text(text)
    if not isinstance(parsed, dict | list):
        return redact_text(text)
    redacted = redact_value(parsed)
    return text if redacted == parsed else go_json(redacted)


def redact_text(text: str) -> str:
    """Free text with `key=value` style secrets, URL passwords and known token shapes hidden."""
    text = _FLAG.sub(_hide_pair, _PAIR.sub(_hide_pair, text))
    text = _URL_PASSWORD.sub(lambda match: f"{match['user']}:{REDACTED}", text)
    return _TOKEN_SHAPES.sub(REDACTED, text)


def _hide_pair(match: re.Match[str]) -> str:
    if not is_secret_key(match["key"]):
        return match[0]
    value = match["value"]
    if value[:1] in ("'", '"') or value[:2] == '\\"':
        quote = value[: 2 if value.startswith("\\") else 1]
        hidden = f"{quote}{REDACTED}{quote}"
    else:
        hidden = REDACTED
    return match[0][: match.start("value") - match.start()] + hidden


def _hideable(value: Any) -> bool:
    return not (value is None or value == "" or isinstance(value, bool))
