#!/bin/sh
# Writes about 50 MB to stderr before answering: an unread pipe would block it.
echo "$$ - $2" > "$1"
head -c 50000000 /dev/zero | tr '\000' 'e' >&2
echo sat
