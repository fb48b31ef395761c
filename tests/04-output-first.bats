#!/usr/bin/env bats
# Suite-wide promise: a program checks that it may write its output file
# before it starts the work.  Each test makes the work impossible to finish
# (a FIFO nobody writes, a command that leaves a mark), so a program that
# did the work first would hang or leave the mark; `timeout` only bounds a
# broken program, no test measures time.  The output goes under a folder
# that does not exist, which fails for root too.

load helpers

@test "rlprof-record -o: a missing folder fails before the command runs" {
	run rlprof-record -o missing/run.csv -- sh -c 'touch ran'
	[ "$status" -eq 1 ]
	assert_output "rlprof-record: error: cannot create a file next to 'missing/run.csv': No such file or directory"
	[ ! -e ran ]
}

@test "rlprof-report -o: a missing folder fails before the trace is read" {
	mkfifo trace.csv
	run timeout 60 rlprof-report -o missing/out.csv trace.csv
	[ "$status" -eq 1 ]
	assert_output "rlprof-report: error: cannot create a file next to 'missing/out.csv': No such file or directory"
}

@test "cule-bench run -o: a missing folder fails before the ROM is read" {
	mkfifo rom.bin
	run timeout 60 cule-bench --rom rom.bin -o missing/out.csv
	[ "$status" -eq 1 ]
	assert_output "cule-bench: error: cannot create a file next to 'missing/out.csv': No such file or directory"
	run timeout 60 cule-bench run --rom rom.bin --steps 1000000000 -o missing/out.csv
	[ "$status" -eq 1 ]
}

@test "cule-bench trace, info, games -o: a missing folder fails at once" {
	mkfifo rom.bin actions.txt
	run timeout 60 cule-bench trace --rom rom.bin --actions actions.txt -o missing/t.csv
	[ "$status" -eq 1 ]
	assert_output "cule-bench: error: cannot create a file next to 'missing/t.csv': No such file or directory"
	run timeout 60 cule-bench info -o missing/i.csv rom.bin
	[ "$status" -eq 1 ]
	assert_output "cule-bench: error: cannot create a file next to 'missing/i.csv': No such file or directory"
	run cule-bench games -o missing/g.csv
	[ "$status" -eq 1 ]
	[ ! -e missing ]
}

@test "cule-bench -o: an existing file without --force fails before the run" {
	echo keep > out.csv
	mkfifo rom.bin
	run timeout 60 cule-bench --rom rom.bin -o out.csv
	[ "$status" -eq 1 ]
	assert_output --partial "'out.csv' exists"
	[ "$(cat out.csv)" = keep ]
}

@test "cule-bench -o: a failed run leaves no temporary file" {
	run cule-bench --rom no-such.bin -o out.csv
	[ "$status" -eq 1 ]
	[ -z "$(ls -A)" ] || fail "left behind: $(ls -A)"
}

@test "fiberrun --joblog: a missing folder fails before a worker starts" {
	run fiberrun --pool --protocol lines -n 1 -j missing/log -- sh -c 'touch ran; cat' <<< '{"id":1}'
	[ "$status" -eq 1 ]
	assert_output "fiberrun: error: cannot open 'missing/log': No such file or directory"
	[ ! -e ran ]
}

@test "rlprof-calibrate -o: a missing folder fails before the command runs" {
	run rlprof-calibrate -n 1 -o missing/cal.json -- sh -c 'touch ran'
	[ "$status" -eq 1 ]
	assert_output "rlprof-calibrate: error: cannot create a file next to 'missing/cal.json': No such file or directory"
	[ ! -e ran ]
}
