#!/usr/bin/env python3
"""A hook that dies before reading anything: one stderr line, exit status 3."""

import sys

print("crash_at_start: giving up before the handshake", file=sys.stderr)
sys.exit(3)
