"""j-cli: command hooks, one process per call, run as a chain in priority order."""
