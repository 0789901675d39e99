#!/bin/sh
# Answers every script with the same valid 4x4 grid (s4.model, Int cells
# x_R_C), even when asked for a different solution.
cat "$(dirname "$0")/s4.model"
