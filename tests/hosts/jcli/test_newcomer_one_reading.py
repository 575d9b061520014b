"""One reading of a j-cli run, whichever way it starts (issue 27, item 9): the composer's send to
one hook gets the findings the same run gets in its chain (a scenario's, an event fired)."""

from __future__ import annotations

from pathlib import Path

from inspector.engine import Engine
from inspector.hosts.load import load_config

NOT_FOUND = "jcli-command-not-found"


def project_with_a_missing_script(folder: Path) -> Path:
    hook = folder / ".jcli" / "hooks" / "broken"
    hook.mkdir(parents=True)
    (hook / "HOOK.yaml").write_text("events: [pre_tool_execution]\ncommand: ./check.sh\n")
    return folder


async def test_a_run_fired_through_the_chain_has_the_not_found_finding(tmp_path: Path) -> None:
    engine = Engine(load_config(project_with_a_missing_script(tmp_path)))
    async with engine:
        name = engine.runtime.hook_names()[0]
        context = engine.runtime.composer().template("pre_tool_execution")
        await engine.send_through_pipeline("pre_tool_execution", context)
    runs = [e for e in engine.journal.exchanges() if e.hook == name]
    assert runs and NOT_FOUND in {f.code for f in runs[-1].findings_list}


async def test_the_composers_send_to_one_hook_has_the_same_finding(tmp_path: Path) -> None:
    engine = Engine(load_config(project_with_a_missing_script(tmp_path)))
    async with engine:
        name = engine.runtime.hook_names()[0]
        context = engine.runtime.composer().template("pre_tool_execution")
        exchange = await engine.send_to_hook(name, "pre_tool_execution", context)
    assert exchange.exit_code == 127
    assert NOT_FOUND in {finding.code for finding in exchange.findings_list}
