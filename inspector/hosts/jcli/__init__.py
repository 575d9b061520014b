"""j-cli: command hooks, one process per call, run as a chain in priority order."""

NAME = "jcli"  # what its config and every journal record of it say (Record.host)
LABEL = "j-cli"  # how a person names it
