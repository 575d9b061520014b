"""OpenClaw: in-process plugin hooks, run outside OpenClaw in a small Node harness."""
