"""Findings every host shares: the Finding record, the table entry a host's codes are written
in, and the findings any command hook can earn. Each host's own codes and the findings built
from them live in its folder (inspector/hosts/<name>/findings.py)."""
