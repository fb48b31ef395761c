#!/usr/bin/env bats
# rlprof-record: CPU categories from the code that runs (sampled
# instruction pointers and the category map), and each thread's time split
# into on a CPU, runnable and blocked.  Workloads whose truth is known:
# tests/workloads/phases.py (Python) and rlprof-workload (C).

load helpers

cpu_check() { python3 "$TOP/tests/workloads/cpu-check.py" "$@"; }

setup() {
	cd "$BATS_TEST_TMPDIR" || return 1
	[ -e "$RLKIT_BUILD/lib/rlkit/librlprof-inject.so" ] ||
		fail "the injection library was not built"
	W=$RLKIT_BUILD/workloads/rlprof-workload
}

# busy N: start N processes that spin on CPU 0; their pids in BUSY.
busy() {
	local i
	BUSY=
	for i in $(seq "$1"); do
		taskset -c 0 sh -c 'while :; do :; done' &
		BUSY="$BUSY $!"
	done
}

teardown() {
	local p
	for p in ${BUSY:-}; do
		kill "$p" 2>/dev/null
	done
	[ -z "${BUSY:-}" ] || wait_gone $BUSY
}

# The pid of the traced Python workload (the process that ran phases.py).
workload_pid() {
	awk -F, '$1 == "process" && $6 ~ /phases\.py/ && $13 == "exit 0" { print $2 }' "$1"
}

@test "--cpu-sample: numpy, pure Python, ALE, sleep and pipe phases are each >= 90% in their category" {
	skip_unless_python numpy ale_py
	OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 run rlprof-record -o t.csv -- \
		python3 "$TOP/tests/workloads/phases.py" ru.txt numpy pyloop ale sleep pipe
	assert_success
	cpu_check t.csv shares
	# Shares of the user CPU time (cpu-check.py: the kernel's user/system
	# split is by its ticks, noisy on a busy machine).
	cpu_check t.csv expect numpy backend 0.9
	cpu_check t.csv expect pyloop python 0.9
	cpu_check t.csv expect ale simulator 0.9
	cpu_check t.csv expect sleep wait 0.9
	cpu_check t.csv expect pipe wait 0.9
}

@test "--cpu-sample: the interpreter's code counts as numpy's when numpy calls it, as python when Python code runs it" {
	skip_unless_python numpy
	OMP_NUM_THREADS=1 run rlprof-record -o t.csv -- \
		python3 "$TOP/tests/workloads/phases.py" ru.txt npobj npcall
	assert_success
	cpu_check t.csv shares
	# tolist() spends a good part of its time making (small) ints in the
	# interpreter's code: counted as python, that is about 20% python.
	cpu_check t.csv expect npobj backend+system 0.85
	cpu_check t.csv at-most npobj python 0.12
	# Python code that a numpy ufunc calls back is python.
	cpu_check t.csv expect npcall python 0.9
}

@test "--cpu-sample: beside busy processes, runnable time appears and CPU time is the kernel's user+sys within 2%" {
	skip_unless_python numpy
	busy 2
	OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 run taskset -c 0 rlprof-record -o t.csv -- \
		python3 "$TOP/tests/workloads/phases.py" ru.txt numpy pyloop sleep
	assert_success
	pid=$(workload_pid t.csv)
	[ -n "$pid" ] || fail "no process row of the workload"
	cpu=$(cpu_check t.csv cpu "$pid")
	kernel=$(cat ru.txt)
	awk -v a="$cpu" -v b="$kernel" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= 0.02 * b) }' ||
		fail "trace: $cpu ns of CPU, kernel: $kernel ns"
	cpu_check t.csv expect pyloop runnable 0.2
	# Preempted often, a thread gets more of the kernel's tick-based
	# system time: shares of the user CPU time are asserted.
	cpu_check t.csv expect numpy backend 0.9
	cpu_check t.csv expect pyloop python 0.9
	cpu_check t.csv expect sleep wait 0.9
}

@test "--cpu-sample: a C program's own code is native, its sleeps blocked, per thread" {
	[ -x "$W" ] || skip "the workload needs the NVTX headers"
	run rlprof-record -o t.csv -- "$W" busy-sleep 60 40 3
	assert_success
	cpu_check t.csv expect busy native 0.9
	# Woken up, a thread may wait for a CPU on a loaded machine.
	cpu_check t.csv expect sleep wait+runnable 0.9
	run rlprof-record -o th.csv -- "$W" threads 3 60
	assert_success
	cpu_check th.csv expect work native 0.9
	[ "$(awk -F, '$1 == "cpu" && $7 == "native" { print $3 }' th.csv | sort -u | wc -l)" -ge 4 ] ||
		fail "want native time on the main thread and each of 3 workers"
}

@test "--cpu-timer perf: perf events sample the same categories, in Python and in C" {
	skip_unless_python numpy
	OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 run rlprof-record --cpu-timer perf -o t.csv -- \
		python3 "$TOP/tests/workloads/phases.py" ru.txt numpy pyloop sleep
	assert_success
	cpu_check t.csv shares
	cpu_check t.csv expect numpy backend 0.9
	cpu_check t.csv expect pyloop python 0.9
	cpu_check t.csv expect sleep wait 0.9
	[ -x "$W" ] || skip "the workload needs the NVTX headers"
	RLPROF_CPU_TIMER=posix run rlprof-record --cpu-timer perf -o c.csv -- "$W" busy-sleep 60 40 2
	assert_success
	cpu_check c.csv expect busy native 0.9
	cpu_check c.csv expect sleep wait+runnable 0.9
}

@test "--categories: the map decides, as data" {
	[ -x "$W" ] || skip "the workload needs the NVTX headers"
	# A rule of one's own first, then the installed map (its clock reads
	# run in the vDSO and the C library, which inherit).
	{ echo '*/rlprof-workload simulator'; cat "$RLKIT_BUILD/share/rlkit/rlprof-categories"; } > map
	run rlprof-record --categories map -o t.csv -- "$W" busy-sleep 60 20 2
	assert_success
	cpu_check t.csv expect busy simulator 0.9
}

@test "--cpu-sample: a pointer into code kept as data on the stack is no caller" {
	[ -x "$W" ] || skip "the workload needs the NVTX headers"
	# The workload's own code works for its caller here, and the math
	# library is a simulator: only a return address may name the caller,
	# and the loop's frame holds pointers to cos() as data.
	{ echo '*/rlprof-workload inherit'; echo '*/libm.so* simulator'
	  cat "$RLKIT_BUILD/share/rlkit/rlprof-categories"; } > map
	run rlprof-record --categories map -o t.csv -- "$W" code-pointers 300
	assert_success
	cpu_check t.csv shares
	cpu_check t.csv at-most busy simulator 0.1
	cpu_check t.csv expect busy native 0.9
}

@test "--categories: a malformed or missing map is an error before the command runs" {
	printf '*/x.so backend\n*/y.so fast\n' > bad
	run rlprof-record --categories bad -o t.csv -- touch ran
	assert_failure 1
	assert_output "rlprof-record: error: 'bad' line 2: not a rule (PATTERN CATEGORY)"
	[ ! -e ran ] && [ ! -e t.csv ]
	run rlprof-record --categories nosuch -o t.csv -- touch ran
	assert_failure 1
	assert_output "rlprof-record: error: cannot read 'nosuch': No such file or directory"
	[ ! -e ran ]
}

@test "--full-detail: a row per CPU sample, with its thread, category and file; the report does not change" {
	skip_unless_python numpy
	OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 run rlprof-record --full-detail -o t.csv -- \
		python3 "$TOP/tests/workloads/phases.py" ru.txt numpy pyloop
	assert_success
	cpu_check t.csv samples numpy backend 0.8 blas
	cpu_check t.csv samples pyloop python 0.8 libpython
	# Every sample row is of a thread that the trace has.
	run awk -F, '$1 == "thread" { t[$2 "," $3] = 1 } $1 == "sample" { s[++n] = $2 "," $3 }
		END { for (i = 1; i <= n; i++) if (!t[s[i]]) bad++; print n + 0, bad + 0 }' t.csv
	[ "${output% *}" -gt 50 ] && [ "${output#* }" -eq 0 ] || fail "samples, rows without a thread: $output"
	grep -v '^sample,' t.csv > without.csv
	rlprof-report t.csv > a.txt
	rlprof-report without.csv > b.txt
	cmp a.txt b.txt
	# JSON Lines carry them too.
	run rlprof-record -f jsonl --full-detail -o t.jsonl -- python3 -c 'sum(range(3000000))'
	assert_success
	grep -q '^{"kind":"sample","pid":[0-9]*,"tid":[0-9]*,.*"category":"python","value":[0-9]*}$' t.jsonl
}

@test "--cpu-sample: bad values are usage errors; 0 turns sampling off" {
	run rlprof-record --full-detail --cpu-sample 0 -o t.csv -- true
	assert_failure 2
	assert_output --partial "--full-detail needs CPU sampling, which --cpu-sample 0 turns off"
	run rlprof-record --cpu-sample 10 -o t.csv -- true
	assert_failure 2
	run rlprof-record --cpu-sample x -o t.csv -- true
	assert_failure 2
	run rlprof-record --cpu-timer hpet -o t.csv -- true
	assert_failure 2
	assert_output --partial "--cpu-timer wants posix or perf, not 'hpet'"
	[ ! -e t.csv ]
	[ -x "$W" ] || skip "the workload needs the NVTX headers"
	run rlprof-record --cpu-sample 0 -o t.csv -- "$W" busy-sleep 5 5 1
	assert_success
	[ "$(awk -F, '$1 == "cpu" && ($7 == "native" || $7 == "runnable")' t.csv | wc -l)" -eq 0 ] ||
		fail "cpu rows of the sampler with --cpu-sample 0"
}
