#!/bin/sh
# Dies of a segmentation fault after a word on stderr.
echo "$$ - $2" > "$1"
echo "Segmentation fault in the fake solver" >&2
kill -SEGV $$
