"""The headers Claude Code sends with an http handler's POST (2.1.332): each value's `$VAR` and
`${VAR}` (upper-case names) is filled in from the environment only for the names the handler's
`allowedEnvVars` lists (already narrowed by the settings' `httpHookAllowedEnvVars`); any other
reference becomes the empty string. Carriage returns, newlines and NULs are then taken out.

Claude Code also refuses to fill in a variable it takes for a credential of its own; the
inspector does not guess which those are."""

from __future__ import annotations

import re
from collections.abc import Mapping

from inspector.config.model import CommandHookSpec
from inspector.hooks.http_hook import HeaderMaker

_REFERENCE = re.compile(r"\$\{([A-Z_][A-Z0-9_]*)\}|\$([A-Z_][A-Z0-9_]*)")
_UNSAFE = re.compile(r"[\r\n\x00]")


def interpolate(value: str, allowed: frozenset[str], env: Mapping[str, str]) -> str:
    def fill(match: re.Match[str]) -> str:
        name = match.group(1) or match.group(2)
        return env.get(name, "") if name in allowed else ""

    return _UNSAFE.sub("", _REFERENCE.sub(fill, value))


def header_maker(spec: CommandHookSpec) -> HeaderMaker:
    """A function from the environment to the headers `spec`'s request carries."""
    target = spec.http
    allowed = frozenset(target.allowed_env_vars if target else ())
    headers = target.headers if target else ()

    def make(env: Mapping[str, str]) -> list[tuple[str, str]]:
        return [(name, interpolate(value, allowed, env)) for name, value in headers]

    return make
