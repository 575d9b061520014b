"""Which names hold secrets: JSON keys, header names, `KEY=value` and `--key value` in text.

A name is secret when its last word names a secret: `token`, `password(s)`, `passwd`,
`passphrase`, `pass`, `pwd`, `secret(s)`, `authorization`, `auth`, `credential(s)`, `cookie`,
`sig` (an Azure SAS signature), or `key(s)` right after `api`, `private`, `secret`, `access`,
`signing`, `encryption`, `ssh`, `auth`, `account`, `client`, `service`, `master`, `db`,
`database` or `deploy` (`apikey` and friends written as one word too), or when it is one word
ending in `password`, `passwd`, `passphrase` or `secret` (`PGPASSWORD`). Words are split at
`_`, `-`, `.` and camelCase, case-insensitively: `GITHUB_TOKEN`, `X-Api-Key`, `clientSecret`
and `Authorization` are secret; `max_tokens`, `token_count`, `SessionKey`, `session_key`,
`prompt_cache_key` and `password_hint` are not (PicoClaw's session key routes a conversation
and hook authors need to read it; `key` alone is not secret either), nor is `PWD`, the shell's
working directory.
"""

from __future__ import annotations

import functools
import re

SECRET_WORDS = frozenset(
    {
        "token",
        "password",
        "passwords",
        "passwd",
        "passphrase",
        "pass",
        "pwd",
        "secret",
        "secrets",
        "authorization",
        "auth",
        "credential",
        "credentials",
        "cookie",
        "sig",
        "apikey",
        "privatekey",
        "secretkey",
        "accesskey",
    }
)
SECRET_ENDINGS = ("password", "passwd", "passphrase", "secret")
KEY_QUALIFIERS = frozenset(
    {
        "api",
        "private",
        "secret",
        "access",
        "signing",
        "encryption",
        "ssh",
        "auth",
        "account",
        "client",
        "service",
        "master",
        "db",
        "database",
        "deploy",
    }
)
SHELL_WORKING_DIRECTORY = "PWD"

_WORD = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+")
# How a secret name ends, for finding candidates in text; is_secret_key has the last word.
SECRET_NAME_END = (
    r"token|passwords?|passwd|passphrase|pass|pwd|secrets?|authorization|auth|credentials?"
    rf"|cookie|sig|(?:{'|'.join(sorted(KEY_QUALIFIERS))})[_.-]?keys?"
)


@functools.lru_cache(maxsize=4096)
def is_secret_key(name: str) -> bool:
    if name == SHELL_WORKING_DIRECTORY:
        return False
    words = [word.lower() for word in _WORD.findall(name)]
    if not words:
        return False
    last = words[-1]
    if last in SECRET_WORDS or last.endswith(SECRET_ENDINGS):
        return True
    return last in ("key", "keys") and len(words) > 1 and words[-2] in KEY_QUALIFIERS
