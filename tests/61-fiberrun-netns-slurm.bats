#!/usr/bin/env bats
# fiberrun on a Slurm cluster of several nodes that are really separate:
# slurmctld on h0, one slurmd on each of h1..h3, each host a network
# namespace (tests/netns.bash), munge shared.  Each node has one CPU, so
# that three one-task jobs or steps land on three nodes.  Skipped, saying
# why, without root, iproute2 or the Slurm daemons.

load helpers
load netns

# The tests share one cluster: one at a time.
BATS_NO_PARALLELIZE_WITHIN_FILE=true

setup_file() {
	local why ret=0
	why=$(netns_skip_reason)
	if [ -n "$why" ]; then
		echo "$why" > "$BATS_FILE_TMPDIR/skip"
		return 0
	fi
	netns_up 3 || return 1
	netns_slurm_up > "$BATS_FILE_TMPDIR/why" || ret=$?
	why=$(cat "$BATS_FILE_TMPDIR/why")
	case $ret in
	0) ;;
	2) echo "$why" > "$BATS_FILE_TMPDIR/skip" ;;
	*) echo "$why" >&2; return 1 ;;
	esac
}

teardown_file() {
	netns_down
	netns_slurm_down
}

setup() {
	cd "$BATS_TEST_TMPDIR" || return 1
	[ ! -f "$BATS_FILE_TMPDIR/skip" ] || skip "$(cat "$BATS_FILE_TMPDIR/skip")"
	MASTER=$(netns_addr 0)
}

no_jobs() {
	[ -z "$(on h0 squeue -h -t R,PD,CG)" ]
}

# A pool worker that says on which node it is up, and answers nothing
# before N workers are up: then every node has taken tasks.
barrier_worker() {
	cat > worker.sh <<SH
cd '$PWD'
touch "up.\$SLURMD_NODENAME"
while read -r n; do
	i=0
	while [ "\$(ls up.* | wc -l)" -lt $1 ] && [ \$i -lt 600 ]; do sleep 0.05; i=\$((i + 1)); done
	echo "\$n" >> ran
	sleep 0.05
	echo "\$n \$SLURMD_NODENAME"
done
SH
}

# Every id from 1 to N once, status ok, the result its own id; prints the
# nodes that ran tasks.
check_records() {
	python3 -c '
import json, sys
n = int(sys.argv[1])
recs = [json.loads(l) for l in sys.stdin]
assert sorted(r["id"] for r in recs) == list(range(1, n + 1)), "ids"
nodes = set()
for r in recs:
    i, node = r["result"].split()
    assert r["status"] == "ok" and int(i) == r["id"], r
    nodes.add(node)
print(" ".join(sorted(nodes)))' "$1"
}

@test "netns slurm: srun SPMD ranks of a 3-node allocation run on 3 nodes" {
	run --separate-stderr on h0 salloc -Q -N 3 -n 3 fiberrun -b srun -n 3 -t -- \
		sh -c 'echo "$FIBERRUN_RANK/$FIBERRUN_SIZE $SLURMD_NODENAME $(ip -o -4 addr show dev eth0 | awk "{print \$4}")"'
	assert_success
	for i in 1 2 3; do
		assert_line --regexp "^[0-2]: [0-2]/3 h$i $(netns_addr "$i")/24\$"
	done
	wait_for no_jobs
}

@test "netns slurm: srun pool workers on 3 nodes reach the master at its --bind address" {
	barrier_worker 3
	seq 60 > tasks
	run --separate-stderr on h0 salloc -Q -N 3 -n 3 fiberrun --pool --lines --protocol lines -b srun -n 3 \
		--bind "$MASTER:0" -- sh "$PWD/worker.sh" < tasks
	assert_success
	run check_records 60 <<< "$output"
	assert_success
	assert_output "h1 h2 h3"
	wait_for no_jobs
}

# The master's output so far has at least N records.
records_at_least() {
	[ -f out ] && [ "$(wc -l < out)" -ge "$1" ]
}

@test "netns slurm: sbatch pool goes on when a node is drained and its worker's job ends" {
	barrier_worker 3
	seq 80 > tasks
	on h0 fiberrun --pool --lines --protocol lines -b sbatch -n 3 --bind "$MASTER:0" -j log \
		-- sh "$PWD/worker.sh" < tasks > out 2> err &
	master=$!
	wait_for records_at_least 10
	job=$(on h0 squeue -h -w h2 -n fiberrun -o %i)
	[ -n "$job" ] || fail "no worker job on h2: $(on h0 squeue)"
	on h0 scontrol update nodename=h2 state=drain reason=test
	on h0 scancel "$job"
	wait "$master" || fail "the master failed: $(cat err)"
	run check_records 80 < out
	assert_success
	[ "$(wc -l < log)" -eq 80 ]
	# Nothing was placed on the drained node afterwards, and nothing stays.
	run on h0 sinfo -h -n h2 -o %T
	assert_output --regexp '^drain'
	wait_for no_jobs
	on h0 scontrol update nodename=h2 state=resume
}
