#!/bin/sh
# A Stop hook that sends Claude back once, and lets it stop when stop_hook_active is true.
if grep -q '"stop_hook_active":true'; then
    exit 0
fi
echo '{"decision": "block", "reason": "run the tests before stopping"}'
