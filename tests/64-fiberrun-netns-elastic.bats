#!/usr/bin/env bats
# fiberrun --pool with elastic hosts: while a run goes on, hosts are added
# to and removed from its hosts file (SIGHUP, or the file renamed over);
# hosts are network namespaces with their own sshd (tests/netns.bash).
# The tests wait for events (a task on a host, a note), never for time.
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
	[ -n "${NETNS_PREFIX:-}" ] || return 0
	[ -n "${RUN_PID:-}" ] && kill "$RUN_PID" 2> /dev/null
	if ! netns_ssh_ready 2; then
		netns_kill_sshd h2
		netns_sshd_start 2
		wait_for netns_ssh_ready 2
	fi
	return 0
}

# start_master INPUT ARGS...: fiberrun --pool over the hosts file "hosts" on
# the master's host h0, tasks from INPUT, its output in out and err;
# master_pid then sets RUN_PID, the fiberrun process itself (for SIGHUP);
# BG_PID is the job to wait for.
# With a FIFO for INPUT, open its writing end (fd 7) in between.
start_master() {
	local input=$1
	shift
	on h0 sh -c 'echo $$ > master.pid; exec "$@"' sh fiberrun --pool --lines --protocol lines \
		-H hosts --ssh "$SSH" --bind "$MASTER:0" -j log "$@" < "$input" > out 2> err &
	BG_PID=$!
}

master_pid() {
	wait_file master.pid
	RUN_PID=$(cat master.pid)
}

# Each task leaves "ID HOST WORKER" in ran.  The first task to reach h2 is
# held there until "release"; every other waits for "go".
HELD_WORKER='while read -r n; do
	echo "$n $FIBERRUN_HOST $FIBERRUN_WORKER" >> ran
	if [ "$FIBERRUN_HOST" = h2 ] && mkdir held.d 2> /dev/null; then
		echo "$n" > held
		while [ ! -e release ]; do sleep 0.05; done
	else
		while [ ! -e go ]; do sleep 0.05; done
	fi
	echo "$n"
done'

# check_once N: tasks 1..N each have exactly one record, ok, in out and in
# the joblog, and each ran exactly once (one line in ran).
check_once() {
	python3 - "$1" <<'PY' || fail "$(cat err)"
import collections, json, sys
n = int(sys.argv[1])
for name in ("out", "log"):
    recs = [json.loads(l) for l in open(name)]
    ids = sorted(r["id"] for r in recs)
    assert ids == list(range(1, n + 1)), "%s: ids %s" % (name, ids)
    assert all(r["status"] == "ok" and r["result"] == str(r["id"]) for r in recs), name
ran = collections.Counter(int(l.split()[0]) for l in open("ran"))
twice = [i for i, c in ran.items() if c > 1]
assert not twice, "ran more than once: %s" % twice
assert sorted(ran) == list(range(1, n + 1)), "not run: %s" % sorted(set(range(1, n + 1)) - set(ran))
PY
}

@test "netns --hosts: a host added to the file joins the running pool, a removed host's worker finishes its task and leaves" {
	printf 'h1\nh2\n' > hosts
	seq 30 > tasks
	start_master tasks --prefetch 1 -- sh -c "cd '$PWD' && $HELD_WORKER"
	master_pid
	wait_file held || fail "$(cat err; cat ran)"
	wait_for grep -q ' h1 ' ran
	# Renamed over the old file: no signal needed.
	printf 'h1\nh3\n' > hosts.new
	mv hosts.new hosts
	wait_for grep -q ' h3 ' ran || fail "$(cat err)"
	grep -q 'note: hosts file re-read (it changed): 2 hosts, 2 workers; joining: h3 x1; leaving: h2 x1' err ||
		fail "$(cat err)"
	# h2's worker holds its task while it leaves; it finishes it.
	touch release
	wait_for grep -q 'worker 1 on h2 left' err || fail "$(cat err)"
	touch go
	status=0
	wait "$BG_PID" || status=$?
	RUN_PID=
	[ "$status" -eq 0 ] || fail "fiberrun exited $status: $(cat err)"
	check_once 30
	# h2 ran only the task it held; it was not run again elsewhere.
	[ "$(grep -c ' h2 ' ran)" -eq 1 ] || fail "$(cat ran)"
	python3 - "$(cat held)" <<'PY'
import json, sys
r = next(json.loads(l) for l in open("log") if json.loads(l)["id"] == int(sys.argv[1]))
assert r["host"] == "h2" and r["attempts"] == 1, r
PY
	! grep -q 'lost' err || fail "$(cat err)"
}

@test "netns --hosts SIGHUP: re-reads an unchanged file; a host given up comes back" {
	printf 'h1\nh2\n' > hosts
	netns_kill_sshd h2
	# Tasks answer once h2 has run one: h1 cannot finish the run alone.
	seq 20 > tasks
	start_master tasks --prefetch 1 -- sh -c "cd '$PWD' && "'while read -r n; do
		echo "$n $FIBERRUN_HOST $FIBERRUN_WORKER" >> ran
		while ! grep -q " h2 " ran; do sleep 0.05; done
		echo "$n"
	done'
	master_pid
	wait_for grep -q 'worker 1 on h2 given up' err || fail "$(cat err)"
	netns_sshd_start 2
	wait_for netns_ssh_ready 2
	kill -HUP "$RUN_PID"
	wait_for grep -q ' h2 ' ran || fail "$(cat err)"
	grep -q 'note: hosts file re-read (SIGHUP): 2 hosts, 2 workers; joining: h2 x1$' err || fail "$(cat err)"
	status=0
	wait "$BG_PID" || status=$?
	RUN_PID=
	[ "$status" -eq 0 ] || fail "fiberrun exited $status: $(cat err)"
	check_once 20
}

# feed_until HOST...: write tasks (ten at a time, numbered on from NEXT) to
# the run's input until each HOST has run one of those written since the
# call began (from FROM): every host of the current file takes work.
feed_until() {
	FROM=$NEXT
	wait_for _fed_and_taken "$@" || { cat err >&2; return 1; }
}

_fed_and_taken() {
	local h
	seq "$NEXT" $((NEXT + 9)) >&7
	NEXT=$((NEXT + 10))
	for h in "$@"; do
		awk -v f="$FROM" -v h="$h" '$1 >= f && $2 == h { found = 1 } END { exit !found }' ran 2> /dev/null ||
			return 1
	done
}

# reload N FILE-LINES...: the hosts file becomes FILE-LINES, by SIGHUP;
# then wait for the Nth note of a re-read (the file may be seen changed first).
reload() {
	local n=$1
	shift
	printf '%s\n' "$@" > hosts.new
	mv hosts.new hosts
	kill -HUP "$RUN_PID"
	wait_for eval '[ "$(grep -c "re-read" err)" -ge '"$n"' ]' || fail "$(cat err)"
}

@test "netns --hosts: hosts added and removed six times during a run: no task lost, none run twice, removed hosts take no new task" {
	printf 'h1\nh2\n' > hosts
	mkfifo in
	start_master in -- sh -c "cd '$PWD' && "'while read -r n; do
		echo "$n $FIBERRUN_HOST $FIBERRUN_WORKER" >> ran; echo "$n"; done'
	exec 7> in
	master_pid
	NEXT=1
	: > rounds
	feed_until h1 h2
	echo "$FROM h1 h2" >> rounds
	n=0
	for set in "h2 h3:2" "h3 h4" "h1:2 h4" "h2 h3 h4" "h1" "h1 h2:2 h3 h4"; do
		n=$((n + 1))
		# shellcheck disable=SC2086
		reload "$n" $set
		# shellcheck disable=SC2086
		feed_until $(echo $set | sed 's/:[0-9]*//g')
		echo "$FROM $(echo $set | sed 's/:[0-9]*//g')" >> rounds
	done
	# A file that is not a hosts file changes nothing.
	printf 'h1\nh2 h3\n' > hosts
	kill -HUP "$RUN_PID"
	wait_for grep -q "hosts file not re-read (SIGHUP): 'hosts': line 2: bad host" err || fail "$(cat err)"
	feed_until h1 h2 h3 h4
	echo "$FROM h1 h2 h3 h4" >> rounds
	exec 7>&-
	status=0
	wait "$BG_PID" || status=$?
	RUN_PID=
	[ "$status" -eq 0 ] || fail "fiberrun exited $status: $(cat err)"
	check_once $((NEXT - 1))
	# The tasks of each round ran on that round's hosts only.
	python3 <<'PY' || fail "$(cat err)"
rounds = [l.split() for l in open("rounds")]
starts = [int(r[0]) for r in rounds] + [10 ** 9]
for line in open("ran"):
    i, host = int(line.split()[0]), line.split()[1]
    k = max(j for j in range(len(rounds)) if starts[j] <= i)
    assert host in rounds[k][1:], "task %d ran on %s, not one of %s" % (i, host, rounds[k][1:])
PY
	! grep -q 'lost' err || fail "$(cat err)"
}
