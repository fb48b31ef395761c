#!/usr/bin/env bats
# rlprof-report on traces that rlprof-record made of the project's own
# workloads: the pipeline end to end, with breakdowns checked against the
# work the workloads are known to do.

load helpers

WORKLOAD=$RLKIT_BUILD/workloads/rlprof-workload

setup() {
	cd "$BATS_TEST_TMPDIR" || return 1
	[ -x "$WORKLOAD" ] || fail "the built-in workload was not built: no NVTX headers (make deps installs them)"
	# LeakSanitizer's exit-time check runs in a process of its own, which
	# the recorder would rightly show; these tests count processes.
	export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
}

check() { python3 "$TOP/tests/workloads/trace-check.py" "$@"; }

# us OPERATION [RESOURCE CATEGORY] < report.csv: microseconds of the rows of
# OPERATION (with that resource and category), to the nanosecond.
us() {
	awk -F, -v o="$1" -v r="${2-}" -v c="${3-}" \
		'NR > 1 && $2 == o && (r == "" || $3 == r && $4 == c) { t += $5 } END { printf "%.3f\n", t }'
}

# same A B: the two sums of microseconds agree to the nanosecond (up to the
# rounding of adding them as decimals).
same() {
	awk -v a="$1" -v b="$2" 'BEGIN { d = a - b; exit !(d < 0.002 && d > -0.002) }' ||
		fail "$3: $1 us against $2 us"
}

# Timings are compared within one run (which category is larger, what adds
# up to what), never with the milliseconds the workload asked for.
@test "busy-sleep: busy time is CPU native, sleeping time is waiting, rows add up" {
	rlprof-record -o t.csv -- "$WORKLOAD" busy-sleep 60 60 4
	run rlprof-report --strict -f csv t.csv
	assert_success
	echo "$output" > r.csv
	busy=$(us busy CPU native < r.csv) busy_wait=$(us busy none wait < r.csv)
	sleep_wait=$(us sleep none wait < r.csv) sleep_cpu=$(us sleep CPU native < r.csv)
	awk -v a="$busy_wait" -v b="$busy" 'BEGIN { exit !(a < b) }' ||
		fail "busy: $busy_wait us waiting, $busy us on the CPU"
	awk -v a="$sleep_cpu" -v b="$sleep_wait" 'BEGIN { exit !(a < b) }' ||
		fail "sleep: $sleep_cpu us on the CPU, $sleep_wait us waiting"
	awk -v a="$sleep_cpu" -v b="$busy" 'BEGIN { exit !(a < b) }' ||
		fail "sleep's CPU time $sleep_cpu us is not below busy's $busy us"
	# busy and sleep hold no other range: their rows add up to their ranges.
	same "$(us busy < r.csv)" "$(check us t.csv op busy)" "busy rows against busy ranges"
	same "$(us sleep < r.csv)" "$(check us t.csv op sleep)" "sleep rows against sleep ranges"
	# All rows add up to the profiled wall time (from the process's first
	# to its last event, rlprof-report(1)), and to 100%.
	same "$(awk -F, 'NR > 1 { t += $5 } END { printf "%.3f", t }' r.csv)" \
		"$(check wall t.csv)" "all rows against the profiled wall time"
	run awk -F, 'NR > 1 { p[$1] += $6 } END { for (k in p) printf "%.0f\n", p[k] }' r.csv
	assert_output 100
}

@test "threads: every thread's work is an operation; json and chrome parse" {
	rlprof-record -o t.csv -- "$WORKLOAD" threads 3 40
	run rlprof-report --strict -f csv t.csv
	assert_success
	assert_line --partial ",work,CPU,native,"
	rlprof-report -f json t.csv > r.json
	python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); assert len(d["processes"]) == 1' r.json
	rlprof-report -f chrome t.csv > r.chrome.json
	python3 - r.chrome.json <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
ev = d["traceEvents"] if isinstance(d, dict) else d
tids = {e["tid"] for e in ev if e.get("ph") == "X" and e.get("name") == "work"}
assert len(tids) == 3, tids
PY
}

@test "fork: the parent and both children get a breakdown of their own" {
	rlprof-record -o t.csv -- "$WORKLOAD" fork
	run rlprof-report -f csv -b process t.csv
	assert_success
	[ "$(tail -n +2 <<< "$output" | cut -d, -f1 | sort -u | wc -l)" -ge 3 ] ||
		fail "fewer than 3 processes: $output"
}

@test "--format svg: a recorded trace gives a chart that parses as XML" {
	rlprof-record -o t.csv -- "$WORKLOAD" busy-sleep 10 10 2
	rlprof-report -f svg t.csv > r.svg
	python3 -c 'import sys, xml.dom.minidom as m; d = m.parse(sys.argv[1]); assert d.documentElement.tagName == "svg"' r.svg
	grep -q '>busy<' r.svg
}

@test "python: a CartPole loop's step operation is mostly simulator time" {
	skip_unless_python gymnasium numpy nvtx
	cat > cp.py <<'PY'
import gymnasium as gym, numpy as np, nvtx
env = gym.make("CartPole-v1")
obs, _ = env.reset(seed=0)
for i in range(2000):
    with nvtx.annotate("inference"):
        a = int(np.dot(np.asarray(obs), np.ones(4)) > 0)
    with nvtx.annotate("step"):
        obs, r, term, trunc, _ = env.step(a)
    if term or trunc:
        obs, _ = env.reset()
PY
	# The profile hook counts env.step() as simulator (CartPole's step is
	# Python code: sampling counts it as python).
	rlprof-record --cpu-sample 0 -o t.csv -- python3 cp.py
	run rlprof-report -f csv t.csv
	assert_success
	echo "$output" > r.csv
	sim=$(awk -F, '$2 == "step" && $4 == "simulator" { t += $5 } END { print int(t) }' r.csv)
	all=$(awk -F, '$2 == "step" { t += $5 } END { print int(t) }' r.csv)
	[ "$sim" -gt $((all / 2)) ] || fail "step: simulator $sim us of $all us"
	grep -q ',inference,CPU,backend,' r.csv || fail "no backend time in inference"
}
