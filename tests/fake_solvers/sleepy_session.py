#!/usr/bin/env python3
# An interactive solver that answers every (check-sat) with `sat` after
# 0.6 s asleep, using next to no CPU time; echoes the session's sentinels.
# For the CPU budget of sessions (tests/runner.rs).
import re, sys, time
for line in sys.stdin:
    if "(check-sat)" in line:
        time.sleep(0.6)
        print("sat", flush=True)
    m = re.search(r'\(echo "([^"]*)"\)', line)
    if m:
        print(m.group(1), flush=True)
