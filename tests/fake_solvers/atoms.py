#!/usr/bin/env python3
# Says sat, then prints 64 MB of one-letter atoms (x x x ...) and exits.
import sys
sys.stdout.write("sat\n" + "x " * (32 << 20))
