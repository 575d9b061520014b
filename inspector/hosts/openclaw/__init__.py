"""OpenClaw: in-process plugin hooks, run outside OpenClaw in a small Node harness."""

from pathlib import Path

NAME = "openclaw"  # what its config and every journal record of it say (Record.host)
LABEL = "OpenClaw"  # how a person names it
# The bridge plugin a live Gateway loads (plain JavaScript, shipped with the package).
BRIDGE_PLUGIN_FOLDER = Path(__file__).with_name("plugin")
