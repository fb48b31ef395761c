#!/usr/bin/env bats
# fiberrun --pool: a slow task never stalls the others (no head-of-line
# blocking), and with -k the records that wait are bounded in memory.

load helpers

# A lines worker: the task "long" waits until the test writes to the fifo "gate".
slow_worker() {
	mkfifo gate
	cat > w.sh <<'SH'
while IFS= read -r l; do
	[ "$l" != long ] || read -r x < gate
	echo "$l"
done
SH
}

@test "--pool: one long task does not stop the input; 100,000 other tasks finish meanwhile" {
	slow_worker
	{ echo long; seq 100000; } | fiberrun --pool --protocol lines --lines -q -n 2 --prefetch 1 -- sh w.sh > out &
	pid=$!
	wait_lines out 100000
	grep -q '"result":"long"' out && fail "the long task finished before it was let go"
	echo go > gate
	wait "$pid"
	[ "$(wc -l < out)" -eq 100001 ]
	tail -n 1 out | grep -q '"id":1,"status":"ok","result":"long"'
}

@test "--keep-order --order-buffer: records waiting behind a long task go to disk, and come out in order" {
	slow_worker
	{ echo long; seq 20000; } | fiberrun --pool --protocol lines --lines -q -k --order-buffer 4096 -n 2 --prefetch 1 -- sh w.sh > out &
	pid=$!
	# The master holds an unlinked temporary file once the records pass 4 KiB.
	spilled() { ls -l /proc/"$pid"/fd 2>/dev/null | grep -q 'fiberrun-order.*(deleted)'; }
	wait_for spilled
	[ ! -s out ]
	echo go > gate
	wait "$pid"
	[ "$(wc -l < out)" -eq 20001 ]
	python3 -c '
import json, sys
recs = [json.loads(l) for l in open("out")]
assert [r["id"] for r in recs] == list(range(1, 20002))
assert recs[0]["result"] == "long" and all(r["result"] == str(r["id"] - 1) for r in recs[1:])
'
}
