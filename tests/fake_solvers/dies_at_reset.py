#!/usr/bin/env python3
# `dies_at_reset.py LOG Z3 ARGS…`: a z3 session that dies at its first
# `(reset)`. It appends its process id to LOG and hands every line to
# `Z3 ARGS…` (whose replies go straight to its own stdout), so it answers
# its first script exactly as z3 does; the next one finds it gone.
import os, subprocess, sys
log, command = sys.argv[1], sys.argv[2:]
with open(log, "a") as f:
    f.write(f"{os.getpid()}\n")
z3 = subprocess.Popen(command, stdin=subprocess.PIPE)
for line in sys.stdin:
    if line.strip() == "(reset)":
        z3.kill()
        sys.exit(3)
    z3.stdin.write(line.encode())
    z3.stdin.flush()
