#!/bin/sh
# Answers and exits, leaving a grandchild in a session (and process group)
# of its own, which killing the solver's group does not reach.
setsid sleep 1002 </dev/null >/dev/null 2>&1 &
echo "$$ $! $2" > "$1"
echo sat
