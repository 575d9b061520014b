"""hook-inspector: a terminal workbench for agent hooks."""

__version__ = "0.1.0"
