#!/usr/bin/env python3
# An interactive "z3": prints 70 MB without a newline, then waits.
# Written in chunks, so that this process itself stays small.
import sys, time
if "--version" in sys.argv:
    print("Z3 version 9.9.9")
    sys.exit(0)
chunk = "(" * (1 << 20)
for _ in range(70):
    sys.stdout.write(chunk)
sys.stdout.flush()
time.sleep(1000)
