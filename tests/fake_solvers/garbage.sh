#!/bin/sh
# Prints binary junk and unbalanced parentheses, then exits normally.
echo "$$ - $2" > "$1"
printf '\000\377\376junk ((( sat\n(define-fun x () Int\n\033[31m)))))\n'
