"""Value matchers for field terms: exact or glob, always case-insensitive."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from inspector.filter.glob import Glob

Match = Callable[[Any], bool]
LowTest = Callable[[str], bool]


def _is_glob(pattern: str) -> bool:
    return "*" in pattern or "?" in pattern


def _itself(value: Any) -> Any:
    return value


def matcher(patterns: Iterable[str], get: Callable[[Any], Any] = _itself) -> Match:
    """A test of `get(item)` against alternative patterns (exact or glob), ignoring case.

    Both sides are lowercased, so the hot path is a set lookup or a string method.
    None never matches; other non-strings match as their str().
    """
    test = _any_of({pattern.lower() for pattern in patterns})

    def match(item: Any) -> bool:
        value = get(item)
        if isinstance(value, str):
            return test(value.lower())
        return value is not None and test(str(value).lower())

    return match


def _any_of(patterns: set[str]) -> LowTest:
    exact = frozenset(pattern for pattern in patterns if not _is_glob(pattern))
    globs = [_glob_test(pattern) for pattern in sorted(patterns - exact)]
    if not globs:
        return exact.__contains__
    if len(globs) == 1:
        [glob] = globs
        return lambda low: low in exact or glob(low)
    return lambda low: low in exact or any(glob(low) for glob in globs)


def _glob_test(pattern: str) -> LowTest:
    """Common shapes (`x*`, `*x`, `*x*`) become one string method; the rest go piece by piece."""
    inner = pattern.strip("*")
    if not _is_glob(inner):
        if pattern.startswith("*") and pattern.endswith("*"):
            return lambda low: inner in low
        if pattern.endswith("*"):
            return lambda low: low.startswith(inner)
        return lambda low: low.endswith(inner)
    return Glob(pattern).test
