#!/bin/sh
# Run a command and, while it runs, print a line every 8 seconds: pip prints nothing while it
# unpacks and installs large wheels (torch, ray), and a set-up step should never look hung.
# The command's exit status is this script's.
"$@" &
pid=$!
n=0
while kill -0 "$pid" 2>/dev/null; do
    sleep 1
    n=$((n + 1))
    if [ $((n % 8)) -eq 0 ] && kill -0 "$pid" 2>/dev/null; then
        echo "  ... still running after ${n} s: $1 $2 $3"
    fi
done
wait "$pid"
