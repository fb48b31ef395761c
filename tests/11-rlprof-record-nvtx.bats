#!/usr/bin/env bats
# rlprof-record: NVTX annotations of C programs (the built-in workload),
# threads, processes and blocked time.

load helpers

W=$RLKIT_BUILD/workloads/rlprof-workload
check() { python3 "$TOP/tests/workloads/trace-check.py" "$@"; }

setup() {
	cd "$BATS_TEST_TMPDIR" || return 1
	[ -x "$W" ] || fail "the workload was not built: no NVTX headers (make deps installs them)"
}

# The tests assert on the structure of one run (what nests in what, what
# comes first, what adds up), never on how many milliseconds something took:
# a loaded machine stretches every duration.

@test "NVTX push/pop: each step range holds a busy range, then a sleep range" {
	run rlprof-record -o t.csv -- "$W" busy-sleep 20 30 5
	assert_success
	run check validate t.csv
	assert_success
	run check tree t.csv
	assert_success
	assert_output "$(for _ in 1 2 3 4 5; do printf 'step\n  busy\n  sleep\n'; done)"
}

@test "NVTX push/pop: nesting depth in the value column" {
	rlprof-record -o t.csv -- "$W" busy-sleep 0 0 2
	run check rows t.csv op
	assert_output "step|||0|
busy|||1|
sleep|||1|
step|||0|
busy|||1|
sleep|||1|"
}

@test "NVTX: domains, registered strings, wide names, marks, start/end and thread names" {
	rlprof-record --sample 0 -o t.csv -- "$W" domains
	run check rows t.csv op
	assert_line "in-domain||workload|0|"
	assert_line "registered||workload|1|"
	assert_line "wide-été|||0|"
	assert_line "start-end||||"
	run check rows t.csv mark
	assert_line "domain-mark||workload||"
	assert_line "mark||||"
	run check rows t.csv thread
	assert_line "named-main||||"
	# Besides the program's thread, only the CPU sampler's.
	[ "${#lines[@]}" -eq 2 ] || fail "thread rows: ${lines[*]}"
	assert_line "rlprof-sampler||||"
	# The start/end range covers the work between its two calls, after the
	# marks made before it and before the mark made after it.
	run check tree t.csv
	assert_success
	assert_output "in-domain
  registered
@domain-mark
@mark
wide-été
start-end
@after-name"
}

@test "NVTX: pops of an empty stack are warnings, pushes left open are 'unclosed'" {
	run rlprof-record -o t.csv -- "$W" unbalanced
	assert_success
	run check rows t.csv warning
	assert_output "||||unbalanced pop"
	run check rows t.csv op
	assert_line "balanced|||0|"
	assert_line "left-open|||0|unclosed"
}

@test "--no-nvtx: NVTX calls are not recorded, the command still runs" {
	run rlprof-record --no-nvtx -o t.csv -- "$W" busy-sleep 1 0 3
	assert_success
	run grep -c '^op,' t.csv
	assert_output 0
	grep -q '^process,.*,exit 0$' t.csv
}

@test "threads: each thread's ranges carry its own tid, and every thread has a row" {
	run rlprof-record -o t.csv -- "$W" threads 4 10
	assert_success
	run awk -F, '$1 == "op" && $6 == "work" { print $3 }' t.csv
	[ "${#lines[@]}" -eq 4 ]
	[ "$(printf '%s\n' "${lines[@]}" | sort -u | wc -l)" -eq 4 ]
	pid=$(awk -F, '$1 == "process" { print $2 }' t.csv)
	for tid in "${lines[@]}"; do
		[ "$tid" != "$pid" ] || fail "a worker ran on the main thread"
		grep -q "^thread,$pid,$tid," t.csv || fail "no thread row for $tid"
		grep -q "^op,$pid,$tid,.*,worker-[0-3],.*,0,\$" t.csv || fail "no outer range on $tid"
	done
	# Each worker's range holds its work; the main thread's range holds
	# them all, since it waits for the workers before it ends.
	check tree t.csv > tree.txt
	run bash -c "grep -vx main tree.txt | paste -d/ - - | sort"
	assert_output "$(printf 'worker-%d/  work\n' 0 1 2 3)"
	for i in 0 1 2 3; do
		check within t.csv "worker-$i" main
	done
}

@test "fork: the parent, a forked child and an exec'd child land in one trace" {
	run rlprof-record -o t.csv -- "$W" fork
	assert_success
	parent=$(awk -F, '$1 == "op" && $6 == "parent" { print $2 }' t.csv)
	child=$(awk -F, '$1 == "op" && $6 == "forked-child" { print $2 }' t.csv)
	execd=$(awk -F, '$1 == "op" && $6 == "step" { print $2 }' t.csv | sort -u)
	[ -n "$parent" ] && [ -n "$child" ] && [ -n "$execd" ]
	[ "$parent" != "$child" ] && [ "$child" != "$execd" ] && [ "$parent" != "$execd" ]
	for p in "$child" "$execd"; do
		run awk -F, -v p="$p" '$1 == "process" && $2 == p { print $12 "|" $13 }' t.csv
		assert_output "$parent|exit 0"
	done
	# The child's pop of the range its parent opened is not a fault.
	run grep -c '^warning,' t.csv
	assert_output 0
	[ "$(awk -F, '$1 == "op" && $6 == "parent"' t.csv | wc -l)" -eq 1 ]
}

@test "fork: a chain of processes, each forking as it starts, all land in the trace" {
	# Each fork meets the new process's sampler thread starting up: no
	# record is lost or doubled, and no child inherits a lock held mid-work.
	run rlprof-record -o t.csv -- "$W" fork-chain 8
	assert_success
	prev= pids=()
	for g in 0 1 2 3 4 5 6 7 8; do
		run awk -F, -v n="gen-$g" '$1 == "op" && $6 == n { print $2 }' t.csv
		[ "${#lines[@]}" -eq 1 ] || fail "gen-$g: ${#lines[@]} rows"
		pid=$output
		run awk -F, -v p="$pid" '$1 == "process" && $2 == p { print $12 "|" $13 }' t.csv
		if [ -n "$prev" ]; then
			assert_output "$prev|exit 0"
		else
			[ "${#lines[@]}" -eq 1 ]
		fi
		prev=$pid
		pids+=("$pid")
	done
	[ "$(printf '%s\n' "${pids[@]}" | sort -u | wc -l)" -eq 9 ]
	run grep -c '^warning,' t.csv
	assert_output 0
}

@test "--sample: blocked time is found from outside as wait rows" {
	rlprof-record --cpu-sample 0 --sample 2 -o t.csv -- "$W" busy-sleep 5 60 3
	# Waiting is found in the sleeping ranges, and more there than in the
	# busy ones (where only the sampling period can smear some in).
	sleeping=$(check overlap t.csv wait sleep) busy=$(check overlap t.csv wait busy)
	awk -v s="$sleeping" -v b="$busy" 'BEGIN { exit !(s > b) }' ||
		fail "wait rows: $sleeping us in sleep ranges, $busy us in busy ranges"
	rlprof-record --cpu-sample 0 --sample 0 -o u.csv -- "$W" busy-sleep 5 60 1
	run grep -c ',wait,' u.csv
	assert_output 0
}

@test "--sample: processes that record nothing still get a row" {
	# The sleep is the workload: a process that lives long enough to be sampled.
	rlprof-record -o t.csv -- sh -c 'sleep 0.2; true'
	run awk -F, '$1 == "process" && $6 == "sleep 0.2" { print $13 }' t.csv
	assert_output ended
}
