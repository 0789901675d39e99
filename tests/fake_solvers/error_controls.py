#!/usr/bin/env python3
# A "z3" that answers every check-sat with an error whose text holds an
# OSC sequence (set the terminal's title), one-shot or in a session,
# echoing sentinels properly: none of it may reach a terminal raw.
import re, sys
if '--version' in sys.argv:
    print("Z3 version 4.8.12 - 64 bit"); sys.exit(0)
out = sys.stdout
src = sys.stdin if '-in' in sys.argv else open(sys.argv[-1])
for line in src:
    for cmd in re.findall(r'\((check-sat|echo "([^"]*)")', line):
        if cmd[0] == 'check-sat':
            out.write('(error "\033]0;PWNED\007bad")\n')
        else:
            out.write(cmd[1] + "\n")
    out.flush()
