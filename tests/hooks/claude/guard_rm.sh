#!/bin/sh
# A PreToolUse guard as people write them: exit 2 with the reason on stderr for rm -rf.
if grep -q '"command":"rm -rf'; then
    echo "rm -rf is not allowed: remove specific files instead" >&2
    exit 2
fi
exit 0
