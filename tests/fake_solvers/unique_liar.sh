#!/bin/sh
# Answers the first question honestly (it runs z3), but claims there is no
# other solution when asked for a different one.
for a in "$@"; do f="$a"; done
if grep -q 'a different solution' "$f"; then echo unsat; else exec z3 -smt2 "$f"; fi
