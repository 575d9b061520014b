"""Which Claude Code release a session plays: the newest unless its scenario names another
(`claude_code:`), and a release not known here is a config error that names the ones known."""

from __future__ import annotations

from pathlib import Path

import pytest

from inspector.config.errors import ConfigError
from inspector.hosts.claude.versions import NEWEST
from inspector.scenario import parse_scenario
from tests.support.claude import claude_hooks, decision, reply, spec

SCENARIO = """
session: s
{release}
turns:
  - user: "go"
    rounds:
      - tool_calls:
          - tool: Bash
            arguments: {{command: "ls"}}
      - content: "done"
"""


@pytest.mark.parametrize(
    ("release", "told"),
    [("", "PreToolUse:Bash hook error: no shell"), ('claude_code: "2.1.197"', "no shell")],
)
async def test_a_scenario_plays_the_release_it_names_else_the_newest(
    tmp_path: Path, release: str, told: str
) -> None:
    deny = spec(reply(0, decision("deny", "no shell")), matcher="Bash")
    runner = claude_hooks(deny, project_dir=tmp_path).turn_runner()
    [outcome] = await runner.run(parse_scenario(SCENARIO.format(release=release)))
    [use] = outcome.tool_uses
    assert (use.ran, use.feedback) == (False, told)
    assert runner.version.name == ("2.1.197" if release else NEWEST.name)


async def test_a_release_not_known_here_is_a_config_error_naming_the_known_ones(
    tmp_path: Path,
) -> None:
    scenario = parse_scenario(SCENARIO.format(release='claude_code: "1.0.0"'), file="s.yaml")
    with pytest.raises(ConfigError) as raised:
        await claude_hooks(project_dir=tmp_path).turn_runner().run(scenario)
    assert str(raised.value) == (
        "s.yaml: claude_code: Claude Code 1.0.0 is not one the emulation knows "
        "(it knows 2.1.197, 2.1.332)"
    )
