#!/bin/sh
# Says unsat after 0.3 s, whatever the script.
sleep 0.3; echo unsat
