"""What keeps a hook Codex found from running (codex-cli 0.171.0), read from the config.toml files:
`[features] hooks = false` (or the deprecated `codex_hooks`) turns every hook off; a hook's
`[hooks.state."KEY"] enabled = false` turns it off; and a hook that is not trusted, by a
`trusted_hash` equal to its current hash (trust.py), is skipped by `codex exec` (its TUI asks
for a review first). Off hooks are disabled here too; an untrusted one still runs in the
workbench, where you are testing it, with a note that Codex will not run it yet."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace

from inspector.config.document import Document, KeyPath
from inspector.config.fields import describe
from inspector.config.model import CommandHookSpec
from inspector.config.warning import ConfigWarning
from inspector.hosts.codex.findings import finding

FEATURE_KEYS = ("hooks", "codex_hooks")  # the second is the deprecated name


@dataclass(frozen=True)
class Identity:
    """Where a hook sits, and who Codex takes it for: its state key and current hash."""

    doc: Document
    path: KeyPath
    key: str
    hash: str


def apply(
    specs: list[CommandHookSpec], identities: dict[str, Identity], tomls: Iterable[Document]
) -> tuple[list[CommandHookSpec], list[ConfigWarning]]:
    """`specs` as Codex's switches leave them, and what to tell about them."""
    states: dict[str, object] = {}
    feature: tuple[Document, KeyPath, bool] | None = None
    for doc in tomls:  # user first: a later file's setting wins
        data = doc.data if isinstance(doc.data, dict) else {}
        states |= _states(doc, data)
        features = data.get("features")
        if isinstance(features, dict):
            for key in FEATURE_KEYS:
                if key in features:
                    feature = (doc, ("features", key), _switch(doc, features[key], key))
                    break
    warnings = []
    if feature is not None and not feature[2]:
        doc, path, _ = feature
        message = f"{path[-1]} = false: Codex runs no hook at all"
        warnings.append(ConfigWarning.at(doc, path, finding("codex-hooks-off", message), None))
        return [replace(spec, enabled=False) for spec in specs], warnings
    kept = []
    for spec in specs:
        identity = identities.get(spec.name)
        state = states.get(identity.key) if identity else None
        state = state if isinstance(state, dict) else {}
        if identity is not None and state.get("enabled") is False:
            message = f"{spec.name}: enabled = false in {identity.key!r}: Codex skips it"
            found = finding("codex-hook-off", message)
            warnings.append(ConfigWarning.at(identity.doc, identity.path, found, spec.name))
            kept.append(replace(spec, enabled=False))
            continue
        if identity is not None:
            trusted = state.get("trusted_hash")
            if trusted != identity.hash:
                how = (
                    "changed since it was trusted"
                    if isinstance(trusted, str)
                    else "not trusted yet"
                )
                message = (
                    f"{how}: codex exec skips it until it is reviewed (Codex's /hooks) or run with"
                    " --dangerously-bypass-hook-trust"
                )
                found = finding("codex-untrusted", message)
                warnings.append(ConfigWarning.at(identity.doc, identity.path, found, spec.name))
        kept.append(spec)
    return kept, warnings


def _states(doc: Document, data: dict[str, object]) -> dict[str, object]:
    """The `[hooks.state."KEY"]` tables of a config.toml; anything else there is an error, as
    Codex refuses to load such a config.toml ("invalid type ... expected struct HookStateToml")."""
    hooks = data.get("hooks")
    state = hooks.get("state", {}) if isinstance(hooks, dict) else {}
    if not isinstance(state, dict):
        raise doc.error(("hooks", "state"), refused(doc, state, "a table of hook keys"))
    for key, value in state.items():
        if not isinstance(value, dict):
            raise doc.error(("hooks", "state", key), refused(doc, value, "a table"))
    return state


def _switch(doc: Document, value: object, key: str) -> bool:
    if not isinstance(value, bool):
        raise doc.error(("features", key), refused(doc, value, "true or false"))
    return value


def refused(doc: Document, value: object, expected: str) -> str:
    return f"expected {expected}, got {describe(doc, value)}: Codex refuses to load this file"
