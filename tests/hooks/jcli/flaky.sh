#!/bin/sh
# Fail (exit 1) the first $2 runs, counted in the file $1; afterwards print $3.
cat > /dev/null
runs=$(cat "$1" 2>/dev/null || echo 0)
echo $((runs + 1)) > "$1"
if [ "$runs" -lt "$2" ]; then
  echo "failing run $((runs + 1))" >&2
  exit 1
fi
printf '%s' "$3"
