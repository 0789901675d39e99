#!/usr/bin/env python3
# An interactive "z3" that answers every (check-sat)(get-model) with the
# same valid 4x4 grid (s4.model), even after a blocking clause; echoes the
# session's sentinels. Use as --solver z3=PATH.
import os, re, sys
if "--version" in sys.argv:
    print("Z3 version 9.9.9")
    sys.exit(0)
status, model = open(os.path.join(os.path.dirname(__file__), "s4.model")).read().split("\n", 1)
for line in sys.stdin:
    if "(check-sat)" in line:
        print(status, flush=True)
    if "(get-model)" in line:
        sys.stdout.write(model)
        sys.stdout.flush()
    m = re.search(r'\(echo "([^"]*)"\)', line)
    if m:
        print(m.group(1), flush=True)
