#!/usr/bin/env bats
# fiberrun across hosts that are really separate: four hosts h1..h4, each a
# network namespace with its own sshd, and the master on a fifth, h0, all on
# a private bridge (tests/netns.bash).  Nothing here goes over the machine's
# own network stack.  Skipped, saying why, without root or iproute2.

load helpers
load netns

# The tests share the hosts and count their logins: one at a time.
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

@test "netns: each host has its own stack on the private network, the machine's has nothing added" {
	run on h1 ip -o -4 addr show dev eth0
	assert_success
	assert_output --partial "$(netns_addr 1)/24"
	run ip -o -4 addr
	refute_output --partial "$NETNS_SUBNET."
	# h2's sshd is not on h1's loopback, only behind h2's address.
	run on h1 ssh -F "$NETNS/ssh_config" -o BatchMode=yes -o HostName=127.0.0.1 h2 true
	assert_failure
	run on h1 ssh -F "$NETNS/ssh_config" -o BatchMode=yes h2 'cat /proc/net/dev'
	assert_success
	assert_output --partial eth0
}

@test "netns: the namespaces of a run that was killed are removed by the next" {
	# A shell makes one host of its own, then dies by SIGKILL: no teardown.
	env -u NETNS_PREFIX -u NETNS BATS_FILE_TMPDIR="$PWD" bash -c '
		source "$1"
		wait_for() { "$@"; }
		NETNS_OWNER=$$ netns_up 0 > /dev/null 2>&1
		echo "$NETNS_PREFIX" > prefix
		kill -KILL $$' sh "$TOP/tests/netns.bash" || true
	prefix=$(cat prefix)
	[ -n "$prefix" ] && [ "$prefix" != "$NETNS_PREFIX" ]
	ip netns list | grep -q "^$prefix-h0" || fail "the killed shell made no namespace"
	netns_reap_stale
	run ip netns list
	refute_output --partial "$prefix-"
}

# A worker that says it is up, and answers nothing before all four hosts'
# workers are: then every host has taken tasks.
ALL_UP='touch "up.$FIBERRUN_HOST"
while read -r n; do
	i=0
	while [ "$(ls up.* | wc -l)" -lt 4 ] && [ $i -lt 600 ]; do sleep 0.05; i=$((i + 1)); done
	echo "$n" >> ran
	echo "$n@$FIBERRUN_HOST"
done'

@test "netns --pool: tasks over 4 hosts with --bind on the master's address; joblog and resume" {
	seq 200 > tasks
	run --separate-stderr on h0 fiberrun --pool --lines --protocol lines -H "$NETNS/hosts" --ssh "$SSH" \
		--bind "$MASTER:0" -j log -- sh -c "cd '$PWD' && $ALL_UP" < tasks
	assert_success
	[ "$(wc -l < log)" -eq 200 ] || fail "joblog has $(wc -l < log) lines"
	for h in h1 h2 h3 h4; do
		grep -q "@$h\"" <<< "$output" || fail "no task ran on $h: $output"
	done
	# Each task's result is its own id, on whichever host.
	run python3 -c '
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
assert sorted(r["id"] for r in recs) == list(range(1, 201)), "ids"
for r in recs:
    n, host = r["result"].rstrip("\n").split("@")
    assert int(n) == r["id"], r
    assert r["status"] == "ok", r
print("ok")' <(echo "$output")
	assert_success
	# Resume: only the 20 new tasks run.
	seq 220 > tasks
	run --separate-stderr on h0 fiberrun --pool --lines --protocol lines -H "$NETNS/hosts" --ssh "$SSH" \
		--bind "$MASTER:0" -j log --resume -- sh -c "cd '$PWD' && $ALL_UP" < tasks
	assert_success
	[ "$(wc -l <<< "$output")" -eq 220 ] || fail "resume wrote $(wc -l <<< "$output") records"
	[ "$(wc -l < log)" -eq 220 ]
	# Every task ran once, across both runs.
	[ "$(sort -n ran | uniq | wc -l)" -eq 220 ] && [ "$(wc -l < ran)" -eq 220 ] ||
		fail "tasks ran $(wc -l < ran) times for 220 tasks"
}

@test "netns SPMD: ranks over 4 hosts get their ranks, hosts and the master's address" {
	run --separate-stderr on h0 fiberrun -H "$NETNS/hosts" --ssh "$SSH" --bind "$MASTER:0" -t -- sh -c \
		'echo "$FIBERRUN_RANK/$FIBERRUN_SIZE $FIBERRUN_HOST $(ip -o -4 addr show dev eth0 | awk "{print \$4}")"'
	assert_success
	for i in 1 2 3 4; do
		assert_line "$((i - 1)): $((i - 1))/4 h$i $(netns_addr "$i")/24"
	done
}

@test "netns --env: the variables named arrive on all 4 hosts, in SPMD ranks and in pool workers" {
	run --separate-stderr on h0 env MY_VAR='a b' RLX_A=1 RLX_B=2 NOT_ME=x fiberrun -H "$NETNS/hosts" \
		--ssh "$SSH" --bind "$MASTER:0" --env MY_VAR --env 'RLX_*' -t -- sh -c \
		'echo "$FIBERRUN_HOST [$MY_VAR] $RLX_A$RLX_B [${NOT_ME-unset}]"'
	assert_success
	for i in 1 2 3 4; do
		assert_line "$((i - 1)): h$i [a b] 12 [unset]"
	done
	seq 8 > tasks
	run --separate-stderr on h0 env MY_VAR='a b' fiberrun --pool --lines --protocol lines -n 4 \
		-H "$NETNS/hosts" --ssh "$SSH" --bind "$MASTER:0" --env MY_VAR -- sh -c \
		'while read -r n; do echo "$n [$MY_VAR]"; done' < tasks
	assert_success
	run python3 -c '
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
assert sorted(r["id"] for r in recs) == list(range(1, 9)), "ids"
for r in recs:
    assert r["status"] == "ok" and r["result"].rstrip("\n") == "%d [a b]" % r["id"], r
print("ok")' <(echo "$output")
	assert_success
}

@test "netns: the run's secret never crosses the network in the clear" {
	# A remote fiberrun that keeps the environment it is handed (over ssh,
	# encrypted) so that the test knows the secret, then runs the real one.
	cat > remote-fiberrun <<SH
#!/bin/sh
while IFS= read -r l; do
	[ -z "\$l" ] && break
	printf '%s\n' "\$l" >> "$PWD/env.\$\$"
done
{ cat "$PWD/env.\$\$"; echo; cat; } | "$RLKIT_BUILD/bin/fiberrun" "\$@"
SH
	chmod +x remote-fiberrun
	ip netns exec "$NETNS_PREFIX-br" python3 "$TOP/tests/fixtures/capture.py" wire ready &
	capture=$!
	wait_for test -e ready
	# Protocol 2 workers (share/examples/worker.py) on the four hosts.
	seq 50 | sed 's/.*/{"x":&,"tag":"payload-&"}/' > tasks
	run --separate-stderr on h0 fiberrun --pool -H "$NETNS/hosts" --ssh "$SSH" \
		--remote-fiberrun "$PWD/remote-fiberrun" --bind "$MASTER:0" -- python3 "$TOP/share/examples/worker.py" < tasks
	kill "$capture"
	wait "$capture" || true
	assert_success
	assert_line --partial '{"square":1764}'
	secret=$(sed -n 's/^FIBERRUN_SECRET=//p' env.* | sort -u)
	[ "$(wc -l <<< "$secret")" -eq 1 ] && [ -n "$secret" ] || fail "secret not seen: $(cat env.*)"
	# The capture saw the tasks go by (so it works) but not the secret.
	grep -q -a payload-42 wire || fail "the capture holds no task traffic"
	! grep -q -a -F "$secret" wire || fail "the secret crossed the wire in the clear"
}
