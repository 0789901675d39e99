#!/bin/sh
# Burns CPU in a child it waits for, then answers: the run's CPU time must
# include the child's.
echo "$$ - $2" > "$1"
sh -c 'i=0; while [ $i -lt 300000 ]; do i=$((i+1)); done'
echo sat
echo '((x 3))'
