#!/bin/sh
# Never answers, and starts a child that never ends either: only killing the
# whole process group stops both.
sleep 1000 &
echo "$$ $! $2" > "$1"
wait
