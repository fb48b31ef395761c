#!/usr/bin/env bats
# fiberrun on Slurm: a real single-node cluster (munged, slurmctld, slurmd
# from Debian) started here with a generated slurm.conf in a temporary
# folder, and stopped at the end.  Skipped, saying why, when the daemons
# cannot start.

load helpers

# The tests share one cluster and count its jobs: one at a time.
BATS_NO_PARALLELIZE_WITHIN_FILE=true

free_port() {
	python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

setup_file() {
	export S="$BATS_FILE_TMPDIR/slurm"
	export SLURM_CONF="$S/slurm.conf"
	mkdir -p "$S/state" "$S/spool"
	for d in munged slurmctld slurmd; do
		command -v $d > /dev/null || command -v /usr/sbin/$d > /dev/null ||
			{ echo "missing $d" > "$S/skip"; return 0; }
	done
	head -c 1024 /dev/urandom > "$S/munge.key"
	chmod 600 "$S/munge.key"
	if ! munged -f -S "$S/munge.socket" --key-file="$S/munge.key" --log-file="$S/munged.log" \
		--pid-file="$S/munged.pid" --seed-file="$S/munged.seed" 2> "$S/munged.err"; then
		echo "munged cannot start: $(cat "$S/munged.err")" > "$S/skip"
		return 0
	fi
	p1=$(free_port)
	p2=$(free_port)
	host=$(hostname -s)
	slurm_conf_common "$S" > "$SLURM_CONF"
	cat >> "$SLURM_CONF" <<CONF
ClusterName=fiberrun-test
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$p1
SlurmdPort=$p2
SlurmdSpoolDir=$S/spool
SlurmctldPidFile=$S/slurmctld.pid
SlurmdPidFile=$S/slurmd.pid
SlurmctldLogFile=$S/slurmctld.log
SlurmdLogFile=$S/slurmd.log
NodeName=$host NodeAddr=127.0.0.1 CPUs=16 State=UNKNOWN
PartitionName=test Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
	slurmctld -i > "$S/slurmctld.out" 2>&1 || { echo "slurmctld cannot start: $(tail -3 "$S/slurmctld.log")" > "$S/skip"; return 0; }
	slurmd > "$S/slurmd.out" 2>&1 || { echo "slurmd cannot start: $(tail -3 "$S/slurmd.log")" > "$S/skip"; return 0; }
	wait_for node_idle && return 0
	echo "the Slurm node did not come up: $(sinfo 2>&1 | tail -1)" > "$S/skip"
}

node_idle() {
	sinfo -h -o %t 2> /dev/null | grep -q idle
}

no_fiberrun_jobs() {
	[ -z "$(squeue -h -t R,PD -n fiberrun)" ]
}

teardown_file() {
	local f pids=
	scancel --quiet -u root 2> /dev/null
	for f in slurmd slurmctld munged; do
		[ -f "$S/$f.pid" ] && pids="$pids $(cat "$S/$f.pid")"
	done
	[ -n "$pids" ] && kill $pids 2> /dev/null
	# wait until they are gone, so that nothing is left running
	[ -z "$pids" ] || wait_gone $pids
	return 0
}

setup() {
	cd "$BATS_TEST_TMPDIR" || return 1
	[ ! -f "$S/skip" ] || skip "$(cat "$S/skip")"
	cat > worker.sh <<'SH'
while read -r n; do echo "$((n * n)) $SLURM_JOB_ID"; done
SH
}

@test "-b srun --pool: inside an allocation, one job step per worker" {
	run --separate-stderr salloc -Q -n 2 sh -c "seq 40 | fiberrun --pool --protocol lines --lines -k -b srun -n 2 -- sh worker.sh"
	assert_success
	[ "${#lines[@]}" -eq 40 ]
	echo "$output" | python3 -c '
import json, sys
jobs = set()
for line in sys.stdin:
    r = json.loads(line)
    sq, job = r["result"].split()
    assert r["status"] == "ok" and int(sq) == r["id"] ** 2, r
    jobs.add(job)
assert len(jobs) == 1 and jobs != {""}, jobs
'
}

@test "-b srun: SPMD ranks as job steps of the allocation" {
	run --separate-stderr salloc -Q -n 2 fiberrun -b srun -n 3 -t -- sh -c 'echo "$FIBERRUN_RANK/$FIBERRUN_SIZE ${SLURM_JOB_ID:+in-job}"'
	assert_success
	assert_line "0: 0/3 in-job"
	assert_line "1: 1/3 in-job"
	assert_line "2: 2/3 in-job"
}

@test "-b sbatch --pool: one batch job per worker, cancelled at the end" {
	# The sleep is the work: both workers get tasks.
	cat > worker.sh <<'SH'
while read -r n; do sleep 0.1; echo "$((n * n)) $SLURM_JOB_ID"; done
SH
	run --separate-stderr bash -c "seq 30 | fiberrun --pool --protocol lines --lines -b sbatch -n 2 -- sh '$BATS_TEST_TMPDIR/worker.sh'"
	assert_success
	[ "${#lines[@]}" -eq 30 ]
	[ "$(echo "$output" | python3 -c 'import json,sys; print(len({json.loads(l)["result"].split()[1] for l in sys.stdin}))')" -eq 2 ]
	wait_for no_fiberrun_jobs
}

@test "-b sbatch: SPMD mode is refused" {
	run fiberrun -b sbatch -n 2 -- true
	assert_failure 2
	assert_output --partial "the sbatch backend starts pool workers only"
}

@test "rlkit.pool: Pool(backend=\"slurm\") runs its workers as job steps; --each too" {
	skip_unless_python multiprocessing
	cat > script.py <<'PY'
import os
import rlkit.pool as multiprocessing


def job(x):
    return (os.environ.get("SLURM_JOB_ID", ""), os.environ.get("SLURM_STEP_ID", ""), x * x)


if __name__ == "__main__":
    with multiprocessing.Pool(2, backend="slurm") as pool:
        out = pool.map(job, range(20), chunksize=1)
    assert [v for _, _, v in out] == [x * x for x in range(20)], out
    assert all(j for j, _, _ in out) and all(s for _, s, _ in out), out
    print("ok", len({j for j, _, _ in out}))
PY
	run --separate-stderr salloc -Q -n 2 env PYTHONPATH="$RLKIT_BUILD/share/rlkit/python" python3 script.py
	assert_success
	assert_output "ok 1"
	run --separate-stderr salloc -Q -n 2 sh -c "seq 6 | fiberrun --each --lines -k -b srun -n 2 -- sh -c 'echo \$((\$1 * 2)) \${SLURM_STEP_ID:+step}' sh {}"
	assert_success
	[ "$(echo "$output" | python3 -c 'import json,sys; print(" ".join(json.loads(l)["result"] for l in sys.stdin))')" = "2 step 4 step 6 step 8 step 10 step 12 step" ]
}

@test "--mem-limit in job steps: the agent in the step limits the commands; one over it fails 'out of memory', pool and --each" {
	run --separate-stderr salloc -Q -n 1 sh -c "printf '10\n600\n' | fiberrun --each --lines -k -b srun -n 1 --mem-limit 300M -- python3 -c 'import sys; print(len(bytearray(int(sys.argv[1]) << 20)))' {}"
	assert_failure 1
	assert_line --index 0 --regexp '"id":1,"status":"ok","result":"10485760"'
	assert_line --index 1 --regexp '"id":2,"status":"error",.*"error":"out of memory: the command (was killed by the kernel|raised MemoryError) at its --mem-limit of 314572800 bytes'
	run --separate-stderr salloc -Q -n 1 sh -c "echo 600 | fiberrun --pool --protocol lines --lines -b srun -n 1 -r 1 --mem-limit 300M -- python3 -c 'import sys
for l in sys.stdin: print(len(bytearray(int(l) << 20)), flush=True)'"
	assert_failure 1
	assert_output --regexp '"status":"failed",.*"error":"out of memory: the worker (was killed by the kernel|raised MemoryError) at its --mem-limit of 314572800 bytes'
}
