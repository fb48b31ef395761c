#!/usr/bin/env bats
# rlprof-record: the trace file (CSV and JSON Lines), output handling, exit
# statuses of the command, errors.

load helpers

W=$RLKIT_BUILD/workloads/rlprof-workload
check() { python3 "$TOP/tests/workloads/trace-check.py" "$@"; }

@test "-o: CSV trace with the documented header, meta rows and a valid schema" {
	run rlprof-record -o t.csv -- "$W" busy-sleep 1 1 2
	assert_success
	run head -1 t.csv
	assert_output "kind,pid,tid,start_ns,end_ns,name,category,domain,device,stream,correlation,value,detail"
	run check validate t.csv
	assert_success
	run grep -c '^meta,,,,,\(trace_version\|clock\|recorder\|command\|host\|start_ns\),' t.csv
	assert_output 6
	grep -q '^meta,,,,,clock,,,,,,,CLOCK_REALTIME$' t.csv
	grep -q "^meta,,,,,command,,,,,,,$W busy-sleep 1 1 2\$" t.csv
}

@test "-o: the default output is rlprof.csv" {
	run rlprof-record -- "$W" busy-sleep 0 0 1
	assert_success
	[ -f rlprof.csv ]
	run check validate rlprof.csv
	assert_success
}

@test "-o -: the trace alone goes to standard output, the command's goes to standard error" {
	run --separate-stderr rlprof-record -o - -- sh -c 'echo to-stdout; echo to-stderr >&2'
	assert_success
	assert_line --index 0 "kind,pid,tid,start_ns,end_ns,name,category,domain,device,stream,correlation,value,detail"
	refute_line to-stdout
	[ "$stderr" = "to-stdout
to-stderr" ]
	printf '%s\n' "$output" > t.csv
	run check validate t.csv
	assert_success
}

@test "--format jsonl: the same rows as CSV, as JSON objects with empty fields left out" {
	rlprof-record -o t.csv -- "$W" domains
	rlprof-record -f jsonl -o t.jsonl -- "$W" domains
	run check validate t.jsonl
	assert_success
	[ "$(check rows t.csv op | sort)" = "$(check rows t.jsonl op | sort)" ]
	[ "$(check rows t.csv mark | sort)" = "$(check rows t.jsonl mark | sort)" ]
	run python3 -c 'import json,sys
for line in open(sys.argv[1]):
    o = json.loads(line)
    assert isinstance(o.get("pid", 0), int) and isinstance(o.get("start_ns", 0), int), o
    assert all(v != "" for v in o.values()), o
print("ok")' t.jsonl
	assert_output ok
	run grep -c '"kind":"op".*"domain":"workload"' t.jsonl
	assert_output 2
}

@test "--format: an unknown format is a usage error" {
	run rlprof-record -f xml -- true
	assert_failure 2
	assert_output --partial "rlprof-record: error: unknown format 'xml'"
	[ ! -e rlprof.csv ]
}

@test "--force: an existing output is kept without it, replaced with it" {
	echo precious > t.csv
	run rlprof-record -o t.csv -- touch ran
	assert_failure 1
	assert_output --partial "'t.csv' exists (use --force to replace it)"
	[ "$(cat t.csv)" = precious ]
	[ ! -e ran ]
	run rlprof-record --force -o t.csv -- touch ran
	assert_success
	[ -e ran ]
	run check validate t.csv
	assert_success
}

@test "exit status: the command's own status, and 128+N when a signal killed it" {
	run rlprof-record -o t.csv -- sh -c 'exit 7'
	assert_failure 7
	grep -q ',exit 7$' t.csv
	run rlprof-record -o u.csv -- sh -c 'kill -USR1 $$'
	assert_failure $((128 + 10))
	grep -q '^process,.*,signal SIGUSR1$' u.csv
}

@test "COMMAND: a missing command exits 127, one that cannot run 126, with no trace" {
	run -127 rlprof-record -o t.csv -- no-such-command-rlkit
	assert_failure 127
	assert_output "rlprof-record: error: cannot run 'no-such-command-rlkit': No such file or directory"
	[ ! -e t.csv ]
	printf 'not a program\n' > notexec
	chmod 644 notexec
	run -126 rlprof-record -o t.csv -- ./notexec
	assert_failure 126
	assert_output --partial "cannot run './notexec': Permission denied"
	[ ! -e t.csv ]
	run ls -A
	assert_output notexec
}

@test "COMMAND: none given is a usage error" {
	run rlprof-record -o t.csv
	assert_failure 2
	assert_output --partial "rlprof-record: error: no command to run"
}

@test "-o: an output folder that does not exist fails before running the command" {
	run rlprof-record -o no/such/dir/t.csv -- touch ran
	assert_failure 1
	assert_output --partial "rlprof-record: error: cannot create a file next to 'no/such/dir/t.csv'"
	[ ! -e ran ]
}

@test "-o -: a full disk (/dev/full) gives a clear error and exit 1" {
	[ -w /dev/full ] || skip "no /dev/full on this system"
	run bash -c "rlprof-record -o - -- '$W' busy-sleep 0 0 50 > /dev/full"
	assert_failure 1
	assert_output --partial "rlprof-record: error: writing output failed: No space left on device"
}

@test "--buffer-size: tiny buffers flush many times and lose nothing" {
	run rlprof-record --buffer-size 4 -o t.csv -- "$W" busy-sleep 0 0 500
	assert_success
	run grep -c '^op,' t.csv
	assert_output 1500
	run check validate t.csv
	assert_success
	run rlprof-record --buffer-size 2 -o u.csv -- true
	assert_failure 2
}

@test "process rows: the command's pid, parent, times and command line" {
	rlprof-record --sample 0 -o t.csv -- "$W" busy-sleep 5 0 1
	run awk -F, -v me=$$ '$1 == "process" { print $6 "|" $13 }' t.csv
	assert_output "$W busy-sleep 5 0 1|exit 0"
	run awk -F, '$1 == "process" { d = $5 - $4; print (d >= 5e6 && d < 5e9) ? "ok" : d }' t.csv
	assert_output ok
}

@test "TMPDIR: a spool folder that cannot be made fails before running the command" {
	TMPDIR=$PWD/no-such-dir run rlprof-record -o t.csv -- touch ran
	assert_failure 1
	assert_output "rlprof-record: error: cannot create a folder in '$PWD/no-such-dir': No such file or directory"
	[ ! -e ran ] && [ ! -e t.csv ]
}

@test "TMPDIR: the spool folder is removed after the trace is written" {
	mkdir tmp
	TMPDIR=$PWD/tmp run rlprof-record -o t.csv -- sh -c 'ls "$RLPROF_SPOOL_DIR" > /dev/null && echo spool'
	assert_success
	assert_output spool
	run ls -A tmp
	assert_output ""
}

@test "-o: a full file system fails with exit 1, keeps the old file and leaves no temporary file" {
	[ "$(id -u)" = 0 ] || skip "needs root to mount a small tmpfs"
	mkdir small
	mount -t tmpfs -o size=64k tmpfs small 2>/dev/null || skip "cannot mount a tmpfs here"
	echo precious > small/t.csv
	run rlprof-record --force -o small/t.csv -- "$W" busy-sleep 0 0 3000
	status_=$status out=$output
	leftover=$(ls -A small)
	old=$(cat small/t.csv)
	umount small
	[ "$status_" -eq 1 ] || fail "exit status $status_"
	[[ $out == *"rlprof-record: error: writing 'small/t.csv' failed: No space left on device"* ]] ||
		fail "message: $out"
	[ "$old" = precious ] || fail "the old file changed"
	[ "$leftover" = t.csv ] || fail "left behind: $leftover"
}

@test "-o: event rows in the report's order, said so in the meta row 'order'" {
	[ -x "$W" ] || skip "the workload needs the NVTX headers"
	run rlprof-record -o t.csv -- "$W" threads 3 20
	assert_success
	grep -q '^meta,,,,,order,,,,,,,start_ns$' t.csv
	# By start, the longer first, then by depth (value); process and
	# thread rows after the events.
	run awk -F, 'NR > 1 && $1 != "meta" && $1 != "process" && $1 != "thread" {
		if (tail) { print "event after process rows: " NR; exit 1 }
		e = $5 == "" ? $4 : $5
		# Nanoseconds since the epoch do not fit a double: compare
		# them as strings (of the same length).
		if (n++ && ($4 "" < s "" || ($4 "" == s "" && (e "" > pe "" || (e "" == pe "" && $12 + 0 < v))))) {
			print "out of order: line " NR; exit 1 }
		s = $4; pe = e; v = $12 + 0; next }
		$1 == "process" || $1 == "thread" { tail = 1 }
		END { if (n < 10) { print "only " n " events"; exit 1 } }' t.csv
	assert_success
	# From a pipe, the same breakdown as from the file.
	run bash -c "cat t.csv | rlprof-report -f csv"
	assert_success
	assert_output --partial ",work,"
	assert_output "$(rlprof-report -f csv t.csv)"
}
