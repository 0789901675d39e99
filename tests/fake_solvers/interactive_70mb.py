#!/usr/bin/env python3
# An interactive "z3": prints 70 MB without a newline, then waits.
import sys, time
if "--version" in sys.argv:
    print("Z3 version 9.9.9")
    sys.exit(0)
sys.stdout.write("(" * (70 << 20))
sys.stdout.flush()
time.sleep(1000)
