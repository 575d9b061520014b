"""j-cli's runtime: its hooks are commands, run one after another by its chain (a stop or a skip
ends it), so a session is the shared command runtime over j-cli's chain."""

from __future__ import annotations

from inspector.config.model import Config
from inspector.hosts.command_runtime import CommandRuntime
from inspector.hosts.jcli import NAME
from inspector.hosts.jcli.chain import JcliChain
from inspector.journal.journal import Journal
from inspector.pipeline.gate import Gate


def jcli_runtime(config: Config, journal: Journal, gate: Gate) -> CommandRuntime:
    def chain(config: Config, gate: Gate | None) -> JcliChain:
        workdir = str(config.workdir) if config.workdir else None
        return JcliChain(
            config.command_hooks, journal, cwd=workdir, warnings=config.warnings, gate=gate
        )

    return CommandRuntime(NAME, config, journal, gate, chain)
