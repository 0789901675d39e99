#!/bin/sh
# Answers and exits, leaving a child running that holds stdout open.
sleep 1000 &
echo "$$ $! $2" > "$1"
echo sat
