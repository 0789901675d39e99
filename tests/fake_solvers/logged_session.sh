#!/bin/sh
# `logged_session.sh LOG PROGRAM ARGS…`: appends its process id to LOG, then
# becomes PROGRAM ARGS… (the same process), so that a test can count the
# sessions a run started and check that each is gone.
log=$1
shift
echo $$ >> "$log"
exec "$@"
