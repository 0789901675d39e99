#!/bin/sh
# Appends a line to LOG for each run, waits 50 ms, then gives the valid 4x4
# grid of s4.model. Usage: sh counted.sh LOG SCRIPT
echo run >> "$1"
sleep 0.05
cat "$(dirname "$0")/s4.model"
