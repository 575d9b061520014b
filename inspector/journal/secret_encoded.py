"""Secrets inside base64 (an `.env` file passed as `echo ... | base64 -d > .env`, a config in
an environment variable): a long base64 token that decodes to text is hidden whole when the
text it decodes to holds a secret. Tokens that decode to binary (hashes, images) or to text
with nothing secret in it stay as they are.
"""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Callable, Iterator

MIN_LENGTH = 24  # 18 bytes: shorter than any `NAME=secret` line worth decoding
_TOKEN = re.compile(rf"(?<![\w+/-])[A-Za-z0-9+/]{{{MIN_LENGTH},}}={{0,2}}(?![\w+/=-])")


def encoded_secrets(text: str, redact: Callable[[str], str]) -> Iterator[tuple[int, int]]:
    """The spans of base64 tokens in `text` whose decoded text `redact` changes."""
    for token in _TOKEN.finditer(text):
        decoded = _decoded_text(token[0])
        if decoded is not None and redact(decoded) != decoded:
            yield token.span()


def _decoded_text(token: str) -> str | None:
    try:
        data = base64.b64decode(token + "=" * (-len(token) % 4), validate=True)
        decoded = data.decode("utf-8")
    except (binascii.Error, ValueError):
        return None
    return decoded if decoded.isprintable() or _printable_lines(decoded) else None


def _printable_lines(decoded: str) -> bool:
    return all(line.isprintable() for line in decoded.replace("\t", " ").splitlines())
