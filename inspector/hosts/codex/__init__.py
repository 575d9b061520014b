"""OpenAI Codex CLI: command hooks, one process per call, run in parallel per event."""

NAME = "codex"  # what its config and every journal record of it say (Record.host)
LABEL = "Codex"  # how a person names it
