#!/usr/bin/env bats
# fiberrun --pool --heartbeat on one machine: a worker whose agent is
# stopped (as on a frozen host) is lost and its task run again, while a
# worker busy with a long task is not; --heartbeat 0 waits for ever.  The
# tests use short bounds and check what happens, never how long it took.
# (Hosts that really vanish: tests/62-fiberrun-netns-vanish.bats.)

load helpers

setup() {
	cd "$BATS_TEST_TMPDIR" || return 1
}

teardown() {
	local p
	for p in $(cat stopped 2> /dev/null); do
		kill -CONT "$p" 2> /dev/null
	done
	touch release go one/release one/go off/release off/go 2> /dev/null
	# shellcheck disable=SC2086
	[ -n "${RUN_PID:-}" ] && kill $RUN_PID 2> /dev/null
	return 0
}

stopped() {
	[ "$(sed 's/.*) \([A-Za-z]\).*/\1/' "/proc/$1/stat")" = T ]
}

# The first task is held (its worker and agent are then stopped by the
# test); every other task waits for "go".  "held" gets the held task's
# number, its shell's pid and its agent's.
WORKER='while read -r n; do
	echo "$n" >> ran
	if mkdir held.d 2> /dev/null; then
		echo "$n $$ $PPID" > held.tmp && mv held.tmp held
		while [ ! -e release ]; do sleep 0.05; done
	else
		while [ ! -e go ]; do sleep 0.05; done
	fi
	echo "$n"
done'

@test "--heartbeat: a worker whose agent is stopped is lost, its task run again and recorded once; a busy worker is not lost" {
	seq 6 | fiberrun --pool --lines --protocol lines -n 2 --heartbeat 1 -j log -- sh -c "$WORKER" > out 2> err &
	RUN_PID=$!
	wait_file held
	wait_lines ran 2	# the other worker is in a task too
	read -r held shell agent < held
	echo "$agent $shell" > stopped
	kill -STOP "$agent" "$shell"
	wait_for grep -q 'lost: not heard for 1 s (--heartbeat)' err || fail "$(cat err)"
	# The worker that waited for "go" all that time (longer than the bound) was not lost.
	[ "$(grep -c ' lost' err)" -eq 1 ] || fail "$(cat err)"
	kill -CONT "$agent" "$shell"
	touch release go
	status=0
	wait "$RUN_PID" || status=$?
	RUN_PID=
	[ "$status" -eq 0 ] || fail "exit $status: $(cat err)"
	python3 - "$held" <<'PY'
import json, sys
held = int(sys.argv[1])
for name in ("out", "log"):
    recs = [json.loads(l) for l in open(name)]
    assert sorted(r["id"] for r in recs) == list(range(1, 7)), name
    assert all(r["status"] == "ok" and r["result"] == str(r["id"]) for r in recs), name
    r = next(r for r in recs if r["id"] == held)
    assert r["attempts"] == 2, r
PY
}

@test "--heartbeat 0: no heartbeat: a stopped worker is not lost in the time another run's bound of 1 s notices one" {
	# Two runs, each with its first task held and that worker stopped: with
	# --heartbeat 1 (in one/) and with none (in off/).
	for d in one off; do
		mkdir $d
		b=1
		[ $d = one ] || b=0
		(cd $d && seq 4 | fiberrun --pool --lines --protocol lines -n 1 --heartbeat $b -- \
			sh -c "$WORKER" > out 2> err) &
		eval "pid_$d=\$!"
	done
	RUN_PID="$pid_one $pid_off"
	wait_file one/held
	wait_file off/held
	for d in one off; do
		read -r held shell agent < $d/held
		echo "$agent $shell" >> stopped
		kill -STOP "$agent" "$shell"
	done
	wait_for grep -q 'lost: not heard for 1 s' one/err || fail "$(cat one/err)"
	# More than the other's bound has passed: the run without heartbeat lost no one.
	! grep -q lost off/err || fail "$(cat off/err)"
	kill -CONT $(cat stopped)
	touch one/release one/go off/release off/go
	wait "$pid_one" && wait "$pid_off" || fail "$(cat one/err off/err)"
	RUN_PID=
	[ "$(wc -l < off/out)" -eq 4 ] && [ "$(wc -l < one/out)" -eq 4 ]
	! grep -q '"attempts":2' off/out
}

@test "--heartbeat, --advertise: bad values are usage errors; both need --pool" {
	run fiberrun --pool --heartbeat -1 -- cat
	assert_failure 2
	assert_output --partial "bad heartbeat '-1'"
	run fiberrun --pool --heartbeat soon -- cat
	assert_failure 2
	run fiberrun --pool --advertise 10.0.0.1 -- cat
	assert_failure 2
	assert_output --partial "bad address '10.0.0.1': want HOST:PORT"
	run fiberrun --heartbeat 5 -- true
	assert_failure 2
	assert_output --partial "task options need --pool"
	run fiberrun --advertise 10.0.0.1:5 -- true
	assert_failure 2
	assert_output --partial "task options need --pool"
}

@test "--advertise: workers connect to that address (a relay), not the one bound" {
	read -r front back < <(python3 -c '
import socket
a, b = socket.socket(), socket.socket()
a.bind(("127.0.0.1", 0)); b.bind(("127.0.0.1", 0))
print(a.getsockname()[1], b.getsockname()[1])')
	python3 "$TOP/tests/fixtures/relay.py" "127.0.0.1:$front" "127.0.0.1:$back" relay.log &
	relay=$!
	wait_for grep -q ready relay.log
	# Each worker answers once both have started, so both connected (through
	# the relay, which logs a connection before it carries a byte) before
	# the run can end: else one could take every task and the other's
	# connection still wait in the relay's backlog.
	run --separate-stderr bash -c "seq 3 | fiberrun --pool --lines --protocol lines -n 2 \
		--bind 127.0.0.1:$back --advertise 127.0.0.1:$front -- sh -c '
		touch up.\$FIBERRUN_WORKER
		while [ \$(ls up.* | wc -l) -lt 2 ]; do sleep 0.05; done
		exec cat'"
	kill "$relay"
	assert_success
	[ "$(grep -c '"status":"ok"' <<< "$output")" -eq 3 ]
	[ "$(grep -c '^conn' relay.log)" -eq 2 ] || fail "$(cat relay.log)"
}

@test "--heartbeat: agents whose master is stopped end after twice the bound, taking their task along; the master, continued, re-runs it" {
	seq 3 | fiberrun --pool --lines --protocol lines -n 1 --heartbeat 1 -j log -- sh -c "$WORKER" > out 2> err &
	RUN_PID=$!
	wait_file held
	read -r held shell agent < held
	echo "$RUN_PID" > stopped
	kill -STOP "$RUN_PID"
	# The agent notices the silence and ends its command: nobody else acts on them.
	wait_gone "$shell" "$agent"
	kill -CONT "$RUN_PID"
	touch release go
	status=0
	wait "$RUN_PID" || status=$?
	RUN_PID=
	[ "$status" -eq 0 ] || fail "exit $status: $(cat err)"
	grep -q 'master was not heard for 2 s' err || fail "$(cat err)"
	python3 - "$held" <<'PY'
import json, sys
held = int(sys.argv[1])
recs = [json.loads(l) for l in open("out")]
assert sorted(r["id"] for r in recs) == [1, 2, 3], recs
assert all(r["status"] == "ok" for r in recs), recs
assert next(r for r in recs if r["id"] == held)["attempts"] == 2
PY
}
