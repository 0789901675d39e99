#!/bin/sh
# Allocates (and touches) 16 MiB more every 10 ms, without end, and starts
# a child that sleeps: only a memory limit stops it before the time limit,
# and the child must go with it.
sleep 1000 &
echo "$$ $! $2" > "$1"
exec python3 -c '
import time
hoard = []
while True:
    hoard.append(b"\x01" * (16 << 20))
    time.sleep(0.01)
'
