"""Claude Code: command hooks, one process per call, run in parallel per event."""

NAME = "claude"  # what its config and every journal record of it say (Record.host)
LABEL = "Claude Code"  # how a person names it
