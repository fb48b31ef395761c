#!/usr/bin/env bats
# fiberrun -n N -- COMMAND (SPMD mode): ranks and their environment, output
# streaming, the halt policy and exit status, signals, master death.

load helpers

@test "-n: every rank gets its rank, size, local rank, host and the master's address" {
	run --separate-stderr fiberrun -n 4 -- sh -c \
		'echo "$FIBERRUN_RANK $FIBERRUN_SIZE $FIBERRUN_LOCAL_RANK $FIBERRUN_LOCAL_SIZE $FIBERRUN_HOST $FIBERRUN_MASTER_ADDR $FIBERRUN_MASTER_PORT"'
	assert_success
	[ "${#lines[@]}" -eq 4 ]
	host=$(hostname)
	for r in 0 1 2 3; do
		assert_line --regexp "^$r 4 $r 4 $host 127\.0\.0\.1 [0-9]+$"
	done
	# one port for all
	[ "$(echo "$output" | awk '{print $7}' | sort -u | wc -l)" -eq 1 ]
}

@test "--tag: every line carries its rank, and no line is cut by another rank's" {
	cat > talk.sh <<'SH'
i=0
while [ $i -lt 300 ]; do
	echo "rank $FIBERRUN_RANK line $i xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
	echo "err $FIBERRUN_RANK $i" >&2
	i=$((i + 1))
done
printf 'no newline at the end'
SH
	run --separate-stderr fiberrun -n 3 -t -- sh talk.sh
	assert_success
	[ "${#lines[@]}" -eq 903 ]
	[ -z "$(echo "$output" | grep -Ev '^([0-2]): (rank \1 line [0-9]+ x{82}|no newline at the end)$')" ]
	[ "$(echo "$stderr" | grep -cE '^([0-2]): err \1 [0-9]+$')" -eq 900 ]
	for r in 0 1 2; do
		[ "$(echo "$output" | grep -c "^$r: rank $r line")" -eq 300 ]
	done
}

@test "--halt failure (default): the first failing rank stops the others and sets the status" {
	# The other ranks would sleep, then leave a file: stopped, they leave
	# none; pids gets the pids of their shells and sleeps.
	run --separate-stderr fiberrun -n 3 -- sh -c '[ "$FIBERRUN_RANK" = 1 ] && exit 7
		echo $$ >> pids; sleep 60 & echo $! >> pids; wait $!; touch finished.$FIBERRUN_RANK'
	assert_failure 7
	[ -z "$(ls finished.* 2> /dev/null)" ] || fail "a rank was not stopped"
	[ ! -e pids ] || wait_gone $(cat pids)
}

@test "--halt never: every rank runs to its end; the status is the first failure's" {
	# The sleep is the work of the ranks that do not fail.
	run --separate-stderr fiberrun -n 3 --halt never -- sh -c \
		'[ "$FIBERRUN_RANK" = 0 ] && exit 5; sleep 0.5; echo "done $FIBERRUN_RANK"'
	assert_failure 5
	assert_line "done 1"
	assert_line "done 2"
}

@test "-n: a rank killed by a signal gives 128 + the signal" {
	# The sleep is rank 0's work.
	run --separate-stderr fiberrun -n 2 -- sh -c '[ "$FIBERRUN_RANK" = 1 ] && kill -9 $$; sleep 0.2'
	assert_failure 137
}

@test "-n: a command that does not exist: exit 127 and one error line" {
	run -127 --separate-stderr fiberrun -n 2 -- no-such-command-xyz
	[[ $stderr == *"fiberrun: error: rank 0: cannot run 'no-such-command-xyz': No such file or directory"* ]]
}

@test "-n: SIGTERM reaches every rank, status 143" {
	# Each rank says when its trap is set; its work is a long sleep, whose pid
	# goes to pids.
	fiberrun -n 3 -- sh -c 'trap "echo got TERM $FIBERRUN_RANK; exit 0" TERM
		sleep 30 & echo $! >> pids; echo "$FIBERRUN_RANK" >> ready; wait' > out.txt 2>&1 &
	master=$!
	wait_lines ready 3
	kill -TERM $master
	rc=0
	wait $master || rc=$?
	[ "$rc" -eq 143 ]
	[ "$(grep -c 'got TERM' out.txt)" -eq 3 ]
	wait_gone $(cat pids)
}

@test "-n: when the master is killed, the ranks die with it" {
	# The ranks' work is a long sleep; each leaves its pid in pids.
	fiberrun -n 3 -- sh -c 'echo $$ >> pids; exec sleep 31' > /dev/null 2>&1 &
	master=$!
	wait_lines pids 3
	kill -9 $master
	wait_gone $(cat pids)
}

@test "-n: the ranks' exit status 0 gives 0, and options of pool mode are refused" {
	run fiberrun -n 2 -- true
	assert_success
	run fiberrun -n 2 --keep-order -- true
	assert_failure 2
	run fiberrun --pool --protocol lines --tag -- true
	assert_failure 2
	run fiberrun -n 0 -- true
	assert_failure 2
	run fiberrun -b sbatch -- true
	assert_failure 2
}

@test "--stdin-env: the environment comes from standard input; its end stops the command" {
	# The input stays open while the command runs (its end means "stop"),
	# here until the command has written its line.
	{
		printf 'FOO=bar baz\nFIBERRUN_RANK=3\n\n'
		wait_file out
	} | fiberrun --stdin-env -- sh -c 'echo "$FOO/$FIBERRUN_RANK"' > out
	[ "$(cat out)" = "bar baz/3" ]
	# The end of the input stops a command that would sleep (SIGTERM, 143),
	# and the children it started: pids gets the pids of both.
	rc=0
	{
		printf 'A=1\n\n'
		wait_lines pids 2
	} | fiberrun --stdin-env -- sh -c 'sleep 60 & echo $! >> pids; echo $$ >> pids; wait $!' || rc=$?
	[ "$rc" -eq 143 ] || fail "exit status $rc"
	wait_gone $(cat pids)
	run --separate-stderr bash -c "printf 'no equals sign\n\n' | fiberrun --stdin-env -- true"
	assert_failure 1
	[[ $stderr == *"fiberrun: error: bad environment line from standard input"* ]]
}

@test "--worker: without the secret or the master's address, a usage error" {
	run --separate-stderr env -u FIBERRUN_SECRET FIBERRUN_MASTER=127.0.0.1:1 fiberrun --worker -- cat
	assert_failure 2
	[[ $stderr == *"--worker needs the run's secret in FIBERRUN_SECRET"* ]]
	run --separate-stderr env -u FIBERRUN_MASTER fiberrun --worker -- cat
	assert_failure 2
	run --separate-stderr env FIBERRUN_SECRET=0123456789abcdef0123 fiberrun --worker --master 127.0.0.1:1 -- cat
	assert_failure 1
	[[ $stderr == *"cannot connect to '127.0.0.1:1'"* ]]
}

@test "--quiet: no warnings about lost workers or failed tasks" {
	printf 'while read -r n; do [ "$n" = 2 ] && exit 1; echo "$n"; done\n' > w.sh
	run --separate-stderr bash -c "seq 3 | fiberrun --pool --protocol lines --lines -q -r 1 -n 1 -- sh w.sh"
	assert_failure 1
	[ -z "$stderr" ]
	run --separate-stderr bash -c "seq 3 | fiberrun --pool --protocol lines --lines -r 1 -n 1 -- sh w.sh"
	assert_failure 1
	[[ $stderr == *"lost"* ]]
}
