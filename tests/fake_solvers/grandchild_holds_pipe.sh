#!/bin/sh
# Prints a complete answer and exits, while a grandchild in a session of
# its own keeps stdout open.
setsid sleep 1003 &
echo "$$ $! $2" > "$1"
echo sat
echo '((define-fun x () Int 3))'
