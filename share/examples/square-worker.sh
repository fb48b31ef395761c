#!/bin/sh
# A fiberrun pool worker in shell: one number per task line, its square
# per result line.  A line that is not a number gets an error result
# ("!" then the message), which fiberrun reports with status "error".
#
#   seq 10 | fiberrun --pool --protocol lines --lines -n 4 -- sh square-worker.sh
#
# It speaks the lines protocol (fiberrun-protocol(5)): a line it prints
# that is not an answer would be taken as the next task's result.
while IFS= read -r n; do
	case $n in
	'' | *[!0-9-]*) echo "!not a number: $n" ;;
	*) echo $((n * n)) ;;
	esac
done
