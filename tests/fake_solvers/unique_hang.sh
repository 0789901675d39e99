#!/bin/sh
# Answers the first question with the valid 4x4 grid of s4.model, and never
# answers when asked for a different solution.
for a in "$@"; do f="$a"; done
if grep -q 'a different solution' "$f"; then exec sleep 1000; else cat "$(dirname "$0")/s4.model"; fi
