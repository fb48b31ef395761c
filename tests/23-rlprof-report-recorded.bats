#!/usr/bin/env bats
# rlprof-report on traces that rlprof-record made of the project's own
# workloads: the pipeline end to end, with breakdowns checked against the
# work the workloads are known to do.

load helpers

WORKLOAD=$RLKIT_BUILD/workloads/rlprof-workload

setup() {
	cd "$BATS_TEST_TMPDIR" || return 1
	[ -x "$WORKLOAD" ] || skip "no built-in workload (it needs the NVTX v3 headers of the CUDA toolkit)"
	# LeakSanitizer's exit-time check runs in a process of its own, which
	# the recorder would rightly show; these tests count processes.
	export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
}

# ms OPERATION RESOURCE CATEGORY < report.csv: milliseconds of that row.
ms() {
	awk -F, -v o="$1" -v r="$2" -v c="$3" \
		'$2 == o && $3 == r && $4 == c { t += $5 } END { printf "%d\n", t / 1000 }'
}

@test "busy-sleep: busy time is CPU native, sleeping time is waiting, rows add up to 100%" {
	rlprof-record -o t.csv -- "$WORKLOAD" busy-sleep 60 60 4
	run rlprof-report --strict -f csv t.csv
	assert_success
	echo "$output" > r.csv
	busy=$(ms busy CPU native < r.csv) sleep=$(ms sleep none wait < r.csv)
	# 4 x 60 ms of each; the noisy machine gets a wide margin, the
	# categories must still be the right way round.
	[ "$busy" -ge 180 ] && [ "$busy" -le 400 ] || fail "busy CPU native: $busy ms"
	[ "$sleep" -ge 150 ] && [ "$sleep" -le 400 ] || fail "sleep waiting: $sleep ms"
	[ "$(ms busy none wait < r.csv)" -lt $((busy / 3)) ] || fail "busy counted as waiting"
	[ "$(ms sleep CPU native < r.csv)" -lt $((sleep / 3)) ] || fail "sleep counted as CPU"
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
	rlprof-record -o t.csv -- python3 cp.py
	run rlprof-report -f csv t.csv
	assert_success
	echo "$output" > r.csv
	sim=$(awk -F, '$2 == "step" && $4 == "simulator" { t += $5 } END { print int(t) }' r.csv)
	all=$(awk -F, '$2 == "step" { t += $5 } END { print int(t) }' r.csv)
	[ "$sim" -gt $((all / 2)) ] || fail "step: simulator $sim us of $all us"
	grep -q ',inference,CPU,backend,' r.csv || fail "no backend time in inference"
}
