#!/usr/bin/env python3
# An interactive solver that spins on the CPU for ever at its first
# (check-sat); echoes the session's sentinels before it. For the CPU
# budget of sessions (tests/runner.rs).
import re, sys
for line in sys.stdin:
    if "(check-sat)" in line:
        while True:
            pass
    m = re.search(r'\(echo "([^"]*)"\)', line)
    if m:
        print(m.group(1), flush=True)
