#!/usr/bin/env bats
# fiberrun over ssh, against two real sshd servers started here on loopback
# ports (node1, node2) with keys made for the test; they are stopped at the
# end.  Skipped, saying why, when sshd cannot start.

load helpers

# The tests share two sshd servers and count their logins: one at a time.
BATS_NO_PARALLELIZE_WITHIN_FILE=true

setup_file() {
	export D="$BATS_FILE_TMPDIR/ssh"
	mkdir -p "$D"
	command -v /usr/sbin/sshd > /dev/null || skip "sshd is not installed (openssh-server)"
	mkdir -p /run/sshd 2> /dev/null || true
	ssh-keygen -q -t ed25519 -N '' -f "$D/host_key" || return 1
	ssh-keygen -q -t ed25519 -N '' -f "$D/id" || return 1
	cp "$D/id.pub" "$D/authorized_keys"
	: > "$D/ssh_config"
	for n in 1 2; do
		port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
		write_sshd_config "$D/sshd$n.conf" 127.0.0.1 "$port" "$D" "$D/sshd$n.pid"
		/usr/sbin/sshd -f "$D/sshd$n.conf" -D -E "$D/sshd$n.log" &
		echo $! > "$D/sshd$n.bgpid"
		cat >> "$D/ssh_config" <<CONF
Host node$n
	HostName 127.0.0.1
	Port $port
CONF
	done
	cat >> "$D/ssh_config" <<CONF
Host *
	User root
	IdentityFile $D/id
	IdentitiesOnly yes
	UserKnownHostsFile /dev/null
	StrictHostKeyChecking no
	LogLevel ERROR
CONF
	wait_for ssh_ready && return 0
	echo "sshd did not start:" >&3
	cat "$D"/sshd*.log >&3
	return 1
}

ssh_ready() {
	ssh -F "$D/ssh_config" -o BatchMode=yes node1 true 2> /dev/null &&
		ssh -F "$D/ssh_config" -o BatchMode=yes node2 true 2> /dev/null
}

teardown_file() {
	local f
	for f in "$D"/sshd*.bgpid; do
		[ -f "$f" ] && kill "$(cat "$f")" 2> /dev/null
	done
	return 0
}

setup() {
	cd "$BATS_TEST_TMPDIR" || return 1
	[ -f "$D/sshd1.bgpid" ] || skip "sshd could not be started"
	SSH="ssh -F $D/ssh_config"
	printf 'node1:2\n# the second host\nnode2\n' > hosts
}

accepted() {
	cat "$D"/sshd*.log | grep -c "Accepted publickey"
}

# logins_since BEFORE N: at least N logins since accepted said BEFORE.
logins_since() {
	[ $(($(accepted) - $1)) -ge "$2" ]
}

# Worker scripts that start with this line leave in the file pids their own
# pid and those of their ancestors on the host, up to sshd (the agent, the
# remote fiberrun, the shell), and their own pid in the file workers: the
# test waits for and acts on those processes only.
LOG_PIDS='echo $$ >> workers; p=$$
while [ "$p" -gt 1 ]; do
	case $(cat /proc/$p/comm) in sshd*) break ;; esac
	echo "$p" >> pids
	p=$(awk "{ print \$4 }" /proc/$p/stat)
done'

@test "--hosts: SPMD ranks over ssh get their ranks, local ranks and hosts" {
	run --separate-stderr fiberrun -H hosts --ssh "$SSH" -t -- sh -c \
		'echo "$FIBERRUN_RANK/$FIBERRUN_SIZE $FIBERRUN_HOST $FIBERRUN_LOCAL_RANK/$FIBERRUN_LOCAL_SIZE $FIBERRUN_MASTER_ADDR $PWD"'
	assert_success
	assert_line "0: 0/3 node1 0/2 node1 $PWD"
	assert_line "1: 1/3 node1 1/2 node1 $PWD"
	assert_line "2: 2/3 node2 0/1 node1 $PWD"
}

@test "--hosts: a failing remote rank sets the status and stops the others" {
	# The other ranks would sleep, then leave a file: stopped, they leave none.
	run --separate-stderr fiberrun -H hosts --ssh "$SSH" -- sh -c '[ "$FIBERRUN_RANK" = 2 ] && exit 9
		echo $$ >> pids; sleep 60 & echo $! >> pids; wait $!; touch finished.$FIBERRUN_RANK'
	assert_failure 9
	[ -z "$(ls finished.* 2> /dev/null)" ] || fail "a rank was not stopped"
	[ ! -e pids ] || wait_gone $(cat pids)
}

@test "--hosts --pool: tasks run on both hosts, one ssh per worker, never one per task" {
	before=$(accepted)
	# The sleep is the work: tasks that take a little time.
	cat > worker.sh <<'SH'
while read -r n; do sleep 0.01; echo $((n * n)); done
SH
	run --separate-stderr bash -c "seq 300 | fiberrun --pool --protocol lines --lines -H hosts --ssh '$SSH' -- sh worker.sh"
	assert_success
	[ "${#lines[@]}" -eq 300 ]
	echo "$output" | python3 -c '
import json, sys
hosts = set()
for line in sys.stdin:
    r = json.loads(line)
    assert r["status"] == "ok" and r["result"] == str(r["id"] ** 2), r
    hosts.add(r["host"])
assert hosts == {"node1", "node2"}, hosts
'
	# sshd logs each login before its session starts, so all are logged by
	# now; the wait only covers a log written late.
	wait_for logins_since "$before" 3
	[ $(($(accepted) - before)) -eq 3 ]
}

@test "--hosts --pool: remote workers killed at random; every task once, workers replaced" {
	# The sleep is the work: tasks that take a little time.
	cat > worker.sh <<SH
echo \$\$ >> workers
while read -r n; do sleep 0.001; echo "\$n"; done
SH
	seq 3000 > tasks
	fiberrun --pool --protocol lines --lines -r 100 -H hosts --ssh "$SSH" -- sh worker.sh < tasks > out.jsonl 2> err.txt &
	master=$!
	wait_file workers
	for i in $(seq 15); do
		victim=$(shuf -n 1 workers)
		alive "$victim" && kill -9 "$victim" 2> /dev/null
		sleep 0.2	# the pace of the killing, not a wait for anything
	done
	wait $master
	[ "$(python3 -c 'import json,sys; print("\n".join(str(json.loads(l)["id"]) for l in sys.stdin))' < out.jsonl | sort -n)" = "$(cat tasks)" ]
	grep -q "lost" err.txt
}

@test "--hosts: when the master is killed, nothing stays behind on the hosts" {
	# The sleep is the work: workers are busy when the master dies.
	cat > worker.sh <<SH
$LOG_PIDS
while read -r n; do sleep 0.05; echo "\$n"; done
SH
	seq 100000 | fiberrun --pool --protocol lines --lines -H hosts --ssh "$SSH" -- sh worker.sh > /dev/null 2>&1 &
	master=$!
	wait_lines workers 3
	kill -9 $master
	wait_gone $(sort -u pids)
}

@test "--hosts: bad hosts files are refused with the line" {
	printf 'node1:2\nnode2:zero\n' > bad
	run fiberrun -H bad -- true
	assert_failure 1
	assert_output --partial "'bad': line 2: bad slot count 'zero'"
	run fiberrun -H missing -- true
	assert_failure 1
	assert_output --partial "cannot open 'missing'"
	: > empty
	run fiberrun -H empty -- true
	assert_failure 1
	assert_output "fiberrun: error: 'empty': no hosts"
	mkdir folder
	run fiberrun -H folder -- true
	assert_failure 1
	assert_output "fiberrun: error: cannot read 'folder': Is a directory"
}

@test "es.py over ssh: evolution strategies with workers on both hosts learn" {
	run --separate-stderr python3 "$TOP/share/examples/es.py" \
		--worker "$RLKIT_BUILD/share/examples/es-worker" --fiberrun fiberrun \
		--generations 15 -- -H hosts --ssh "$SSH"
	assert_success
	[ "${#lines[@]}" -eq 16 ]
	first=$(echo "${lines[1]}" | cut -d, -f2)
	last=$(echo "${lines[15]}" | cut -d, -f2)
	python3 -c "import sys; f, l = $first, $last; sys.exit(0 if l > 2 * f else 1)" ||
		fail "mean fitness went from $first to $last"
}

@test "--remote-fiberrun: the path used on the hosts; a wrong one is reported and no task is lost" {
	run --separate-stderr bash -c "seq 6 | fiberrun --pool --protocol lines --lines -H hosts --ssh '$SSH' --remote-fiberrun '$RLKIT_BUILD/bin/fiberrun' -- sh '$TOP/share/examples/square-worker.sh'"
	assert_success
	[ "${#lines[@]}" -eq 6 ]
	run --separate-stderr bash -c "seq 6 | fiberrun --pool --protocol lines --lines -H hosts --ssh '$SSH' --remote-fiberrun /no/such/fiberrun -- cat"
	assert_failure 3
	[ "$(grep -c '"status":"failed".*"error":"no workers left (last: exited with status 127 before connecting' <<< "$output")" -eq 6 ]
	[[ $stderr == *"exited with status 127 before connecting (is fiberrun installed there? see --remote-fiberrun)"* ]]
}

@test "--env over ssh: named and NAME* variables reach the workers and ranks, others do not" {
	export RLKIT_T_ONE=1 RLKIT_T_TWO='two words' RLKIT_OTHER=no
	run --separate-stderr bash -c "seq 4 | fiberrun --each --lines -k -H hosts --ssh '$SSH' --env 'RLKIT_T_*' -- sh -c 'echo \"\$RLKIT_T_ONE:\$RLKIT_T_TWO:\${RLKIT_OTHER-unset}\"'"
	assert_success
	[ "$(echo "$output" | grep -c '"result":"1:two words:unset"')" -eq 4 ]
	# SPMD ranks: one on each slot, so both hosts are seen.
	run --separate-stderr fiberrun -H hosts --ssh "$SSH" --env RLKIT_T_TWO --env RLKIT_T_ONE -- \
		sh -c 'echo "$FIBERRUN_HOST:$RLKIT_T_ONE:$RLKIT_T_TWO:${RLKIT_OTHER-unset}"'
	assert_success
	[ "$(echo "$output" | sort)" = "$(printf 'node1:1:two words:unset\nnode1:1:two words:unset\nnode2:1:two words:unset')" ]
}

@test "--workdir over ssh: entered on every host; a bad one is that worker's error, with its host" {
	run --separate-stderr bash -c "seq 4 | fiberrun --each --lines -H hosts --ssh '$SSH' --workdir '$PWD/remote/w' -- pwd"
	assert_success
	[ "$(echo "$output" | grep -c "\"result\":\"$PWD/remote/w\"")" -eq 4 ]
	run --separate-stderr fiberrun -H hosts --ssh "$SSH" --workdir "$PWD/remote/spmd" -- sh -c 'echo "$FIBERRUN_HOST $(pwd)"'
	assert_success
	[ "$(echo "$output" | sort)" = "$(printf 'node1 %s\nnode1 %s\nnode2 %s' "$PWD/remote/spmd" "$PWD/remote/spmd" "$PWD/remote/spmd")" ]
	touch plain
	run --separate-stderr bash -c "seq 2 | fiberrun --each --lines -n 1 -r 2 -H hosts --ssh '$SSH' --workdir '$PWD/plain/w' -- pwd"
	assert_failure 1
	[[ $stderr == *"cannot enter working folder '$PWD/plain/w' on node1"* ]]
}

@test "rlkit.pool: Pool(hosts=...) runs pickled functions on both hosts, PYTHONPATH passed along" {
	skip_unless_python multiprocessing
	mkdir mods
	cat > mods/work.py <<'PY'
import os, time
def where(x):
    # Every task waits until both hosts have run one: no host can take them all.
    host = os.environ["FIBERRUN_HOST"]
    open(os.path.join("SEEN", host), "w").close()
    for _ in range(3000):
        if len(os.listdir("SEEN")) >= 2:
            break
        time.sleep(0.01)
    return (host, x * x)
PY
	sed -i "s|SEEN|$PWD/seen|" mods/work.py
	mkdir seen
	cat > script.py <<PY
import sys
import rlkit.pool as multiprocessing
from work import where
if __name__ == "__main__":
    with multiprocessing.Pool(hosts="hosts", options=["--ssh", "$SSH"]) as pool:
        out = pool.map(where, range(40), chunksize=1)
    assert [v for _, v in out] == [x * x for x in range(40)], out
    print(" ".join(sorted(set(h for h, _ in out))))
PY
	run --separate-stderr env PYTHONPATH="$RLKIT_BUILD/share/rlkit/python:$PWD/mods" python3 script.py
	assert_success
	[ "$output" = "node1 node2" ]
}

@test "--mem-limit over ssh: the agent on the host limits the commands; one over it fails 'out of memory', pool and --each" {
	run --separate-stderr bash -c "printf '10\n600\n' | fiberrun --each --lines -k -n 1 -H hosts --ssh '$SSH' --mem-limit 300M -- python3 -c 'import sys; print(len(bytearray(int(sys.argv[1]) << 20)))' {}"
	assert_failure 1
	assert_line --index 0 --regexp '"id":1,"status":"ok","result":"10485760",.*"host":"node1"'
	assert_line --index 1 --regexp '"id":2,"status":"error",.*"error":"out of memory: the command (was killed by the kernel|raised MemoryError) at its --mem-limit of 314572800 bytes'
	run --separate-stderr bash -c "echo 600 | fiberrun --pool --protocol lines --lines -n 1 -r 1 -H hosts --ssh '$SSH' --mem-limit 300M -- python3 -c 'import sys
for l in sys.stdin: print(len(bytearray(int(l) << 20)), flush=True)'"
	assert_failure 1
	assert_output --regexp '"status":"failed",.*"error":"out of memory: the worker (was killed by the kernel|raised MemoryError) at its --mem-limit of 314572800 bytes'
}
