"""The agents whose hooks hook-inspector speaks, one folder each."""
