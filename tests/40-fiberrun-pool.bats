#!/usr/bin/env bats
# fiberrun --pool (lines protocol): tasks in, one result record per task out, the worker
# protocol, input checks, and the authentication of workers.

load helpers

SQUARE="$TOP/share/examples/square-worker.sh"

# ids of the records on stdin, one per line, sorted
ids() {
	python3 -c 'import json,sys; [print(json.loads(l)["id"]) for l in sys.stdin]' | sort
}

@test "--pool --lines: one ok record per task, with every documented field" {
	run --separate-stderr bash -c "seq 50 | fiberrun --pool --protocol lines --lines -n 3 -- sh '$SQUARE'"
	assert_success
	[ "$(echo "$output" | wc -l)" -eq 50 ]
	echo "$output" | python3 -c '
import json, sys
for line in sys.stdin:
    r = json.loads(line)
    assert list(r) == ["id", "status", "result", "worker", "host", "attempts", "duration", "encoding"], list(r)
    assert r["encoding"] == "text", r
    assert r["status"] == "ok" and r["result"] == str(r["id"] ** 2), r
    assert r["worker"] in (0, 1, 2) and isinstance(r["host"], str) and r["host"]
    assert r["attempts"] == 1 and isinstance(r["duration"], float) and r["duration"] >= 0
'
	[ "$(echo "$output" | ids)" = "$(seq 50 | sort)" ]
}

@test "--pool: JSON ids are kept, JSON results stay JSON, other results are strings" {
	cat > worker.py <<'PY'
import json, sys
for line in sys.stdin:
    t = json.loads(line)
    print(json.dumps({"double": 2 * t["x"]}) if "x" in t else "plain text", flush=True)
PY
	printf '%s\n' '{"id":"alpha","x":1}' '' '{"id":7,"x":2}' '{"y":1}' > tasks.jsonl
	run --separate-stderr fiberrun --pool --protocol lines -k -n 2 -- python3 worker.py < tasks.jsonl
	assert_success
	assert_line --index 0 --regexp '^\{"id":"alpha","status":"ok","result":\{"double":2\},'
	assert_line --index 1 --regexp '^\{"id":7,"status":"ok","result":\{"double":4\},'
	# no id: the line number (the blank line 2 counts)
	assert_line --index 2 --regexp '^\{"id":4,"status":"ok","result":"plain text",'
	[ "${#lines[@]}" -eq 3 ]
}

@test "--keep-order: records in input order, whatever the finishing order" {
	# The sleeps are the work: tasks take different times, so they finish
	# out of order.
	cat > worker.sh <<'SH'
while read -r n; do sleep "0.0$(( (n * 7) % 5 ))"; echo "$n"; done
SH
	run --separate-stderr bash -c "seq 30 | fiberrun --pool --protocol lines --lines -k -n 4 -- sh worker.sh"
	assert_success
	[ "$(echo "$output" | python3 -c 'import json,sys; print(" ".join(str(json.loads(l)["id"]) for l in sys.stdin))')" = "$(seq 30 | tr '\n' ' ' | sed 's/ $//')" ]
}

@test "--pool: a result line starting with '!' is status error, not retried, exit 1" {
	run --separate-stderr bash -c "printf '2\nx\n3\n' | fiberrun --pool --protocol lines --lines -k -n 2 -- sh '$SQUARE'"
	assert_failure 1
	assert_line --index 1 --regexp '^\{"id":2,"status":"error","result":null,"error":"not a number: x","worker":[0-9],"host":"[^"]+","attempts":1,'
	assert_line --index 2 --regexp '"id":3,"status":"ok","result":"9"'
	[[ $stderr == *"fiberrun: warning: 1 of 3 tasks failed"* ]]
}

@test "--on-bad-input abort: invalid JSON input ends the run with a one-line error naming the line, exit 1" {
	run --separate-stderr bash -c "printf '{\"a\":1}\n{oops\n' | fiberrun --pool --protocol lines --on-bad-input abort -n 1 -- cat"
	assert_failure 1
	[[ $stderr == *"fiberrun: error: '<stdin>': line 2: invalid JSON"* ]]
}

@test "--pool: a task id seen twice is refused" {
	run --separate-stderr bash -c "printf '{\"id\":\"a\"}\n{\"id\":\"a\"}\n' | fiberrun --pool --protocol lines -n 1 -- cat"
	assert_failure 1
	[[ $stderr == *"line 2: task id \"a\" appears twice"* ]]
}

@test "--pool: a bad task id type is refused" {
	run --separate-stderr bash -c "printf '{\"id\":[1]}\n' | fiberrun --pool --protocol lines -n 1 -- cat"
	assert_failure 1
	[[ $stderr == *"line 1: task id must be a string or an integer"* ]]
}

@test "--pool: a worker command that does not exist: exit 127, one error line" {
	run -127 --separate-stderr bash -c "seq 3 | fiberrun --pool --protocol lines --lines -n 2 -- no-such-worker-xyz"
	assert_failure 127
	[[ $stderr == *"fiberrun: error: cannot run 'no-such-worker-xyz': No such file or directory"* ]]
}

@test "--prefetch: 1 and 16 tasks in flight both complete every task" {
	for p in 1 16; do
		run --separate-stderr bash -c "seq 200 | fiberrun --pool --protocol lines --lines --prefetch $p -n 3 -- sh '$SQUARE'"
		assert_success
		[ "$(echo "$output" | ids)" = "$(seq 200 | sort)" ]
	done
}

@test "--pool: empty input: no records, exit 0" {
	run --separate-stderr bash -c "fiberrun --pool --protocol lines -n 2 -- cat < /dev/null"
	assert_success
	assert_output ""
}

@test "--pool: workers see FIBERRUN_WORKER, FIBERRUN_SIZE, FIBERRUN_HOST but not the secret" {
	cat > worker.sh <<'SH'
while read -r t; do echo "$FIBERRUN_WORKER/$FIBERRUN_SIZE/${FIBERRUN_HOST:+host}/${FIBERRUN_SECRET:-none}/${FIBERRUN_MASTER:-none}"; done
SH
	run --separate-stderr bash -c "seq 20 | fiberrun --pool --protocol lines --lines -n 3 -- sh worker.sh"
	assert_success
	echo "$output" | python3 -c '
import json, sys
for line in sys.stdin:
    r = json.loads(line)
    w, size, host, secret, master = r["result"].split("/")
    assert int(w) == r["worker"] and size == "3" and host == "host", r
    assert secret == "none" and master == "none", r
'
}

@test "--pool: the secret is in no process's command line" {
	# The agent (the worker's parent) got the secret in its environment.
	cat > worker.sh <<'SH'
while read -r t; do
	s=$(tr '\0' '\n' < /proc/$PPID/environ | sed -n 's/^FIBERRUN_SECRET=//p')
	printf "%s\n" "$s" > secret.$$.txt
	hits=$(cat /proc/[0-9]*/cmdline 2>/dev/null | tr '\0' '\n' | grep -c -F -f secret.$$.txt)
	echo "${#s} $hits"
done
SH
	run --separate-stderr bash -c "seq 4 | fiberrun --pool --protocol lines --lines -n 2 -- sh worker.sh"
	assert_success
	echo "$output" | python3 -c '
import json, sys
for line in sys.stdin:
    length, hits = json.loads(line)["result"].split()
    assert length == "64" and hits == "0", line
'
}

@test "--pool: a worker without the secret, with a stolen token, or speaking garbage is refused" {
	cat > worker.sh <<'SH'
read -r t
env=$(tr '\0' '\n' < /proc/$PPID/environ)
master=$(echo "$env" | sed -n 's/^FIBERRUN_MASTER=//p')
token=$(echo "$env" | sed -n 's/^FIBERRUN_WORKER_TOKEN=//p')
secret=$(echo "$env" | sed -n 's/^FIBERRUN_SECRET=//p')
FIBERRUN_SECRET=0000000000000000000000000000000000000000000000000000000000000000 \
	fiberrun --worker --master "$master" -- sh -c 'echo injected' 2> wrong-secret.err
echo $? > wrong-secret.status
# The right secret but a token that is already connected: refused too.
FIBERRUN_SECRET=$secret FIBERRUN_WORKER_TOKEN=$token \
	fiberrun --worker --master "$master" -- sh -c 'echo injected' 2> stolen-token.err
echo $? > stolen-token.status
python3 -c '
import socket, sys
h, p = sys.argv[1].rsplit(":", 1)
s = socket.create_connection((h, int(p)))
s.sendall(b"\xff" * 64)
s.settimeout(5)
print(len(s.recv(100)))
' "$master" > garbage.out 2>&1
echo "task $t"
while read -r t; do echo "task $t"; done
SH
	run --separate-stderr bash -c "seq 5 | fiberrun --pool --protocol lines --lines -k -n 1 -- sh worker.sh"
	assert_success
	[ "$(echo "$output" | grep -c '"status":"ok"')" -eq 5 ]
	! grep -q injected <<< "$output"
	[ "$(cat wrong-secret.status)" -ne 0 ]
	grep -q "does not know the secret of this run" wrong-secret.err
	[ "$(cat stolen-token.status)" -ne 0 ]
	grep -q "refused this worker" stolen-token.err
	# garbage: the master closes the connection without answering
	[ "$(cat garbage.out)" = 0 ]
	[[ $stderr == *"rejected a connection that failed authentication"* ]]
}

@test "--pool: task options without --pool and --resume without --joblog are usage errors" {
	run fiberrun --lines -- cat
	assert_failure 2
	run fiberrun --pool --protocol lines --resume -- cat
	assert_failure 2
	run fiberrun --pool --protocol lines -b ssh -- cat
	assert_failure 2
	assert_output --partial "the ssh backend needs --hosts FILE"
	run fiberrun --pool --protocol lines cat
	assert_failure 2
	assert_output --partial "put '--' before the command"
}

@test "--bind: the master listens where it is told, IPv6 loopback included" {
	python3 -c 'import socket; socket.socket(socket.AF_INET6).bind(("::1", 0))' 2> /dev/null ||
		skip "no IPv6 loopback here"
	run --separate-stderr bash -c "seq 10 | fiberrun --pool --protocol lines --lines --bind '[::1]:0' -n 2 -- sh '$SQUARE'"
	assert_success
	[ "${#lines[@]}" -eq 10 ]
	run --separate-stderr bash -c "seq 10 | fiberrun --pool --protocol lines --lines --bind 127.0.0.7:0 -n 2 -- sh '$SQUARE'"
	assert_success
	[ "${#lines[@]}" -eq 10 ]
	run --separate-stderr bash -c "seq 10 | fiberrun --pool --protocol lines --lines --bind 'nonsense:x:y' -n 2 -- cat"
	assert_failure 1
	[[ $stderr == *"fiberrun: error: "* ]]
}

@test "--max-line: a longer task is an invalid record with its line; a longer result loses the worker" {
	run --separate-stderr bash -c "printf '1\n%0100d\n3\n' 0 | fiberrun --pool --protocol lines --lines --max-line 50 -k -n 1 -- cat"
	assert_failure 1
	assert_line --index 0 --regexp '^\{"id":1,"status":"ok","result":"1",'
	assert_line --index 1 --regexp '^\{"id":2,"status":"invalid","result":null,"error":"task longer than 50 bytes \(--max-line\)","line":2,"worker":null,"host":null,"attempts":0,'
	assert_line --index 2 --regexp '^\{"id":3,"status":"ok","result":"3",'
	[[ $stderr == *"fiberrun: warning: 1 of 3 tasks failed"* ]]
	printf 'while read -r n; do printf "%%0200d\\n" 0; done\n' > long.sh
	run --separate-stderr bash -c "echo 1 | fiberrun --pool --protocol lines --lines --max-line 50 -r 1 -n 1 -- sh long.sh"
	assert_failure 1
	assert_output --regexp '"status":"failed".*"error":"result line longer than 50 bytes"'
}

@test "--pool: a worker that writes a line with no task is lost; no task is lost" {
	cat > chatty.sh <<'SH'
while read -r n; do echo "$n"; [ "$n" = 1 ] && echo extra; done
SH
	# Task 2 is sent only once the extra line has cost the worker its place,
	# so that the extra line cannot pass for task 2's result.
	{
		echo 1
		wait_for grep -q "lost: worker wrote a line with no task" err
		echo 2
	} | fiberrun --pool --protocol lines --lines -k --prefetch 1 -n 1 -- sh chatty.sh > out 2> err
	grep -q "worker 0 on .* lost: worker wrote a line with no task: 'extra'" err
	run cat out
	assert_line --index 0 --regexp '^\{"id":1,"status":"ok","result":"1",'
	assert_line --index 1 --regexp '^\{"id":2,"status":"ok","result":"2",'
}

@test "--pool: closed standard output stops quietly (141); a full disk is one error line, exit 1" {
	run --separate-stderr bash -c "seq 100000 | fiberrun --pool --protocol lines --lines -n 2 -- sh '$SQUARE' | head -1"
	assert_success
	[ "${#lines[@]}" -eq 1 ]
	run --separate-stderr bash -c "seq 100000 | fiberrun --pool --protocol lines --lines -n 2 -- sh '$SQUARE' | head -1; exit \${PIPESTATUS[1]}"
	assert_failure 141
	[[ $stderr != *"fiberrun: error"* ]]
	run --separate-stderr bash -c "seq 1000 | fiberrun --pool --protocol lines --lines -n 2 -- sh '$SQUARE' > /dev/full"
	assert_failure 1
	[ "$(grep -c 'fiberrun: error: writing output failed' <<< "$stderr")" -eq 1 ]
}
