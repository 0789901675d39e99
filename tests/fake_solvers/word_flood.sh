#!/bin/sh
# A "z3" that tells its version, then floods stdout with one word that
# never ends: no newline, no space, no parenthesis.
[ "$1" = --version ] && { echo 'Z3 version 9.9.9'; exit 0; }
yes x | tr -d '\n'
