#!/bin/sh
# Appends the script's path to LOG, then never answers.
# Usage: sh hang_logged.sh LOG SCRIPT
echo "$2" >> "$1"
exec sleep 1000
