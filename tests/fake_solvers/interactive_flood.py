#!/usr/bin/env python3
# An interactive "z3" (run as --solver z3=PATH): answers --version, then
# floods stdout with "(" and never a newline, never echoing the sentinel.
import sys
if "--version" in sys.argv:
    print("Z3 version 9.9.9")
    sys.exit(0)
chunk = "(" * 65536
while True:
    sys.stdout.write(chunk)
