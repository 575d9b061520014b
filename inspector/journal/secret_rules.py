"""Secrets found by gitleaks' rules: its default config, carried as data in rules/gitleaks.toml
(see the header there for the version and licence), read and applied here as gitleaks applies
it. About 220 rules: provider tokens by their shape (Slack app tokens, Stripe webhook secrets,
Vault, DigitalOcean, Shopify, age, Grafana, Linear, Postman, Atlassian, ...) and a generic
`name = value` rule, each with its keywords, an entropy floor and allowlists (stopwords,
regular expressions), and the global allowlist.

As gitleaks does, a rule runs only on text that holds one of its keywords (case-insensitively),
its secret is its first capture group that matched (or `secretGroup`), and a secret whose
Shannon entropy is not above the rule's `entropy` is no finding. Rules scoped to file paths (a
`.tf`, a `.yaml`, a `.p12`) are left out, and allowlists that need a path never apply: a journal
has no paths. Go's regular expressions (RE2) are translated to Python's (`go_regex`); each is
compiled when a keyword first asks for it. On long text a rule runs only on a window around
each keyword, so a rule with a loose prefix stays cheap on a big tool output.
"""

from __future__ import annotations

import math
import re
import tomllib
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from inspector.journal.spans import merged

RULES_FILE = Path(__file__).parent / "rules" / "gitleaks.toml"
# Around a keyword, the text a rule's match can reach: gitleaks' generic rules allow 50
# characters of name before the keyword; tokens and curl command lines reach further after it.
BEFORE_KEYWORD, AFTER_KEYWORD = 256, 4096
POSIX_CLASSES = {
    "alnum": "0-9A-Za-z",
    "alpha": "A-Za-z",
    "digit": "0-9",
    "lower": "a-z",
    "upper": "A-Z",
    "xdigit": "0-9A-Fa-f",
    "space": r"\t\n\v\f\r ",
    "word": r"\w",
}
LONGEST_ANY = 1024
NAME_BEFORE_KEYWORD = r"(?i)[\w.-]{0,50}?"
NAME_CHARACTERS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-")
_FLAGS_ONLY = re.compile(r"\(\?([a-zA-Z]+)\)")


def go_regex(pattern: str) -> str:
    """A Go (RE2) regular expression as Python reads it the same way: a flag group such as
    `(?i)` after the start applies to the rest of its enclosing group, through its other
    alternatives (Python wants flags at the start, or scoped: each alternative gets its own
    scope), `\\z` is `\\Z`, and `[[:alnum:]]`-style classes are spelled out. And `.*` and `.+`
    take at most LONGEST_ANY characters: Python's expressions backtrack where RE2's do not, and
    gitleaks' `\\bcurl\\b.*` over one long line of `curl`s would otherwise take minutes."""
    out: list[str] = []
    scoped: list[list[str]] = [[]]  # per open group: the flags set inside it so far
    position, in_class = 0, False
    while position < len(pattern):
        char = pattern[position]
        if char == "\\":
            escaped = pattern[position : position + 2]
            out.append("\\Z" if escaped == "\\z" else escaped)
            position += 2
            continue
        if in_class:
            posix = re.match(r"\[:(\w+):\]", pattern[position:])
            if posix and posix[1] in POSIX_CLASSES:
                out.append(POSIX_CLASSES[posix[1]])
                position += len(posix[0])
                continue
            in_class = char != "]" or pattern[position - 1] == "["
            out.append(char)
        elif char == "[":
            in_class = True
            out.append(char)
            if pattern[position + 1 : position + 2] == "^":
                out.append("^")
                position += 1
        elif char == "." and pattern[position + 1 : position + 2] in ("*", "+"):
            least = 0 if pattern[position + 1] == "*" else 1
            out.append(f".{{{least},{LONGEST_ANY}}}")
            position += 2
            continue
        elif (flags := _FLAGS_ONLY.match(pattern, position)) and position > 0:
            out.append(f"(?{flags[1]}:")
            scoped[-1].append(flags[1])
            position += len(flags[0])
            continue
        elif char == "(":
            scoped.append([])
            out.append(char)
        elif char == ")":
            out.append(")" * len(scoped.pop()) + ")")
        elif char == "|":
            opened = scoped[-1]
            out.append(")" * len(opened) + "|" + "".join(f"(?{f}:" for f in opened))
        else:
            out.append(char)
        position += 1
    return "".join(out) + ")" * len(scoped[0])


def entropy(text: str) -> float:
    """Shannon entropy in bits per character, as gitleaks computes it."""
    counts = Counter(text)
    return -sum(n / len(text) * math.log2(n / len(text)) for n in counts.values())


@dataclass(frozen=True, slots=True)
class Allowlist:
    """What makes a finding no finding: a regular expression matching its secret (or its whole
    match, or its line: `target`), or a stopword within its secret; both, when `both`."""

    regexes: tuple[re.Pattern[str], ...]
    stopwords: tuple[str, ...]
    target: str = "secret"
    both: bool = False

    def allows(self, secret: str, match: str, line: str) -> bool:
        target = {"match": match, "line": line}.get(self.target, secret)
        checks = []
        if self.regexes:
            checks.append(any(regex.search(target) for regex in self.regexes))
        if self.stopwords:
            lowered = secret.lower()
            checks.append(any(word in lowered for word in self.stopwords))
        return all(checks) if self.both else any(checks)


@dataclass(slots=True, eq=False)
class Rule:
    id: str
    source: str
    keywords: tuple[str, ...]
    min_entropy: float = 0.0
    secret_group: int = 0
    allowlists: tuple[Allowlist, ...] = ()
    name_before: int = 0  # how much of a name before its keyword the match takes (see _rule)
    _pattern: re.Pattern[str] | None = field(default=None, repr=False)

    @property
    def pattern(self) -> re.Pattern[str]:
        if self._pattern is None:
            self._pattern = re.compile(self.source, re.ASCII)
        return self._pattern

    def secrets(self, text: str, start: int, end: int) -> Iterator[tuple[int, int, str]]:
        """(start, end, match) of each candidate secret the rule's pattern finds in
        text[start:end], before its entropy and allowlists are checked."""
        previous_end = start
        for match in self.pattern.finditer(text, start, end):
            match_start = _name_start(
                text, match.start(), max(previous_end, start), self.name_before
            )
            previous_end = match.end()
            groups = range(1, len(match.groups()) + 1)
            chosen = [self.secret_group] if self.secret_group else groups
            group = next((g for g in chosen if match.group(g)), 0)
            found_start, found_end = match.span(group)
            secret = text[found_start:found_end]
            if group == 0:  # gitleaks trims line breaks off a whole match
                stripped = secret.strip("\n")
                found_start += secret.index(stripped) if stripped else 0
                found_end = found_start + len(stripped)
            if found_start < found_end:
                yield found_start, found_end, text[match_start : match.end()]


def _name_start(text: str, keyword: int, floor: int, longest: int) -> int:
    """Where the name a keyword ends starts: up to `longest` name characters before it."""
    position = keyword
    while position > max(floor, keyword - longest) and text[position - 1] in NAME_CHARACTERS:
        position -= 1
    return position


@dataclass(frozen=True, slots=True)
class RuleSet:
    rules: tuple[Rule, ...]
    allowlist: Allowlist
    by_keyword: dict[str, tuple[Rule, ...]]

    def find(self, text: str) -> Iterator[tuple[int, int]]:
        """The spans of secrets in `text`, in no particular order, possibly overlapping."""
        lowered = text.lower()
        present = [keyword for keyword in self.by_keyword if keyword in lowered]
        if not present:
            return
        windows = self._windows(text, lowered, present)
        for rule, spans in windows.items():
            for start, end in spans:
                for found_start, found_end, match in rule.secrets(text, start, end):
                    if self._kept(rule, text, found_start, found_end, match):
                        yield found_start, found_end

    def _windows(
        self, text: str, lowered: str, present: list[str]
    ) -> dict[Rule, list[tuple[int, int]]]:
        """For each rule one of whose keywords is in `text`, the parts of it to search: all of
        it when it is short (or lower-casing changed its length), else a window around each
        keyword, windows that touch merged."""
        whole = len(text) <= BEFORE_KEYWORD + AFTER_KEYWORD or len(lowered) != len(text)
        found: dict[Rule, list[tuple[int, int]]] = {}
        for keyword in present:
            spans = [(0, len(text))] if whole else list(_around(lowered, keyword, len(text)))
            for rule in self.by_keyword[keyword]:
                found.setdefault(rule, []).extend(spans)
        return {rule: merged(spans) for rule, spans in found.items()}

    def _kept(self, rule: Rule, text: str, start: int, end: int, match: str) -> bool:
        secret = text[start:end]
        if rule.min_entropy and entropy(secret) <= rule.min_entropy:
            return False
        line_start = text.rfind("\n", 0, start) + 1
        line_end = text.find("\n", end)
        line = text[line_start : None if line_end < 0 else line_end]
        allowlists = (self.allowlist, *rule.allowlists)
        return not any(allowlist.allows(secret, match, line) for allowlist in allowlists)


def _around(lowered: str, keyword: str, length: int) -> Iterator[tuple[int, int]]:
    at = lowered.find(keyword)
    while at >= 0:
        yield max(0, at - BEFORE_KEYWORD), min(length, at + AFTER_KEYWORD)
        at = lowered.find(keyword, at + 1)


@cache
def gitleaks_rules() -> RuleSet:
    return load_rules(RULES_FILE)


def load_rules(path: Path) -> RuleSet:
    config = tomllib.loads(path.read_text(encoding="utf-8"))
    rules = tuple(_rule(entry) for entry in config["rules"] if _applies(entry))
    by_keyword: dict[str, list[Rule]] = {}
    for rule in rules:
        for keyword in rule.keywords:
            by_keyword.setdefault(keyword.lower(), []).append(rule)
    return RuleSet(
        rules=rules,
        allowlist=_allowlist(config.get("allowlist", {})) or Allowlist((), ()),
        by_keyword={keyword: tuple(found) for keyword, found in by_keyword.items()},
    )


def _applies(entry: dict[str, Any]) -> bool:
    """A rule that looks at text, not only at file paths, and that can run on a keyword."""
    return "regex" in entry and "path" not in entry and bool(entry.get("keywords"))


def _rule(entry: dict[str, Any]) -> Rule:
    """A rule from its entry. Most of gitleaks' rules for `name = value` start with up to 50
    characters of a name before their keyword, tried lazily from every position of the text:
    that start is left out of the pattern (which then starts at its keyword, and runs many
    times faster) and found after a match instead, for the allowlists that look at the match."""
    allowlists = (_allowlist(a) for a in entry.get("allowlists", ()))
    source = go_regex(entry["regex"])
    name_before = 0
    if source.startswith(NAME_BEFORE_KEYWORD):
        source, name_before = "(?i)" + source.removeprefix(NAME_BEFORE_KEYWORD), 50
    return Rule(
        id=entry["id"],
        source=source,
        name_before=name_before,
        keywords=tuple(entry["keywords"]),
        min_entropy=float(entry.get("entropy", 0.0)),
        secret_group=int(entry.get("secretGroup", 0)),
        allowlists=tuple(a for a in allowlists if a is not None),
    )


def _allowlist(entry: dict[str, Any]) -> Allowlist | None:
    """An allowlist as far as it can apply to text with no path or commit; None if it cannot."""
    both = entry.get("condition", "OR").upper() == "AND"
    if both and (entry.get("paths") or entry.get("commits")):
        return None
    regexes = tuple(re.compile(go_regex(r), re.ASCII) for r in entry.get("regexes", ()))
    stopwords = tuple(word.lower() for word in entry.get("stopwords", ()))
    if not regexes and not stopwords:
        return None
    return Allowlist(regexes, stopwords, entry.get("regexTarget", "secret"), both)
