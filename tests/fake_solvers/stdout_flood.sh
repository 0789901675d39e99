#!/bin/sh
# Says sat, then floods stdout with a model entry that never ends.
echo "$$ - $2" > "$1"
echo sat
exec yes '(define-fun x_1_1 () Int 4)'
