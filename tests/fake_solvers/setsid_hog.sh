#!/bin/sh
# Starts a child in a session (and process group) of its own that
# allocates (and touches) 16 MiB more every 10 ms, without end, and waits
# for it: the memory limit counts every descendant, not only the solver's
# group, so only it stops the run before the time limit.
setsid python3 -c '
import time
hoard = []
while True:
    hoard.append(b"\x01" * (16 << 20))
    time.sleep(0.01)
' </dev/null >/dev/null 2>&1 &
echo "$$ $! $2" > "$1"
wait
