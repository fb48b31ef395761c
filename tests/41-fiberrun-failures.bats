#!/usr/bin/env bats
# fiberrun --pool --protocol lines under failure: lost workers, retries, timeouts, workers
# killed at random, the joblog and --resume, signals, master death.

load helpers

SQUARE="$TOP/share/examples/square-worker.sh"

# The ids of JSON Lines records on stdin, one per line.
ids() {
	python3 -c 'import json,sys; [print(json.loads(l)["id"]) for l in sys.stdin]'
}

# Worker scripts that start with this line leave "PID PPID" in the file
# pids (their own and their agent's), so that the test acts on the
# processes it started, never on whatever else runs on the machine.
LOG_PIDS='echo "$$ $PPID" >> pids'

# live_victim COLUMN: set victim to a live process of this run from the
# file pids, its workers (column 1) or its agents (column 2).
live_victim() {
	local p
	for p in $(awk -v c="$1" '{ print $c }' pids 2> /dev/null | shuf); do
		alive "$p" && { victim=$p; return 0; }
	done
	return 1
}

# all_pids: every pid in the file pids, workers and agents.
all_pids() {
	tr ' ' '\n' < pids | sort -u
}

@test "--retries: a task that kills its worker fails after N attempts; the others succeed" {
	cat > worker.sh <<'SH'
while read -r n; do [ "$n" = 13 ] && exit 3; echo "$((n * n))"; done
SH
	run --separate-stderr bash -c "seq 40 | fiberrun --pool --protocol lines --lines -k -r 2 -n 3 -- sh worker.sh"
	assert_failure 1
	[ "${#lines[@]}" -eq 40 ]
	assert_line --index 12 --regexp '^\{"id":13,"status":"failed","result":null,"error":"worker exited with status 3","worker":[0-9],"host":"[^"]+","attempts":2,'
	[ "$(grep -c '"status":"ok"' <<< "$output")" -eq 39 ]
	[[ $stderr == *"lost: worker exited with status 3"* ]]
}

@test "--retries 1: no second attempt" {
	cat > worker.sh <<'SH'
while read -r n; do [ "$n" = 2 ] && kill -9 $$; echo "$n"; done
SH
	run --separate-stderr bash -c "seq 5 | fiberrun --pool --protocol lines --lines -k -r 1 -n 2 -- sh worker.sh"
	assert_failure 1
	assert_line --index 1 --regexp '"id":2,"status":"failed",.*"error":"worker exited with status 137",.*"attempts":1,'
}

@test "--timeout: a task that hangs is reported as timeout, its worker replaced" {
	# Task 3 hangs (a long sleep, in the worker's process group); the file
	# hung gets the pid of each such sleep.
	cat > worker.sh <<'SH'
while read -r n; do [ "$n" = 3 ] && { sleep 60 & echo $! >> hung; wait $!; }; echo "$n"; done
SH
	run --separate-stderr bash -c "seq 8 | fiberrun --pool --protocol lines --lines -k -T 0.5 -r 2 -n 2 -- sh worker.sh"
	assert_failure 1
	[ "${#lines[@]}" -eq 8 ]
	assert_line --index 2 --regexp '"id":3,"status":"timeout","result":null,"error":"timed out after 0.5 s",.*"attempts":2,'
	[ "$(grep -c '"status":"ok"' <<< "$output")" -eq 7 ]
	[ "$(wc -l < hung)" -eq 2 ]
	wait_gone $(cat hung)
}

@test "--pool: workers that cannot start are given up; their tasks fail, none is lost" {
	run --separate-stderr bash -c "seq 10 | fiberrun --pool --protocol lines --lines -n 2 -- false"
	assert_failure 1
	[ "$(echo "$output" | ids | sort -n)" = "$(seq 10)" ]
	[ "$(grep -c '"status":"failed"' <<< "$output")" -eq 10 ]
	[[ $stderr == *"given up after 5 failures in a row"* ]]
}

@test "--pool: 10,000 tasks while workers are killed at random: every id exactly once" {
	cat > worker.sh <<SH
$LOG_PIDS
while read -r n; do echo "\$((n * n))"; done
SH
	seq 10000 > tasks
	# The tasks arrive through a FIFO in 20 parts; between parts, with the
	# input still open (so the run cannot have ended), one live process of
	# this run is killed: alternately a worker command and an agent.
	mkfifo input
	fiberrun --pool --protocol lines --lines -r 1000 -n 6 -- sh worker.sh < input > out.jsonl 2> err.txt &
	master=$!
	exec 7> input
	killed=0
	for part in $(seq 0 19); do
		sed -n "$((part * 500 + 1)),$((part * 500 + 500))p" tasks >&7
		wait_for live_victim $((part % 2 + 1))
		kill -9 "$victim" 2> /dev/null && killed=$((killed + 1))
	done
	exec 7>&-
	wait $master
	[ "$(wc -l < out.jsonl)" -eq 10000 ]
	[ "$(ids < out.jsonl | sort -n)" = "$(cat tasks)" ]
	[ "$(grep -c '"status":"ok"' out.jsonl)" -eq 10000 ]
	python3 -c '
import json, sys
for line in open("out.jsonl"):
    r = json.loads(line)
    assert r["result"] == str(r["id"] ** 2), r
'
	[ "$killed" -gt 0 ]
	grep -q lost err.txt
}

@test "--joblog: records are journalled; a non-empty journal is refused without --resume" {
	run --separate-stderr bash -c "seq 5 | fiberrun --pool --protocol lines --lines -n 2 -j log.jsonl -- sh '$SQUARE'"
	assert_success
	[ "$(sort log.jsonl)" = "$(echo "$output" | sort)" ]
	cp log.jsonl before
	run --separate-stderr bash -c "seq 5 | fiberrun --pool --protocol lines --lines -n 2 -j log.jsonl -- sh '$SQUARE'"
	assert_failure 1
	[[ $stderr == *"joblog 'log.jsonl' is not empty: add --resume to continue that run"* ]]
	cmp log.jsonl before
}

@test "--resume: a master killed mid-run restarts with nothing lost and nothing run twice" {
	# The sleep is the work: tasks that take a little time.
	cat > worker.sh <<SH
$LOG_PIDS
while read -r n; do echo "\$n" >> ran.\$\$; sleep 0.005; echo "\$((n * n))"; done
SH
	seq 400 > tasks
	fiberrun --pool --protocol lines --lines -n 4 -j log.jsonl -- sh worker.sh < tasks > out1.jsonl 2> /dev/null &
	master=$!
	wait_lines log.jsonl 100
	kill -9 $master
	wait $master || true
	wait_gone $(all_pids)
	# a torn last record, as if the master died in the middle of a write
	printf '{"id":399,"stat' >> log.jsonl
	done1=$(head -c -15 log.jsonl | ids | sort -n)
	n1=$(echo "$done1" | wc -l)
	[ "$n1" -ge 100 ] && [ "$n1" -lt 400 ]
	cat ran.* | sort -n > ran1
	rm -f ran.*
	run --separate-stderr bash -c "fiberrun --pool --protocol lines --lines -n 4 -j log.jsonl --resume -- sh worker.sh < tasks"
	assert_success
	# the output of the resumed run is complete, each id once
	[ "$(echo "$output" | ids | sort -n)" = "$(cat tasks)" ]
	# the journal too, and its torn line is gone
	[ "$(ids < log.jsonl | sort -n)" = "$(cat tasks)" ]
	# tasks journalled by the first run did not run again
	[ -z "$(comm -12 <(echo "$done1" | sort) <(cat ran.* | sort))" ]
}

@test "--pool: SIGINT stops cleanly: exit 130, finished records journalled, no worker left" {
	# The sleep is the work: the run is still going when SIGINT comes.
	cat > worker.sh <<SH
$LOG_PIDS
while read -r n; do sleep 0.02; echo "\$n"; done
SH
	seq 100000 > tasks
	fiberrun --pool --protocol lines --lines -n 3 -j log.jsonl -- sh worker.sh < tasks > out.jsonl 2> err.txt &
	master=$!
	wait_file log.jsonl
	kill -INT $master
	rc=0
	wait $master || rc=$?
	[ "$rc" -eq 130 ]
	wait_gone $(all_pids)
	# The journal had records before SIGINT: the output has the same.
	[ "$(sort out.jsonl)" = "$(sort log.jsonl)" ]
}

# rx_waiting PID N: at least N of PID's TCP connections hold bytes it has
# not read (/proc/net/tcp's rx_queue, matched by the sockets' inodes).
rx_waiting() {
	local inodes
	inodes=" $(find /proc/"$1"/fd -lname 'socket:*' -printf '%l\n' 2> /dev/null | tr -dc '0-9\n' | tr '\n' ' ')"
	[ "$(awk -v inodes="$inodes" 'FNR > 1 && $4 == "01" && index(inodes, " " $10 " ") &&
		substr($5, index($5, ":") + 1) != "00000000" { n++ } END { print n + 0 }' \
		/proc/net/tcp /proc/net/tcp6 2> /dev/null)" -ge "$2" ]
}

stopped() {
	grep -q '^State:[[:space:]]*T' "/proc/$1/status"
}

@test "--pool: SIGINT read in the same batch of events as results it makes stale: exit 130" {
	# Each task past the 100th waits at a FIFO: the workers are idle, then
	# all answer at once while the master is stopped with SIGINT pending,
	# so that it reads the signal first and the results of workers it has
	# just closed after.
	mkfifo gate
	cat > worker.sh <<SH
$LOG_PIDS
while read -r n; do
	if [ "\$n" -gt 100 ]; then
		echo "\$\$" >> blocked
		read -r _ < gate
		echo "\$n"
		echo "\$\$" >> answered
	else
		echo "\$n"
	fi
done
SH
	seq 100000 > tasks
	fiberrun --pool --protocol lines --lines -n 8 -j log.jsonl -- sh worker.sh < tasks > out.jsonl 2> err.txt &
	master=$!
	wait_lines blocked 8
	kill -STOP $master
	wait_for stopped $master
	kill -INT $master
	# Open the gate once: each worker answers its task, and the master's
	# sockets hold the answers.
	exec 9> gate
	exec 9>&-
	wait_lines answered 8
	wait_for rx_waiting $master 8
	kill -CONT $master
	rc=0
	wait $master || rc=$?
	[ "$rc" -eq 130 ] || { echo "exit $rc"; cat err.txt; false; }
	wait_gone $(all_pids)
	[ "$(sort out.jsonl)" = "$(sort log.jsonl)" ]
}

@test "--pool: when the master is killed, every worker and agent exits" {
	# The sleep is the work: workers are busy when the master dies.
	cat > worker.sh <<SH
$LOG_PIDS
while read -r n; do sleep 0.05; echo "\$n"; done
SH
	seq 100000 | fiberrun --pool --protocol lines --lines -n 4 -- sh worker.sh > /dev/null 2>&1 &
	master=$!
	wait_lines pids 4
	kill -9 "$master"
	wait_gone $(all_pids)
}

@test "--resume --keep-order: the resumed output is in input order and complete" {
	seq 50 > tasks
	head -20 tasks | fiberrun --pool --protocol lines --lines -n 2 -j log.jsonl -- sh "$SQUARE" > /dev/null
	run --separate-stderr bash -c "fiberrun --pool --protocol lines --lines -k -n 2 -j log.jsonl --resume -- sh '$SQUARE' < tasks"
	assert_success
	[ "$(echo "$output" | ids | tr '\n' ' ')" = "$(seq 50 | tr '\n' ' ')" ]
	[ "$(wc -l < log.jsonl)" -eq 50 ]
}

@test "--hosts: a worker whose ssh fails is named by its host, and says ssh failed" {
	# Reads the environment fiberrun passes, then fails as ssh does.
	printf '#!/bin/sh\nwhile read -r l && [ -n "$l" ]; do :; done\necho "ssh: connect to host nodeA port 22: Connection refused" >&2\nexit 255\n' > fakessh
	chmod +x fakessh
	printf 'nodeA\n' > hosts
	run --separate-stderr bash -c "echo 1 | fiberrun --pool --protocol lines --lines -H hosts --ssh ./fakessh -n 1 -- cat"
	assert_failure
	[[ $stderr == *"worker 0 on nodeA lost: exited with status 255 before connecting (ssh failed: see its message)"* ]]
	[[ $stderr == *"worker 0 on nodeA given up"* ]]
}

@test "--pool | head: the reader going away stops the run quietly, exit 141 (SIGPIPE), no error" {
	run --separate-stderr bash -c 'seq 100000 | fiberrun --pool --protocol lines --lines -n 2 -- cat | head -n 1; echo "status ${PIPESTATUS[1]}" >&2'
	assert_success
	[ "${#lines[@]}" -eq 1 ]
	[[ $stderr == *"status 141" ]]
	[[ $stderr != *fiberrun* ]] || { echo "$stderr"; false; }
}

@test "-H: a file that is not a hosts file, or a folder, gets a reason that fits" {
	run --separate-stderr fiberrun -H /etc/passwd -- true
	assert_failure 1
	[[ $stderr == "fiberrun: error: '/etc/passwd': line "*": want host[:slots], one per line (is this a hosts file?)" ]]
	run --separate-stderr fiberrun -H "$BATS_TEST_TMPDIR" -- true
	assert_failure 1
	[ "$stderr" = "fiberrun: error: cannot read '$BATS_TEST_TMPDIR': Is a directory" ]
	printf '::1:2\n' > h6
	run --separate-stderr fiberrun -H h6 -- true
	[[ $stderr == *"write IPv6 addresses in brackets"* ]]
}

@test "--pool: reading a terminal says so at once; SIGTTIN cannot stop it out of reach of SIGTERM" {
	command -v script > /dev/null || skip "script (util-linux) is not installed"
	run bash -c "printf '5\n\004' | script -qec 'fiberrun --pool --protocol lines --lines -n 1 -- cat' /dev/null"
	[[ $output == *"fiberrun: note: reading tasks from the terminal, one per line; end with Ctrl-D"* ]]
	[[ $output == *'"id":1,"status":"ok","result":"5"'* ]]
	# Started in a background process group of the terminal, a plain
	# reader is stopped (SIGTTIN); fiberrun fails with one line instead.
	cat > bg.py <<'PY'
import os, subprocess, sys
p = subprocess.Popen(sys.argv[1:], process_group=0, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
_, st = os.waitpid(p.pid, os.WUNTRACED)
if os.WIFSTOPPED(st):
    print("stopped by signal", os.WSTOPSIG(st))
    os.kill(p.pid, 9)
    os.waitpid(p.pid, 0)
else:
    print("exited", os.waitstatus_to_exitcode(st))
    print(p.stderr.read().decode().strip())
PY
	run script -qec "python3 bg.py cat" /dev/null < /dev/null
	[[ $output == *"stopped by signal $(kill -l TTIN)"* ]] ||
		fail "a background reader of the terminal was not stopped: $output"
	run script -qec "python3 bg.py fiberrun --pool --protocol lines --lines -n 1 -- cat" /dev/null < /dev/null
	[[ $output == *"exited 1"* ]] || fail "fiberrun in the background: $output"
	[[ $output == *"fiberrun: error: cannot read '<stdin>': Input/output error"* ]]
}

@test "--pool: a worker that exits at once: one warning per worker and one when it is given up" {
	run --separate-stderr bash -c "seq 5 | fiberrun --pool --protocol lines --lines -n 3 -- false"
	assert_failure 1
	[ "$(grep -c 'lost: worker exited with status 1' <<< "$stderr")" -eq 3 ]
	[ "$(grep -c 'given up after 5 failures in a row (last: worker exited with status 1)' <<< "$stderr")" -eq 3 ]
	[ "$(wc -l <<< "$stderr")" -le 7 ]
}

@test "fiberrun-protocol(5): the handshake names the nonces, not the program" {
	run bash -c "groff -mandoc -Tascii '$TOP/man/man5/fiberrun-protocol.5' | col -b | tr -s ' \t\n' '   '"
	[[ $output == *"fiberrun-master' N_w N_m)"* ]]
	[[ $output == *"fiberrun-worker' N_m N_w token)"* ]]
}
