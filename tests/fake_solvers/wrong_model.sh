#!/bin/sh
# Claims sat with a model that breaks the script's constraint (x < 5).
echo "$$ - $2" > "$1"
echo sat
echo '((define-fun x () Int 7))'
