"""Secrets told in prose or printed after a prompt, where no `name=value` shows them.

"my password is X", "the token was X", "the admin passphrase is: X": the word after `is` or
`was` is hidden when it is quoted or does not read as a word of prose: a digit, a symbol, a
capital inside it ("hunter2", "Tr0ub4dor&3", "xKq9bLm"). So "the password is incorrect" and
"the token was found" stay, and so does a password that is one plain word ("swordfish").

A line that ends in a prompt naming a secret ("Enter password:", "Generated password for
admin:", "Your new root password is:") and a next line of one word: that word is hidden,
whether the two lines are in one text (PROMPTED) or in two stderr records of one hook
(prompts_for_secret).
"""

from __future__ import annotations

import re

_NAMES = r"passwords?|passphrase|passwd|passcode|token|secret|(?:api|access|secret)[ _-]?key"
_VALUE = r"""(?P<value>"[^"\n]+"|'[^'\n]+'|[^\s"']+)"""
PROSE = re.compile(rf"(?i:\b(?:{_NAMES})\s+(?:is|was)\b:?)\s+{_VALUE}")
_PROMPT = rf"(?i:\b(?:{_NAMES})(?:\s+(?:is|was)|\s+for\s[^\n]{{1,60}}?)?\s*:)[ \t]*"
PROMPT_AT_END = re.compile(rf"{_PROMPT}\r?$")
PROMPTED = re.compile(rf"{_PROMPT}\r?\n[ \t]*(?P<value>\S+)[ \t]*\r?$", re.MULTILINE)
# A word as prose writes it: letters, maybe capitalised, maybe hyphenated or with an apostrophe.
_PROSE_WORD = re.compile(r"[A-Za-z][a-z]*(?:['-][A-Za-z][a-z]*)*")


def prompts_for_secret(line: str) -> bool:
    return PROMPT_AT_END.search(line) is not None


def is_prose(value: str) -> bool:
    """Whether the word after "password is" is prose ("incorrect", "found.", "Case-sensitive")
    rather than the password ("hunter2", "Tr0ub4dor&3", "xKq9bLm", or anything quoted)."""
    return _PROSE_WORD.fullmatch(value.rstrip(".,;:!?)")) is not None or value == "[REDACTED]"
