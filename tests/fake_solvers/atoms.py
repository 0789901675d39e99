#!/usr/bin/env python3
# Says sat, then prints 64 MB of one-letter atoms (x x x ...) and exits.
# Written in chunks, so that this process itself stays small.
import sys
sys.stdout.write("sat\n")
chunk = "x " * (1 << 15)
for _ in range(1 << 10):
    sys.stdout.write(chunk)
