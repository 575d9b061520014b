"""The agents whose hooks hook-inspector speaks, one folder each, and the registry of them."""
