#!/usr/bin/env bats
# rlprof-record: NVTX annotations of C programs (the built-in workload),
# threads, processes and blocked time.

load helpers

W=$RLKIT_BUILD/workloads/rlprof-workload
check() { python3 "$TOP/tests/workloads/trace-check.py" "$@"; }

setup() {
	cd "$BATS_TEST_TMPDIR" || return 1
	[ -x "$W" ] || skip "the workload was not built (no NVTX headers: install the CUDA toolkit)"
}

# in_range LOW HIGH: every line of stdin is a number within [LOW, HIGH].
in_range() {
	awk -v lo="$1" -v hi="$2" '{ n++; if ($1 < lo || $1 > hi) { print "out of range: " $1; bad = 1 } }
		END { if (!n) { print "no values"; exit 1 } exit bad }'
}

@test "NVTX push/pop: busy and sleep ranges last as long as the workload says" {
	run rlprof-record -o t.csv -- "$W" busy-sleep 20 30 5
	assert_success
	run check validate t.csv
	assert_success
	[ "$(check ms t.csv op busy | wc -l)" -eq 5 ]
	[ "$(check ms t.csv op sleep | wc -l)" -eq 5 ]
	# Lower bounds are exact; upper bounds leave room for a loaded machine.
	check ms t.csv op busy | in_range 20 60
	check ms t.csv op sleep | in_range 30 80
	check ms t.csv op step | in_range 50 150
}

@test "NVTX push/pop: nesting depth in the value column" {
	rlprof-record -o t.csv -- "$W" busy-sleep 0 0 2
	run check rows t.csv op
	assert_output "busy|||1|
sleep|||1|
step|||0|
busy|||1|
sleep|||1|
step|||0|"
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
	assert_output "named-main||||"
	check ms t.csv op start-end | in_range 1 50
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
	check ms t.csv op work | in_range 10 200
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

@test "--sample: blocked time is found from outside as wait rows" {
	rlprof-record --sample 2 -o t.csv -- "$W" busy-sleep 5 60 3
	pid=$(awk -F, '$1 == "op" { print $2; exit }' t.csv)
	run awk -F, -v p="$pid" '$1 == "cpu" && $7 == "wait" && $2 == p { w += $5 - $4 } END { print (w >= 120e6 && w <= 400e6) ? "ok" : w }' t.csv
	assert_output ok
	rlprof-record --sample 0 -o u.csv -- "$W" busy-sleep 5 60 1
	run grep -c ',wait,' u.csv
	assert_output 0
}

@test "--sample: processes that record nothing still get a row" {
	rlprof-record -o t.csv -- sh -c 'sleep 0.2; true'
	run awk -F, '$1 == "process" && $6 == "sleep 0.2" { print $13 }' t.csv
	assert_output ended
}
