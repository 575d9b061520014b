"""Where hook-inspector's Codex emulation differs from the real Codex CLI, per version, each with
why. The tests assert these exactly: fixing the emulation makes a test fail until its entry goes.

Values each run makes anew (session_id, turn_id) are not differences and are not listed."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Gap:
    why: str
    keys: tuple[str, ...] = ()  # the payload keys whose values differ, where that is the gap


# codex exec writes a rollout file per session and names it; the emulation writes none, so its
# transcript_path is null (the schema's NullableString allows it).
TRANSCRIPT_PATH = Gap(
    "no rollout file in the emulation: transcript_path is null", ("transcript_path",)
)

# A subagent's SubagentStop names the subagent's own rollout file; the emulation writes none.
AGENT_TRANSCRIPT_PATH = Gap(
    "no rollout file for a subagent in the emulation: agent_transcript_path is null",
    ("agent_transcript_path",),
)

# spawn_agent answers with the new agent's id and a nickname Codex draws from its list of names;
# the emulation names every subagent the same (the id is made anew by each run, as session_id is).
AGENT_NICKNAME = Gap("the spawned agent's nickname is drawn at random by Codex", ("tool_response",))

# Real Codex reports a command's output to the model with its own header (Chunk ID, Wall time,
# exit code, token count); the emulation tells the model the scripted result alone.
TOOL_OUTPUT_WORDS = Gap("the model reads the scripted result without Codex's header")

# Codex re-prompts the model after every blocked Stop, with no limit (seen: 12 in a row); a
# scenario cannot script those answers, so the runner ends the turn after STOP_BLOCKS.
STOP_CAP = Gap("the runner ends the turn after STOP_BLOCKS blocked Stops; Codex never does")

# An npm install of Codex gives its hooks what it gives itself: the launcher's variables, and
# PATH with the install's helper folder (vendor/.../codex-path, where its rg lives) first. Another
# install would not; the emulation runs hooks in the inspector's own environment.
HOOK_ENV = Gap(
    "an npm install's variables and helper folder reach real hooks",
    ("CODEX_MANAGED_BY_NPM", "CODEX_MANAGED_PACKAGE_ROOT", "PATH"),
)

GAPS: dict[str, tuple[Gap, ...]] = {
    "0.171.0": (
        TRANSCRIPT_PATH,
        AGENT_TRANSCRIPT_PATH,
        AGENT_NICKNAME,
        TOOL_OUTPUT_WORDS,
        STOP_CAP,
        HOOK_ENV,
    ),
}


def differs(version: str, gap: Gap) -> bool:
    return gap in GAPS.get(version, ())
