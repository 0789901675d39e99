#!/usr/bin/env python3
# An interactive "z3" that answers unsat to every check-sat, blames no
# assumption (an empty unsat core) and echoes the session's sentinels.
# Use as --solver z3=PATH.
import re, sys
if "--version" in sys.argv:
    print("Z3 version 9.9.9")
    sys.exit(0)
for line in sys.stdin:
    if "(check-sat" in line:
        print("unsat", flush=True)
    if "(get-unsat-assumptions)" in line or "(get-unsat-core)" in line:
        print("()", flush=True)
    m = re.search(r'\(echo "([^"]*)"\)', line)
    if m:
        print(m.group(1), flush=True)
    if "(exit)" in line:
        break
