#!/bin/sh
# Read the context, start a child that sleeps $1 s (its pid goes to $2), print $3, wait for it.
cat > /dev/null
sleep "$1" &
echo $! > "$2"
printf '%s' "$3"
wait
