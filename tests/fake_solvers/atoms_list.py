#!/usr/bin/env python3
# Says sat, then prints one list of 4 million atoms: (x x x ... )
import sys
sys.stdout.write("sat\n(" + "x " * (4 << 20) + ")\n")
