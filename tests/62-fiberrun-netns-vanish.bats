#!/usr/bin/env bats
# fiberrun --pool when a host vanishes mid-run (its link down, its
# processes stopped, its sshd killed) and when the master's own link is cut
# for 2 s: hosts are network namespaces (tests/netns.bash), the cut is made
# by a relay of the test's (tests/fixtures/relay.py).  The runs use a short
# --heartbeat and the tests check what happens, never how long it took.
# Skipped, saying why, without root or iproute2.

load helpers
load netns

# The tests share the hosts and take them down: one at a time.
BATS_NO_PARALLELIZE_WITHIN_FILE=true

setup_file() {
	netns_file_setup 4
}

teardown_file() {
	netns_down
}

setup() {
	netns_test_setup
}

teardown() {
	# Whatever a test took down comes back for the next one.
	[ -n "${NETNS_PREFIX:-}" ] || return 0
	netns_link h2 up 2> /dev/null
	netns_thaw h2 2> /dev/null
	[ -n "${RUN_PID:-}" ] && kill "$RUN_PID" 2> /dev/null
	[ -n "${RELAY_PID:-}" ] && kill "$RELAY_PID" 2> /dev/null
	if ! netns_ssh_ready 2; then
		netns_kill_sshd h2
		netns_sshd_start 2
		wait_for netns_ssh_ready 2
	fi
	return 0
}

# Workers answer nothing before all four hosts are up.  The first task to
# reach h2 is held there (until "release"); every other waits for "go".
# So the tasks of h1, h3 and h4 run for the whole time h2 is away: longer
# than the heartbeat's bound, and they must not be taken for lost.
VANISH_WORKER='touch "up.$FIBERRUN_HOST"
while read -r n; do
	i=0
	while [ "$(ls up.* 2> /dev/null | wc -l)" -lt 4 ] && [ $i -lt 600 ]; do sleep 0.05; i=$((i + 1)); done
	echo "$n $FIBERRUN_HOST" >> ran
	if [ "$FIBERRUN_HOST" = h2 ] && mkdir held.d 2> /dev/null; then
		echo "$n" > held
		while [ ! -e release ]; do sleep 0.05; done
	else
		while [ ! -e go ]; do sleep 0.05; done
	fi
	echo "$n"
done'

# vanish HOW: a run over the 4 hosts; once h2 holds a task, h2 vanishes
# (HOW: link, freeze or sshd); once the master has said h2's worker is
# lost, h2 comes back and its held task is released (its late answer must
# not count), then the others go on.
vanish() {
	seq 40 > tasks
	on h0 fiberrun --pool --lines --protocol lines -H "$NETNS/hosts" --ssh "$SSH" --bind "$MASTER:0" \
		--heartbeat 2 -j log -- sh -c "cd '$PWD' && $VANISH_WORKER" < tasks > out 2> err &
	RUN_PID=$!
	wait_file held
	case $1 in
	link) netns_link h2 down ;;
	freeze) netns_freeze h2 ;;
	sshd) netns_kill_sshd h2 ;;
	esac
	wait_for grep -q ' on h2 lost' err || { cat err >&2; return 1; }
	case $1 in
	link) netns_link h2 up ;;
	freeze) netns_thaw h2 ;;
	sshd) netns_sshd_start 2 ;;
	esac
	touch release go
	status=0
	wait "$RUN_PID" || status=$?
	RUN_PID=
}

# Every task recorded once, ok, in the output and the joblog; the held task
# ran again (its second attempt) after its worker on h2 was lost, and no
# worker of another host was lost.
check_once() {
	[ "$status" -eq 0 ] || fail "fiberrun exited $status: $(cat err)"
	python3 - "$(cat held)" <<'PY' || fail "$(cat err)"
import json, sys
held = int(sys.argv[1])
for name in ("out", "log"):
    recs = [json.loads(l) for l in open(name)]
    ids = sorted(r["id"] for r in recs)
    assert ids == list(range(1, 41)), "%s: ids %s" % (name, ids)
    assert all(r["status"] == "ok" and r["result"] == str(r["id"]) for r in recs), name
    r = next(r for r in recs if r["id"] == held)
    assert r["attempts"] == 2, "%s: the held task: %s" % (name, r)
PY
	! grep -E ' on h[134] lost' err || fail "a worker of a host that stayed was lost"
}

@test "netns --heartbeat: a host whose link goes down is lost within the bound, its task runs elsewhere, recorded once" {
	vanish link
	check_once
	grep -q 'on h2 lost: not heard for 2 s (--heartbeat)' err || fail "$(cat err)"
}

@test "netns --heartbeat: a host whose processes are stopped (SIGSTOP) is lost; thawed, it counts nothing twice" {
	vanish freeze
	check_once
	grep -q 'on h2 lost: not heard for 2 s (--heartbeat)' err || fail "$(cat err)"
}

@test "netns --pool: a host whose sshd is killed loses its worker; the task runs elsewhere, recorded once" {
	vanish sshd
	check_once
}

# relayed N: the relay has relayed at least N connections.
relayed() {
	[ "$(grep -c '^conn' relay.log)" -ge "$1" ]
}

@test "netns --advertise: the master's link cut for 2 s by a relay: workers are replaced, nothing is lost" {
	on h0 python3 "$TOP/tests/fixtures/relay.py" "$MASTER:7000" 127.0.0.1:7001 relay.log 2 &
	wait_for grep -q ready relay.log
	RELAY_PID=$(awk '/^ready/ {print $2}' relay.log)
	seq 60 > tasks
	# Tasks 1-8 answer at once, the others once the cut is over.
	on h0 fiberrun --pool --lines --protocol lines -H "$NETNS/hosts" --ssh "$SSH" \
		--bind 127.0.0.1:7001 --advertise "$MASTER:7000" -j log -- sh -c "cd '$PWD' && "'
		while read -r n; do
			echo "$n" >> ran
			[ "$n" -le 8 ] || while [ ! -e go ]; do sleep 0.05; done
			echo "$n"
		done' < tasks > out 2> err &
	RUN_PID=$!
	# When the cut comes, the 4 workers are connected through the relay
	# and tasks past 8 are in flight: one read, the others in the workers'
	# windows (a worker may hold many, another none, so not one each).
	wait_lines log 8
	wait_lines ran 9
	wait_for relayed 4
	kill -USR1 "$RELAY_PID"
	wait_for grep -q restored relay.log
	touch go
	status=0
	wait "$RUN_PID" || status=$?
	RUN_PID=
	[ "$status" -eq 0 ] || fail "fiberrun exited $status: $(cat err)"
	grep -q 'lost: connection closed' err || fail "no worker was cut: $(cat err)"
	python3 - <<'PY' || fail "$(cat err)"
import json
for name in ("out", "log"):
    recs = [json.loads(l) for l in open(name)]
    assert sorted(r["id"] for r in recs) == list(range(1, 61)), name
    assert all(r["status"] == "ok" and r["result"] == str(r["id"]) for r in recs), name
    assert any(r["attempts"] == 2 for r in recs), "no task was in flight at the cut"
PY
}
