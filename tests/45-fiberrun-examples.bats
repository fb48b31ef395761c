#!/usr/bin/env bats
# The examples in share/examples (workers in C, Python and shell; the
# evolution-strategies search on a C environment), the demo, and 1,024
# local workers in one run.

load helpers

EX="$TOP/share/examples"

@test "share/examples: the C, Python and shell workers answer every task" {
	run --separate-stderr bash -c "printf '0.001\n0.002\n' | fiberrun --pool --lines -k -n 2 -- '$RLKIT_BUILD/share/examples/sleep-worker'"
	assert_success
	assert_line --index 0 --regexp '"result":"\{\\"slept\\":0.001\}"'
	run --separate-stderr bash -c "printf '{\"x\":3}\n{\"y\":1}\n' | fiberrun --pool -k -n 2 -- python3 '$EX/worker.py'"
	assert_failure 1
	assert_line --index 0 --regexp '^\{"id":1,"status":"ok","result":\{"square":9\},'
	assert_line --index 1 --regexp '^\{"id":2,"status":"error","result":null,"error":"bad task: '
	run --separate-stderr bash -c "seq 3 | fiberrun --pool --protocol lines --lines -k -n 2 -- sh '$EX/square-worker.sh'"
	assert_success
	assert_line --index 2 --regexp '"id":3,"status":"ok","result":"9"'
}

@test "es.py: evolution strategies on cart-pole learn through a local pool" {
	run --separate-stderr python3 "$EX/es.py" --worker "$RLKIT_BUILD/share/examples/es-worker" \
		--fiberrun fiberrun --generations 20 -- -n 3
	assert_success
	assert_line --index 0 "generation,mean_fitness,max_fitness,tasks,seconds"
	[ "${#lines[@]}" -eq 21 ]
	first=$(echo "${lines[1]}" | cut -d, -f2)
	last=$(echo "${lines[20]}" | cut -d, -f2)
	python3 -c "import sys; f, l = $first, $last; sys.exit(0 if l > 100 and l > 3 * f else 1)" ||
		fail "mean fitness went from $first to $last"
}

@test "es-worker: only seeds cross the wire; a bad task gets an error result" {
	run --separate-stderr bash -c "printf '5 1 0\n5 1 0\nnonsense\n' | fiberrun --pool --protocol lines --lines -k -n 1 -- '$RLKIT_BUILD/share/examples/es-worker'"
	assert_failure 1
	# the same seed twice: the same fitness (workers rebuild the same noise)
	[ "$(echo "${lines[0]}" | grep -o '"result":"[0-9]*"')" = "$(echo "${lines[1]}" | grep -o '"result":"[0-9]*"')" ]
	assert_line --index 2 --regexp '"status":"error".*"error":"bad task'
}

@test "make demo-fiber: a small pool runs" {
	run rlkit_make demo-fiber
	assert_success
	assert_line --regexp '^\{"id":20,"status":"ok","result":"400",'
}

all_started() {
	[ "$(sort -u started | wc -l)" -ge 1024 ]
}

@test "-n 1024 --pool: 1,024 local workers complete a run without errors" {
	# Each worker notes its number when it starts; the input stays open
	# until all 1,024 have started, so every one of them is up at once.
	cat > worker.sh <<'SH'
echo "$FIBERRUN_WORKER" >> started
while read -r n; do echo $((n * n)); done
SH
	: > started
	{
		seq 4096
		WAIT_TRIES=3600 wait_for all_started
	} | fiberrun --pool --protocol lines --lines -n 1024 -- sh worker.sh > out 2> err
	[ ! -s err ] || fail "$(cat err)"
	[ "$(sort -u started | wc -l)" -eq 1024 ]
	[ "$(sort -n started | tail -1)" -eq 1023 ]
	[ "$(wc -l < out)" -eq 4096 ]
	python3 -c '
import json, sys
recs = [json.loads(l) for l in sys.stdin]
assert all(r["status"] == "ok" and r["attempts"] == 1 and r["result"] == str(r["id"] ** 2) for r in recs)
assert sorted(r["id"] for r in recs) == list(range(1, 4097))
' < out
}
