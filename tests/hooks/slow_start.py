#!/usr/bin/env python3
"""A hook that takes its time to start: `slow_start.py SECONDS [SCRIPT]`.

It sleeps SECONDS before reading anything (so hook.hello waits that long), then becomes
scripted.py with SCRIPT (default `{}`: a well-behaved hook), in the same process.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

time.sleep(float(sys.argv[1]))
scripted = str(Path(__file__).with_name("scripted.py"))
os.execv(sys.executable, [sys.executable, scripted, *sys.argv[2:]])
