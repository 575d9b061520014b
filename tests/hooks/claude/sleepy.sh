#!/bin/sh
# sleepy.sh PIDFILE: start a child that would outlive us, note its pid, then hang.
cat > /dev/null
sleep 30 &
echo $! > "$1"
sleep 30
