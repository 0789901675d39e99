#!/bin/sh
# A solver that hangs on every call, --version too. Appends its pid to the
# file named by $FAKE_PIDFILE.
echo "$$" >> "$FAKE_PIDFILE"
exec sleep 100000
