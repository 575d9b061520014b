"""Settings read as strip-json-comments reads them (Gemini CLI): comments blanked, strings
untouched, every line where it was, so a message still names the file's own line."""

from __future__ import annotations

import json

import pytest

from inspector.config.errors import ConfigError
from inspector.config.json_comments import has_comments, without_comments
from inspector.config.parse import parse_json

COMMENTED = """{
  // the guard
  "url": "http://example.com/a//b", /* a block
  over two lines */ "quote": "say \\"/*\\" here",
  "n": 1 // trailing
}
"""


def test_comments_go_and_strings_stay() -> None:
    clean = without_comments(COMMENTED)
    assert json.loads(clean) == {
        "url": "http://example.com/a//b",
        "quote": 'say "/*" here',
        "n": 1,
    }
    assert clean.count("\n") == COMMENTED.count("\n") and len(clean) == len(COMMENTED)
    assert has_comments(COMMENTED) and not has_comments(clean)


def test_an_error_after_a_comment_names_the_files_own_line() -> None:
    text = '{\n  /* one\n  two */\n  "a": [1,, 2]\n}\n'
    with pytest.raises(ConfigError) as error:
        parse_json("settings.json", without_comments(text))
    assert error.value.line == 4
