"""The answer a relayed j-cli hook gives j-cli: the inspector's own j-cli chain, merged into one
HookResult on stdout."""

from __future__ import annotations

import json

from inspector.hosts.host import ABSENT, HookOutput
from inspector.hosts.jcli.chain_result import ChainResult


def jcli_output(chain: ChainResult) -> HookOutput:
    """The chain's merged HookResult as one j-cli hook's stdout; no result, no output (j-cli
    then goes on as if no hook had run)."""
    if chain.result is None:
        return ABSENT
    stdout = json.dumps(chain.result, separators=(",", ":"), ensure_ascii=False)
    return HookOutput(stdout=stdout, action=chain.action or "modify")
