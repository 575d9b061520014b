#!/bin/sh
# The classic mistake: a guard that refuses with exit 1, which Claude Code does not treat as a block.
cat > /dev/null
echo "BLOCKED: rm is dangerous" >&2
exit 1
