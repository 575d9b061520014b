"""OpenClaw: in-process plugin hooks, run outside OpenClaw in a small Node harness."""

from pathlib import Path

# The bridge plugin a live Gateway loads (plain JavaScript, shipped with the package).
BRIDGE_PLUGIN_FOLDER = Path(__file__).with_name("plugin")
