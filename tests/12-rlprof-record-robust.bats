#!/usr/bin/env bats
# rlprof-record: the trace is complete and valid however the command ends:
# exit() from another thread, a crash, SIGTERM or SIGINT; signals sent to
# rlprof-record go on to the command.

load helpers

W=$RLKIT_BUILD/workloads/rlprof-workload
check() { python3 "$TOP/tests/workloads/trace-check.py" "$@"; }

setup() {
	cd "$BATS_TEST_TMPDIR" || return 1
	[ -x "$W" ] || fail "the workload was not built: no NVTX headers (make deps installs them)"
}

# Start rlprof-record in the background on the "wait" workload ($rec); wait
# until the workload said it is inside its range, with its pid ($workload).
start_waiting() {
	# A background job of a script ignores SIGINT; a user's would not.
	env --default-signal=INT rlprof-record -o t.csv -- "$W" wait > ready &
	rec=$!
	wait_file ready || fail "the workload did not start"
	workload=$(awk '{ print $2 }' ready)
}

@test "exit(): called from a second thread, the trace keeps both threads' open ranges" {
	# LeakSanitizer's exit-time check can itself crash when a second thread
	# calls exit() (its tracer races the exiting threads): leave it out here.
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
		run rlprof-record -o t.csv -- "$W" exit-thread
	assert_failure 3
	run check validate t.csv
	assert_success
	run check rows t.csv op
	assert_line "exiting-thread|||0|unclosed"
	assert_line "main-open|||0|unclosed"
	grep -q '^process,.*,exit 3$' t.csv
}

@test "SIGSEGV: what was buffered is written, and the process row says it died" {
	# A sanitizer would report the fault itself, with its own exit status.
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}handle_segv=0 run rlprof-record -o t.csv -- "$W" crash
	assert_failure $((128 + 11))
	run check validate t.csv
	assert_success
	run check rows t.csv op
	assert_line "before-crash|||0|"
	assert_line "crashing|||0|unclosed"
	run awk -F, '$1 == "process" { print $13 }' t.csv
	assert_output "signal SIGSEGV"
}

@test "SIGTERM: sent to rlprof-record, it reaches the command; the trace is complete" {
	start_waiting
	kill -TERM "$rec"
	status=0
	wait "$rec" || status=$?
	[ "$status" -eq $((128 + 15)) ] || fail "exit status $status"

	run check validate t.csv
	assert_success
	run check rows t.csv op
	assert_output "waiting|||0|unclosed"
	run awk -F, '$1 == "process" { print $13 }' t.csv
	assert_output "signal SIGTERM"
}

@test "SIGINT: sent to rlprof-record, it reaches the command; the trace is complete" {
	start_waiting
	kill -INT "$rec"
	status=0
	wait "$rec" || status=$?
	[ "$status" -eq $((128 + 2)) ] || fail "exit status $status"

	run check rows t.csv op
	assert_output "waiting|||0|unclosed"
	run awk -F, '$1 == "process" { print $13 }' t.csv
	assert_output "signal SIGINT"
}

@test "SIGINT: sent to the whole process group, as Ctrl-C does, the trace is complete" {
	# setsid gives the pair their own group, as a shell's job would be; it
	# is not a group leader here, so it does not fork: $! is rlprof-record.
	setsid env --default-signal=INT rlprof-record -o t.csv -- "$W" wait > ready &
	rec=$!
	wait_file ready || fail "the workload did not start"
	[ "$(ps -o pgid= -p "$rec" | tr -d ' ')" = "$rec" ] || fail "rlprof-record leads no group"
	kill -INT -- "-$rec"
	status=0
	wait "$rec" || status=$?
	[ "$status" -eq $((128 + 2)) ] || fail "exit status $status"
	run check rows t.csv op
	assert_output "waiting|||0|unclosed"
	grep -q '^process,.*,signal SIGINT$' t.csv
}

@test "SIGKILL: the command killed outright still gets its rows; a descendant is 'ended'" {
	start_waiting
	kill -KILL "$workload"
	status=0
	wait "$rec" || status=$?
	[ "$status" -eq $((128 + 9)) ] || fail "exit status $status"
	run check validate t.csv
	assert_success
	run awk -F, '$1 == "process" { print $6 "|" $13 }' t.csv
	assert_output "$W wait|signal SIGKILL"
	# A descendant killed outright is known only from outside, by sampling:
	# it must live through some samples, and nothing tells when the recorder
	# has taken one.  So once the workload is inside its range (its line
	# comes through a fifo), it lives 0.3 s more, some 300 samples at
	# --sample 1: that sleep is the descendant's life, not a wait.
	mkfifo fifo
	rlprof-record --sample 1 -o u.csv -- sh -c "'$W' wait > fifo & echo \$! > kid
		read -r _ < fifo; sleep 0.3; kill -KILL \$!; wait"
	run awk -F, -v p="$(cat kid)" '$1 == "process" && $2 == p { print $13 }' u.csv
	assert_output "ended"
}
