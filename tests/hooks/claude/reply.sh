#!/bin/sh
# reply.sh CODE [STDOUT [STDERR]]: read the event from stdin, print STDOUT and STDERR, exit CODE.
# With CLAUDE_HOOK_RECORD set, the event is appended to that file as one line.
if [ -n "$CLAUDE_HOOK_RECORD" ]; then
    sed -e '$a\' >> "$CLAUDE_HOOK_RECORD"  # one line, whether or not stdin ends with a newline
else
    cat > /dev/null
fi
if [ -n "$2" ]; then printf '%s\n' "$2"; fi
if [ -n "$3" ]; then printf '%s\n' "$3" >&2; fi
exit "$1"
