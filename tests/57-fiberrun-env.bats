#!/usr/bin/env bats
# fiberrun --env, --workdir, --bar, --eta on this machine
# (43-fiberrun-ssh.bats checks --env and --workdir on ssh hosts;
# 65-fiberrun-memlimit.bats checks --mem-limit).

load helpers

@test "--env: bad names are usage errors" {
	run --separate-stderr fiberrun --pool --env 'A-B' -- true
	assert_failure 2
	[[ $stderr == *"bad variable name 'A-B'"* ]]
	run --separate-stderr fiberrun --pool --env '' -- true
	assert_failure 2
}

@test "--env: a value with a newline cannot pass, said before anything starts" {
	run --separate-stderr env BAD_VAR="$(printf 'a\nb')" fiberrun --each --lines --env 'BAD_*' -- true < /dev/null
	assert_failure 1
	[[ $stderr == *"cannot pass 'BAD_VAR'"*newline* ]]
}

@test "--workdir: created when missing; every task runs there (pool and SPMD)" {
	run --separate-stderr bash -c "seq 2 | fiberrun --each --lines -k -n 2 --workdir w/x -- pwd"
	assert_success
	[ -d w/x ]
	[ "$(echo "$output" | python3 -c 'import json,sys; print(set(json.loads(l)["result"] for l in sys.stdin))')" = "{'$PWD/w/x'}" ]
	run --separate-stderr fiberrun -n 2 --workdir "$PWD/spmd" -- sh -c 'pwd > rank$FIBERRUN_RANK'
	assert_success
	[ "$(cat spmd/rank0 spmd/rank1)" = "$(printf '%s\n' "$PWD/spmd" "$PWD/spmd")" ]
}

@test "--workdir: a folder that cannot be entered is the worker's error, with its host" {
	touch file
	run --separate-stderr bash -c "seq 2 | fiberrun --each --lines -n 1 -r 2 --workdir file/sub -- true"
	assert_failure 1
	[[ $stderr == *"cannot enter working folder 'file/sub' on $(hostname)"* ]]
	[ "$(echo "$output" | grep -c '"status":"failed"')" -eq 2 ]
}

@test "--bar: done/total, rate and ETA on a terminal; nothing in a pipe" {
	command -v script > /dev/null || skip "script (util-linux) is not installed"
	run --separate-stderr bash -c "seq 20 | fiberrun --each --lines -n 2 --bar -- true"
	assert_success
	[[ $stderr != *tasks* ]]
	script -qec "seq 20 | fiberrun --each --lines -n 2 --bar -- true > out" /dev/null > tty.txt
	[ "$(wc -l < out)" -eq 20 ]
	grep -aq 'tasks \[#*\.*\] *[0-9]*% [0-9]*/20 ' tty.txt || { cat -v tty.txt; false; }
	script -qec "seq 20 | fiberrun --each --lines -n 2 --eta -- true > out" /dev/null > tty.txt
	grep -aq 'tasks *[0-9]*% [0-9]*/20 .*/s' tty.txt || { cat -v tty.txt; false; }
	! grep -aq '\[#' tty.txt
}

@test "--bar, --eta: task options, they need --pool or --each" {
	run --separate-stderr fiberrun --bar -- true
	assert_failure 2
	[[ $stderr == *"need --pool"* ]]
}
