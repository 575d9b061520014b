"""gitleaks' rules as data (inspector/journal/rules/gitleaks.toml), read and applied by
secret_rules: Go's regular expressions translated, keywords, entropy, allowlists, long text."""

from __future__ import annotations

import re
import warnings

import pytest

from inspector.journal.secret_rules import RULES_FILE, gitleaks_rules, go_regex
from inspector.journal.secret_text import redact_text


def found(text: str) -> list[str]:
    return sorted({text[start:end] for start, end in gitleaks_rules().find(text)})


def test_every_rule_that_reads_text_compiles_in_python() -> None:
    rules = gitleaks_rules().rules
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a nested set `[[` read differently, say
        for rule in rules:
            assert rule.pattern.pattern == rule.source
    assert len(rules) >= 200
    assert all(rule.keywords for rule in rules)
    assert "pkcs12-file" not in {rule.id for rule in rules}  # a path, no text


def test_the_rules_say_where_they_come_from() -> None:
    header = RULES_FILE.read_text(encoding="utf-8")[:600]
    assert re.search(r"commit [0-9a-f]{40}", header)
    assert "MIT" in header
    assert "Zachary Rice" in (RULES_FILE.parent / "gitleaks.LICENSE").read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("go", "python"),
    [
        (r"\b(LTAI(?i)[a-z0-9]{20})", r"\b(LTAI(?i:[a-z0-9]{20}))"),
        (r"(?i)xapp-\d", r"(?i)xapp-\d"),  # at the start: as it is
        (r'(?:"(?i)(?:a|b)"|x)', r'(?:"(?i:(?:a|b)")|(?i:x))'),  # to the end of its group
        (r"dp\.pt\.(?i)[a-z]{3}", r"dp\.pt\.(?i:[a-z]{3})"),  # to the end of the pattern
        (r"(?:\s|\z)", r"(?:\s|\Z)"),
        (r"\\z", r"\\z"),  # an escaped backslash and a z
        (r"\b(pat[[:alnum:]]{14})", r"\b(pat[0-9A-Za-z]{14})"),
        (r"[^[:space:]x]", r"[^\t\n\v\f\r x]"),
        (r"[(?i)]", r"[(?i)]"),  # in a class, no flags
        (r"\bcurl\b(?:.*?|.+)[.*]\.*", r"\bcurl\b(?:.{0,1024}?|.{1,1024})[.*]\.*"),
    ],
)
def test_go_regular_expressions_in_python(go: str, python: str) -> None:
    assert go_regex(go) == python
    re.compile(python)


def test_provider_tokens_by_their_keywords() -> None:
    age = "AGE-SECRET-KEY-1" + "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L" + "QPZRY9X8GF2TVDW0S3JN54KHCE"
    assert found(f"identity: {age}\n") == [age]
    assert found("no keyword here: QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L") == []


def test_generic_names_need_entropy_and_pass_the_allowlists() -> None:
    value = "Xk29fLq0ZmA7vB3nT8wR"
    assert found(f"my_api_token = {value}") == [value]
    assert found("my_api_token = aaaaaaaaaaaaaaaa") == []  # entropy too low
    assert found(f"primary_key = {value}") == []  # the match's allowlist: a database key
    assert found(f"key_id = {value}") == []


def test_long_text_is_searched_around_each_keyword() -> None:
    token = "dop_v1_" + "a3f9c2d1" * 8
    filler = "lorem ipsum dolor sit amet " * 4000  # 108 KB
    text = f"{token} {filler} {token.replace('a3', 'b4')}\n{filler}"
    assert found(text) == sorted({token, token.replace("a3", "b4")})


def test_a_rule_finds_a_secret_that_another_rule_does_not_hide() -> None:
    linear = "lin_api_" + "Xk29fLq0ZmA7vB3nT8wRXk29fLq0ZmA7vB3nT8wR"
    assert redact_text(f"LINEAR={linear} ok") == "LINEAR=[REDACTED] ok"
