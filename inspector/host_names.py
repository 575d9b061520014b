"""The names of the agents whose hooks hook-inspector speaks. Every journal record names its
host by one of these names (Record.host); people read the label."""

PICOCLAW, JCLI, CLAUDE, OPENCLAW = "picoclaw", "jcli", "claude", "openclaw"
LABELS = {PICOCLAW: "PicoClaw", JCLI: "j-cli", CLAUDE: "Claude Code", OPENCLAW: "OpenClaw"}


def host_label(host: str) -> str:
    """How a person names the host: "PicoClaw", "j-cli", "Claude Code"."""
    return LABELS.get(host, host or LABELS[PICOCLAW])
