"""JSON text as Go's encoding/json reads it, before any Go type is involved: invalid UTF-8
becomes one U+FFFD per bad byte, an escaped lone surrogate becomes U+FFFD, numbers keep their
spelling, objects keep every key in order (duplicates too), and a syntax error gets Go's words."""

from __future__ import annotations

import codecs
import json
import re
from typing import Any

_GO_REPLACE = "hook-inspector-go-replace"
_SURROGATE = re.compile("[\ud800-\udfff]")
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)


def _replace_one_byte(error: UnicodeError) -> tuple[str, int]:
    """Go's utf8.DecodeRune gives up one byte at a time, so `a\\xe2\\x82b` is `a\\ufffd\\ufffdb`
    (Python's own "replace" makes that one U+FFFD)."""
    if not isinstance(error, UnicodeDecodeError):
        raise error
    return "\ufffd", error.start + 1


codecs.register_error(_GO_REPLACE, _replace_one_byte)


class Number(str):
    """A JSON number as it was spelled; Go parses the text for the type it decodes into."""


class JsonObject(list[tuple[str, Any]]):
    """A JSON object's members in order, duplicates kept."""


class GoSyntaxError(ValueError):
    """Go's message for JSON it cannot read at all."""


def go_text(data: bytes) -> str:
    """Bytes as Go's decoder sees their text."""
    return data.decode("utf-8", _GO_REPLACE)


def clean(text: str) -> str:
    """A decoded string as Go has it: Python keeps an escaped lone surrogate, Go writes U+FFFD."""
    return _SURROGATE.sub("\ufffd", text) if _SURROGATE.search(text) else text


def parse(data: bytes) -> Any:
    """One JSON value from `data` (surrounding whitespace allowed), or GoSyntaxError."""
    text = go_text(data)
    try:
        return json.loads(
            text,
            object_pairs_hook=JsonObject,
            parse_int=Number,
            parse_float=Number,
            parse_constant=_refuse_constant,
        )
    except json.JSONDecodeError as error:
        raise GoSyntaxError(_go_message(text, error)) from None
    except _ConstantError as error:
        raise GoSyntaxError(f"invalid character {quote_char(error.args[0][0])} {_VALUE}") from None
    except RecursionError:  # Go's own limit is 10,000 levels; Python's stack ends sooner
        raise GoSyntaxError("exceeded max depth") from None


def node_from_plain(value: Any) -> Any:
    """What parse gives for JSON that plain json.loads read as `value`, when the text held no
    duplicate key and no number spelled -0 (an int's spelling is then its str; a float was read
    as the Number it was spelled)."""
    if isinstance(value, dict):
        return JsonObject((key, node_from_plain(child)) for key, child in value.items())
    if isinstance(value, list):
        return [node_from_plain(child) for child in value]
    if type(value) is int:
        return Number(value)
    return value


class _ConstantError(ValueError):
    pass


def _refuse_constant(name: str) -> Any:
    raise _ConstantError(name)  # NaN and Infinity are not JSON to Go


_VALUE = "looking for beginning of value"
_CONTEXTS = {
    "Expecting value": _VALUE,
    "Extra data": "after top-level value",
    "Expecting ':' delimiter": "after object key",
    "Expecting property name enclosed in double quotes": "looking for beginning of object key "
    "string",
    "Invalid control character at": "in string literal",
    "Invalid \\escape": "in string escape code",
    "Invalid \\uXXXX escape": "in \\u hexadecimal character escape",
}


def _go_message(text: str, error: json.JSONDecodeError) -> str:
    if error.pos >= len(text.rstrip(" \t\r\n")) or error.msg.startswith("Unterminated string"):
        return "unexpected end of JSON input"
    if error.msg == "Expecting ',' delimiter":
        inside = _innermost_container(text[: error.pos])
        context = "after object key:value pair" if inside == "{" else "after array element"
    else:
        context = _CONTEXTS.get(error.msg, _VALUE)
    return f"invalid character {quote_char(text[error.pos])} {context}"


def _innermost_container(prefix: str) -> str:
    stack: list[str] = []
    for char in _STRING.sub('""', prefix):
        if char in "[{":
            stack.append(char)
        elif char in "]}" and stack:
            stack.pop()
    return stack[-1] if stack else ""


_CHAR_ESCAPES = {
    "\a": "\\a",
    "\b": "\\b",
    "\f": "\\f",
    "\n": "\\n",
    "\r": "\\r",
    "\t": "\\t",
    "\v": "\\v",
}


def quote_char(char: str) -> str:
    """Go's quoteChar: the character in single quotes, escaped when it is not printable."""
    if char == "'":
        return "'\\''"
    if char == '"':
        return "'\"'"
    if char.isprintable():
        return f"'{char}'"
    code = ord(char)
    if char in _CHAR_ESCAPES:
        body = _CHAR_ESCAPES[char]
    elif code < 0x80:
        body = f"\\x{code:02x}"
    elif code < 0x10000:
        body = f"\\u{code:04x}"
    else:
        body = f"\\U{code:08x}"
    return f"'{body}'"
