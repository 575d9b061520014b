#!/bin/sh
# after.sh FILE CODE [STDOUT]: read the event, wait (at most 30 s) until FILE names a process
# that is gone and reaped, then print STDOUT and exit CODE: a hook that finishes after the one
# that wrote its pid to FILE (`echo $$ > FILE.new && mv FILE.new FILE; exec ...`).
cat > /dev/null
tries=0
while [ "$tries" -lt 3000 ]; do
    if [ -e "$1" ] && ! kill -0 "$(cat "$1")" 2>/dev/null; then break; fi
    sleep 0.01
    tries=$((tries + 1))
done
if [ -n "$3" ]; then printf '%s\n' "$3"; fi
exit "$2"
