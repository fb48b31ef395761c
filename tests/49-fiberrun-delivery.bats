#!/usr/bin/env bats
# fiberrun --pool --joblog --resume: delivery guarantees across master
# SIGKILLs: every record exactly once in the joblog and the output, every
# task run at least once, and re-runs within the documented bound
# (workers x prefetch per kill, fiberrun(1) DELIVERY).

load helpers

@test "--resume: 6 SIGKILLs of the master; records exactly once, re-executions within 6 x workers x prefetch" {
	n=4 prefetch=2 kills=6 tasks=400
	# Each execution leaves a side effect: its id appended to "effects".
	cat > w.sh <<'SH'
while IFS= read -r t; do
	echo "$t" >> effects
	sleep 0.01
	echo "$t"
done
SH
	seq "$tasks" > tasks
	: > log
	for ((k = 1; k <= kills; k++)); do
		fiberrun --pool --protocol lines --lines -q -n "$n" --prefetch "$prefetch" -j log --resume \
			-- sh w.sh < tasks > "out.$k" 2> /dev/null &
		pid=$!
		wait_lines log $((k * 40))
		kill -KILL "$pid"
		wait "$pid" || true
	done
	run --separate-stderr fiberrun --pool --protocol lines --lines -q -n "$n" --prefetch "$prefetch" -j log --resume -- sh w.sh < tasks
	assert_success
	printf '%s\n' "$output" > out
	python3 - "$tasks" $((kills * n * prefetch)) <<'PY'
import collections, json, sys
tasks, bound = int(sys.argv[1]), int(sys.argv[2])
log = [json.loads(l) for l in open("log")]
out = [json.loads(l) for l in open("out")]
want = list(range(1, tasks + 1))
assert sorted(r["id"] for r in log) == want, "joblog: not every task exactly once"
assert sorted(r["id"] for r in out) == want, "output: not every task exactly once"
assert all(r["status"] == "ok" for r in out)
runs = collections.Counter(int(l) for l in open("effects"))
assert sorted(runs) == want, "a task never ran"
extra = sum(runs.values()) - tasks
print("re-executions: %d (bound %d)" % (extra, bound), file=sys.stderr)
assert extra <= bound, "%d re-executions, more than the bound %d" % (extra, bound)
PY
}
