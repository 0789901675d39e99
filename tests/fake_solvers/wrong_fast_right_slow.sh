#!/bin/sh
# Gives the 4x4 grid of s4.model (Int cells x_R_C): after 1 s for a QF_LIA
# script, where it is right, and at once for any other, where those names
# mean nothing and the model is invalid.
for a in "$@"; do f="$a"; done
if grep -q 'set-logic QF_LIA' "$f"; then sleep 1; fi
cat "$(dirname "$0")/s4.model"
