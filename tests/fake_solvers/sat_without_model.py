#!/usr/bin/env python3
# A "z3" that answers `sat` to every check-sat and an error to every
# get-model and get-value, echoing sentinels properly (the fake solver of
# the adversarial pass's defect 11, rewritten here).
import re, sys
if '--version' in sys.argv:
    print("Z3 version 4.8.12 - 64 bit"); sys.exit(0)
out = sys.stdout
src = sys.stdin if '-in' in sys.argv else open(sys.argv[-1])
for line in src:
    for cmd in re.findall(r'\((check-sat|get-model|get-value|echo "([^"]*)")', line):
        if cmd[0] == 'check-sat':
            out.write("sat\n")
        elif cmd[0].startswith('get-'):
            out.write('(error "line 1: model is not available")\n')
        elif cmd[0].startswith('echo'):
            out.write(cmd[1] + "\n")
    out.flush()
