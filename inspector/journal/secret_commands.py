"""Secrets given to commands on their command line, where no `name=value` shows them: `mysql
-pX`, `curl -u user:X`, `docker login -p X`, `sshpass -p X`, `gh secret set NAME --body X`,
`security add-generic-password -w X`, `mysqladmin password X`, a secret-named setting given
its value (`aws configure set aws_secret_access_key X`, `git config github.token X`, `npm
config set //registry/:_authToken X`), and the password argument of `htpasswd -b`.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from inspector.journal.secret_keys import SECRET_NAME_END, is_secret_key

_ARGUMENT = r"""(?P<value>"[^"]*"|'[^']*'|[^\s'"]+)"""
# Further on the same command line (bounded: a line of a thousand `curl`s stays quick).
_SAME_COMMAND = r"\b[^\n|;&]{0,1024}?\s"
COMMAND_PASSWORDS = tuple(
    re.compile(command + _SAME_COMMAND + option + _ARGUMENT)
    for command, option in (
        (r"\b(?:mysql|mariadb)\w*", r"-p(?=[^\s-])"),  # -pSECRET (a bare -p asks)
        (r"\bcurl", r"""(?:-u\s*|--user[\s=]+)["']?[^\s:'"]*:"""),  # -u user:SECRET
        (r"\b(?:docker|podman|buildah|nerdctl)\s+login", r"-p\s*"),
        (r"\bsshpass", r"-p\s*"),
        (r"\bgh\s+secret\s+set", r"(?:--body|-b)[\s=]+"),
        (r"\bsecurity\s+add-(?:generic|internet)-password", r"-w\s*"),
        (r"\bmysqladmin", r"(?<!-)\bpassword\s+"),
    )
)
# A word each command above holds (`gh` for `gh secret set`).
COMMAND_WORDS = ("mysql", "mariadb", "curl", "login", "sshpass", "gh", "security", "htpasswd")
# `set NAME VALUE`, `config [--global] NAME VALUE`: the name may follow a path (`//host/:_`).
SETTING = re.compile(
    r"(?<![\w-])(?:set|config|configure)\s+(?:--?[\w-]+\s+)*\S*?"
    rf"(?P<key>(?:[A-Za-z][\w.-]*?)?(?i:{SECRET_NAME_END}))\s+(?!-){_ARGUMENT}"
)
_HTPASSWD = re.compile(r"\bhtpasswd\b(?P<arguments>[^\n|;&]*)")
_WORD = re.compile(r"""-\w+|"[^"]*"|'[^']*'|[^\s'"]+""")


def setting_values(text: str) -> Iterator[re.Match[str]]:
    """Each `set NAME VALUE` whose NAME is a secret's."""
    return (match for match in SETTING.finditer(text) if is_secret_key(match["key"]))


def htpasswd_passwords(text: str) -> Iterator[tuple[int, int]]:
    """The password of each `htpasswd -b [-c] FILE USER PASSWORD` or `htpasswd -nb USER
    PASSWORD` (with -b it is the last argument; without, htpasswd asks for it)."""
    for command in _HTPASSWD.finditer(text):
        words = list(_WORD.finditer(command["arguments"]))
        flags = "".join(word[0][1:] for word in words if word[0].startswith("-"))
        arguments = [word for word in words if not word[0].startswith("-")]
        wanted = 1 if "n" in flags else 2
        if "b" in flags and len(arguments) > wanted:
            start, end = arguments[wanted].span()
            offset = command.start("arguments")
            yield offset + start, offset + end
