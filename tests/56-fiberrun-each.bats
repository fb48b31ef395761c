#!/usr/bin/env bats
# fiberrun --each: one process per task, with {} / {#} / {NAME}
# substitution; its standard output is the result, its exit status the
# task's status; retries, timeouts, joblog and resume as in pool mode.

load helpers

# "id result" of each record, in input order (-k)
results() {
	python3 -c 'import json,sys
for l in sys.stdin:
    r = json.loads(l); print(r["id"], r["status"], r["result"] if r["status"] == "ok" else r["error"])'
}

@test "--each --lines: {} is the line, {#} its number; stdout is the result" {
	run --separate-stderr bash -c "printf 'a b\nc\n\n' | fiberrun --each --lines -k -n 2 -- sh -c 'echo \"[\$1] #\$2\"' sh {} {#}"
	assert_success
	[ "$(echo "$output" | results)" = "$(printf '1 ok [a b] #1\n2 ok [c] #2\n3 ok [] #3')" ]
}

@test "--each: no placeholder appends the task; JSON strings lose their quotes" {
	printf '%s\n' '"x y"' '3' '{"id":"t","a":1}' > tasks.jsonl
	run --separate-stderr bash -c "fiberrun --each -k -n 2 -- printf '%s|' < tasks.jsonl"
	assert_success
	[ "$(echo "$output" | results)" = "$(printf '1 ok x y|\n2 ok 3|\nt ok {"a":1,"id":"t"}|')" ] ||
		[ "$(echo "$output" | results)" = "$(printf '1 ok x y|\n2 ok 3|\nt ok {"id":"t","a":1}|')" ]
}

@test "--each: {NAME} is a member of a JSON task; other braces stay" {
	printf '%s\n' '{"id":"p","name":"pong","seed":7,"cfg":{"lr":0.1}}' '{"id":"q","name":"qbert","seed":8,"cfg":[1]}' > tasks.jsonl
	run --separate-stderr bash -c "fiberrun --each -k -n 2 -- echo {name}-{seed} {cfg} {missing} '{a b}' < tasks.jsonl"
	assert_success
	[ "$(echo "$output" | results)" = "$(printf 'p ok pong-7 {"lr":0.1} {missing} {a b}\nq ok qbert-8 [1] {missing} {a b}')" ]
}

@test "--each: a non-zero exit is status error, not retried, and fiberrun exits 1" {
	run --separate-stderr bash -c "seq 4 | fiberrun --each --lines -k -n 2 -- sh -c 'echo out\$1; [ \$1 -ne 3 ] || exit 5' sh {}"
	assert_failure 1
	[ "$(echo "$output" | results)" = "$(printf '1 ok out1\n2 ok out2\n3 error command ended with exit 5\n4 ok out4')" ]
	echo "$output" | grep '"id":3' | grep -q '"attempts":1'
	[[ $stderr == *"1 of 4 tasks failed"* ]]
}

@test "--each: a missing command is each task's error, naming it" {
	run --separate-stderr bash -c "seq 2 | fiberrun --each --lines -n 1 -- ./no-such-command {}"
	assert_failure 1
	[ "$(echo "$output" | grep -c '"status":"error"')" -eq 2 ]
	[[ $output == *no-such-command* ]]
}

@test "--each --timeout: a task over its time is status timeout; the others run" {
	run --separate-stderr bash -c "printf '0\n30\n0\n' | fiberrun --each --lines -k -n 2 -r 1 -T 1 -- sleep {}"
	assert_failure 1
	[ "$(echo "$output" | results | cut -d' ' -f1,2)" = "$(printf '1 ok\n2 timeout\n3 ok')" ]
}

@test "--each: a killed task is retried on another process (--retries)" {
	# The first attempt of task 2 kills its own worker agent's process group.
	cat > once.sh <<'SH'
if [ "$1" = 2 ] && mkdir first-attempt 2> /dev/null; then kill -9 0; fi
echo "done $1"
SH
	run --separate-stderr bash -c "seq 3 | fiberrun --each --lines -k -n 2 -r 3 -- sh once.sh {}"
	assert_success
	[ "$(echo "$output" | results)" = "$(printf '1 ok done 1\n2 ok done 2\n3 ok done 3')" ]
	echo "$output" | grep '"id":2' | grep -q '"attempts":2'
}

@test "--each --joblog --resume / --resume-failed: done tasks are not run again" {
	cat > flaky.sh <<'SH'
echo "$1" >> ran
[ "$1" != 2 ] || [ -e fixed ] || exit 1
echo "r$1"
SH
	run --separate-stderr bash -c "seq 3 | fiberrun --each --lines -k -n 2 -j log -- sh flaky.sh {}"
	assert_failure 1
	[ "$(sort ran)" = "$(seq 3)" ]
	: > ran
	run --separate-stderr bash -c "seq 3 | fiberrun --each --lines -k -n 2 -j log --resume -- sh flaky.sh {}"
	assert_failure 1
	[ ! -s ran ]
	touch fixed
	run --separate-stderr bash -c "seq 3 | fiberrun --each --lines -k -n 2 -j log --resume-failed -- sh flaky.sh {}"
	assert_success
	[ "$(cat ran)" = 2 ]
	[ "$(echo "$output" | results)" = "$(printf '1 ok r1\n2 ok r2\n3 ok r3')" ]
	# The joblog's later record wins: a plain resume now runs nothing and reports ok.
	: > ran
	run --separate-stderr bash -c "seq 3 | fiberrun --each --lines -k -n 2 -j log --resume -- sh flaky.sh {}"
	assert_success
	[ ! -s ran ]
}

@test "--each-run: refused when not started by fiberrun" {
	run --separate-stderr fiberrun --each-run -- true
	assert_failure 2
	[[ $stderr == *"FIBERRUN_RESULT_FD"* ]]
}
