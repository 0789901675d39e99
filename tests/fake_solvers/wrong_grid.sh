#!/bin/sh
# Claims sat and gives every Int constant the script declares the value 1:
# a grid that breaks every row. Usage: sh wrong_grid.sh PIDFILE SCRIPT
echo "$$ - $2" > "$1"
echo sat
echo "("
grep -o '(declare-const [a-z0-9_]* Int)' "$2" | sed 's/(declare-const \([a-z0-9_]*\) Int)/  (define-fun \1 () Int 1)/'
echo ")"
