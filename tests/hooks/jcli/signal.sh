#!/bin/sh
# Read the context, then die by SIGKILL.
cat > /dev/null
kill -9 $$
