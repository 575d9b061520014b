"""Gemini CLI: command hooks in settings.json, one process per call, answers merged per event."""

NAME = "gemini"  # what its config and every journal record of it say (Record.host)
LABEL = "Gemini CLI"  # how a person names it
