#!/bin/sh
# The first run (LOG not there yet) gives the valid 4x4 grid of s4.model at
# once; every later run appends `PID SCRIPT` to LOG and never answers.
# Usage: sh first_then_hang.sh LOG SCRIPT
if [ -e "$1" ]; then
    echo "$$ $2" >> "$1"
    exec sleep 1000
fi
echo first > "$1"
cat "$(dirname "$0")/s4.model"
