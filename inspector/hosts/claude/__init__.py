"""Claude Code: command hooks, one process per call, run in parallel per event."""
