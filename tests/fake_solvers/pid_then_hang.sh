#!/bin/sh
# A "z3" that never answers: it appends its process id to the file named by
# $SMTGRID_TEST_PIDS and becomes `sleep` (the same process), for the tests
# of what happens to solvers when smtgrid gets a signal.
[ "$1" = "--version" ] && { echo "Z3 version 4.8.12 - 64 bit"; exit 0; }
echo $$ >> "$SMTGRID_TEST_PIDS"
exec sleep 1000
