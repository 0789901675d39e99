#!/usr/bin/env python3
# An interactive "z3": says sat, and answers every question for values
# with one word of 50 MB on a line of its own, then the echoed sentinel.
# Written in chunks, so that this process itself stays small.
import re, sys
if "--version" in sys.argv:
    print("Z3 version 9.9.9")
    sys.exit(0)
chunk = "x" * (1 << 20)
for line in sys.stdin:
    echo = re.search(r'\(echo "([^"]*)"\)', line)
    if echo:
        sys.stdout.write(echo.group(1) + "\n")
        sys.stdout.flush()
    elif line.startswith("(check-sat"):
        sys.stdout.write("sat\n")
    elif line.startswith("(get-value") or line.startswith("(get-model"):
        for _ in range(50):
            sys.stdout.write(chunk)
        sys.stdout.write("\n")
