"""Secrets in free text (stderr, stray stdout, error messages, any string in a JSON value).

Hidden, each replaced by "[REDACTED]": the body of a private key block (PEM, OpenSSH, PGP; to
the end of the text when its END line is not in it); `key=value`, `key: value`,
`"key": "value"` and `--key value` with a secret key (secret_keys); passwords on command lines
(`mysql -pX`, `curl -u user:X`, `docker login -p X`, `sshpass -p X`); the password of a
`scheme://user:password@host` URL (the user may be empty: `redis://:pw@host`); a `Bearer` or
`Basic` credential; and strings shaped like known credentials (secret_shapes). Text with
nothing secret comes back unchanged.
"""

from __future__ import annotations

import functools
import re

from inspector.journal.secret_keys import SECRET_NAME_END, is_secret_key
from inspector.journal.secret_shapes import shaped_secrets

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
_KEY = rf"(?P<key>(?:[A-Za-z][\w.-]*?)?(?i:{SECRET_NAME_END}))(?![\w.-])"
_VALUE = (
    r'(?P<value>\\"(?:[^"\\]|\\[^"])*\\"'  # \"escaped\", in JSON inside a string
    r'|"(?:[^"\\]|\\.)*"|\'[^\']*\''  # "double" or 'single' quoted
    r"|(?:(?:Bearer|Basic|Token|Digest)\s+)?"  # bare, maybe with a scheme
    r"(?:\[REDACTED\]|[^\s,;&\"'}\]\\]+))"  # (already hidden: no second "]")
)
# key=value, key = value, key: value, "key": ... (not `sig= a word`: prose)
_PAIR = re.compile(rf"(?<![\w.]){_KEY}(?:\\?[\"'])?(?:\s*:\s*|=|\s+=\s*){_VALUE}")
_FLAG = re.compile(rf"(?<![\w-])--?{_KEY}\s+(?!-){_VALUE}")  # --key value
_ARGUMENT = r"""(?P<value>"[^"]*"|'[^']*'|[^\s'"]+)"""
_SAME_COMMAND = r"\b[^\n|;&]*?\s"  # further on the same command line
_COMMAND_PASSWORDS = tuple(
    re.compile(command + _SAME_COMMAND + option + _ARGUMENT)
    for command, option in (
        (r"\b(?:mysql|mariadb)\w*", r"-p(?=[^\s-])"),  # -pSECRET (a bare -p asks)
        (r"\bcurl", r"""(?:-u\s*|--user[\s=]+)["']?[^\s:'"]*:"""),  # -u user:SECRET
        (r"\b(?:docker|podman|buildah|nerdctl)\s+login", r"-p\s*"),
        (r"\bsshpass", r"-p\s*"),
    )
)
_URL_PASSWORD = re.compile(r"(?<=://)(?P<user>[^/\s:@]*):[^/\s@]+(?=@)")
_SCHEME_CREDENTIAL = re.compile(r"\b(?:Bearer|Basic)\s+(?P<value>[\w.~+/-]+=*)")


def redact_text(text: str) -> str:
    # A session repeats most of its strings (meta, tool names, templates); a big one is kept
    # out of the cache so that the cache stays small.
    return _redact_short(text) if len(text) <= CACHED_LENGTH else _redact(text)


def _redact(text: str) -> str:
    text = _PRIVATE_KEY.sub(_hide_private_key, text)
    for command in _COMMAND_PASSWORDS:
        text = command.sub(_hide_value, text)
    text = _FLAG.sub(_hide_flag, _PAIR.sub(_hide_pair, text))
    text = _URL_PASSWORD.sub(lambda match: f"{match['user']}:{REDACTED}", text)
    text = _SCHEME_CREDENTIAL.sub(_hide_credential, text)
    return _hide_spans(text, shaped_secrets(text))


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
    return _hide_value(match)


def _hide_flag(match: re.Match[str]) -> str:
    return _hide_value(match) if is_secret_key(match["key"]) else match[0]


def _hide_value(match: re.Match[str]) -> str:
    value = match["value"]
    if value[:1] in ("'", '"') or value[:2] == '\\"':
        quote = value[: 2 if value.startswith("\\") else 1]
        hidden = f"{quote}{REDACTED}{quote}"
    else:
        hidden = REDACTED
    return match[0][: match.start("value") - match.start()] + hidden


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
        parts += [text[position:start], REDACTED]
        position = end
    parts.append(text[position:])
    return "".join(parts)
