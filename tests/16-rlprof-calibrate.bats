#!/usr/bin/env bats
# rlprof-calibrate and rlprof-report --calibration: the correction's
# arithmetic on fixtures (clamping, sources, every format), the calibration
# file's schema and errors, and the mechanics of the runs, by counts.

load helpers

R=$TOP/tests/data/calibrate
W=$RLKIT_BUILD/workloads/rlprof-workload
CSV_HEADER=process,operation,resource,category,time_us,percent,calls,exclusive_ns,inclusive_ns,mean_ns,p50_ns,p95_ns,max_ns

# cal.json with python-expression edits: cal EXPR > file (c is the dict).
cal() {
	python3 - "$R/cal.json" "$1" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))
exec(sys.argv[2])
print(json.dumps(c, indent=1))
PY
}

@test "--calibration: each source's cost goes half to the operation, half to its caller, out of CPU time" {
	# 3 op rows x 100 ns + (3 boundaries + 10 us / 1 ms of samples) x 1000
	# ns = 3310 ns; weights: inner 2 calls -> 1 to inner, 1 to outer; outer
	# 1 call -> 0.5 to outer, 0.5 to [unannotated]: inner 1103, outer 1655,
	# and [unannotated]'s 552 ns, which it has no time for, spill to the
	# others by weight (1 : 1.5): outer 331, inner 221.
	run --separate-stderr rlprof-report -f csv --calibration "$R/cal.json" "$R/trace.csv"
	assert_success
	assert_output "$CSV_HEADER
1,outer,CPU,python,4.014,60.00,1,4014,10000,10000,10000,10000,10000
1,inner,CPU,python,2.676,40.00,2,2676,4000,2000,2000,2000,2000
all,[corrected],,,3.310,33.10,,,,,,,"
	[ -z "$stderr" ] || fail "unexpected warnings: $stderr"
}

@test "--calibration: without it the same trace is uncorrected and has no corrected row" {
	run rlprof-report -f csv "$R/trace.csv"
	assert_success
	assert_output "$CSV_HEADER
1,outer,CPU,python,6.000,60.00,1,6000,10000,10000,10000,10000,10000
1,inner,CPU,python,4.000,40.00,2,4000,4000,2000,2000,2000,2000"
}

@test "--calibration: cpu rows cost the Python hook when the trace's cpu_sample_us is 0" {
	sed 's/^meta,,,,,cpu_sample_us,,,,,,,1000$/meta,,,,,cpu_sample_us,,,,,,,0/' "$R/trace.csv" > t.csv
	grep -q 'cpu_sample_us,,,,,,,0$' t.csv
	# 300 + 2000 = 2300 ns: outer 1150, inner 767, [unannotated] 383, which
	# spill: outer 230, inner 153.
	run rlprof-report -f json --calibration "$R/cal.json" t.csv
	assert_success
	python3 - "$output" <<'PY'
import json, sys
d = json.loads(sys.argv[1])
c = d["correction"]
assert c["removed_ns"] == 2300 and c["clamped_ns"] == 0, c
assert c["wall_ns"] == 10000, c
assert (c["annotation_events"], c["python_hook_events"], c["cpu_sampling_events"]) == (3, 1, 0), c
assert c["text"].startswith("corrected: 2.30 us of profiler cost removed (23.00 % of 10.0 us profiled;"), c
assert c["calibration"].endswith("cal.json"), c
rows = {r["operation"]: r for r in d["rows"]}
assert rows["outer"]["time_us"] == 4.62 and rows["inner"]["time_us"] == 3.08, rows
assert "[corrected]" not in rows
assert d["processes"][0]["wall_us"] == 7.7, d["processes"]
PY
}

@test "--calibration: clamped, no row goes below zero, CPU first then wait" {
	printf '%s\n' "kind,pid,tid,start_ns,end_ns,name,category,domain,device,stream,correlation,value,detail" \
		"meta,,,,,cpu_sample_us,,,,,,,0" \
		"cpu,7,7,0,4000,,python,,,,,," "cpu,7,7,4000,10000,,wait,,,,,," \
		"process,7,,0,10000,x,,,,,,1,exit 0" > t.csv
	# 2 cpu rows of the hook x 2500 ns: all of python (4000), then 1000 of wait.
	cal 'c["sources"]["python-hook"]["ns_per_event"] = 2500' > c.json
	run rlprof-report -f csv --calibration c.json t.csv
	assert_success
	assert_output "$CSV_HEADER
7,[unannotated],none,wait,5.000,100.00,,5000,,,,,
all,[corrected],,,5.000,50.00,,,,,,,"
	# Far more than the process has: everything goes, the rest is clamped.
	cal 'c["sources"]["python-hook"]["ns_per_event"] = 1e9' > c.json
	run rlprof-report -f json --calibration c.json t.csv
	assert_success
	python3 - "$output" <<'PY'
import json, sys
d = json.loads(sys.argv[1])
c = d["correction"]
assert c["removed_ns"] == 10000 and c["clamped_ns"] == 2e9 - 10000, c
assert all(r["time_us"] >= 0 for r in d["rows"]), d["rows"]
assert ", 2.00 s clamped" in c["text"], c["text"]
PY
}

@test "--calibration: the runnable time that the removed CPU time waited for goes with it" {
	printf '%s\n' "kind,pid,tid,start_ns,end_ns,name,category,domain,device,stream,correlation,value,detail" \
		"meta,,,,,cpu_sample_us,,,,,,,0" \
		"cpu,7,7,0,4000,,python,,,,,," "cpu,7,7,4000,10000,,runnable,,,,,," \
		"process,7,,0,10000,x,,,,,,1,exit 0" > t.csv
	# 2 cpu rows of the hook x 500 ns = 1000 ns of CPU; the thread waited
	# 6000 / 4000 ns for each ns on a CPU: 1500 ns of runnable go too.
	cal 'c["sources"]["python-hook"]["ns_per_event"] = 500' > c.json
	run rlprof-report -f csv --calibration c.json t.csv
	assert_success
	assert_output "$CSV_HEADER
7,[unannotated],CPU,python,3.000,40.00,,7500,,,,,
7,[unannotated],none,runnable,4.500,60.00,,7500,,,,,
all,[corrected],,,2.500,25.00,,,,,,,"
}

@test "--calibration: negative and unmeasured costs count as 0" {
	cal 'c["sources"]["annotations"]["ns_per_event"] = -50; c["sources"]["cpu-sampling"]["ns_per_event"] = None' > c.json
	run rlprof-report -f csv --calibration c.json "$R/trace.csv"
	assert_success
	assert_line --index 1 "1,outer,CPU,python,6.000,60.00,1,6000,10000,10000,10000,10000,10000"
	assert_line "all,[corrected],,,0.000,0.00,,,,,,,"
}

@test "--calibration: the table and svg say corrected, and by how much; jsonl ends with the corrected row" {
	run rlprof-report -f table --calibration "$R/cal.json" "$R/trace.csv"
	assert_success
	assert_line "corrected: 3.31 us of profiler cost removed (33.10 % of 10.0 us profiled; 3 annotations, 3 cpu-sampling events), calibration '$R/cal.json'"
	run rlprof-report -f svg --calibration "$R/cal.json" "$R/trace.csv"
	assert_success
	[[ $output == *'class="corrected">corrected: 3.31 us of profiler cost removed'* ]] || fail "$output"
	python3 -c 'import sys, xml.dom.minidom; xml.dom.minidom.parseString(sys.stdin.read())' <<< "$output"
	run rlprof-report -f jsonl --calibration "$R/cal.json" "$R/trace.csv"
	assert_success
	python3 - "$output" <<'PY'
import json, sys
last = json.loads(sys.argv[1].splitlines()[-1])
assert last["process"] == "all" and last["operation"] == "[corrected]" and last["time_us"] == 3.31, last
PY
}

@test "--calibration: by category, process and phase, the corrected rows add up to the corrected wall" {
	for by in category process operation; do
		run rlprof-report -f json -b $by --calibration "$R/cal.json" "$R/trace.csv"
		assert_success
		python3 - "$output" <<'PY'
import json, sys
d = json.loads(sys.argv[1])
total = round(sum(r["time_us"] for r in d["rows"]), 3)
assert total == 6.69, (total, d["rows"])
PY
	done
}

@test "--calibration: another host, recorder or command is a warning naming the difference" {
	cal 'c["machine"]["host"] = "elsewhere"; c["recorder"] = "rlprof-record 9.9.9"; c["command"] = ["other"]' > c.json
	run --separate-stderr rlprof-report -f csv --calibration c.json "$R/trace.csv"
	assert_success
	assert_line "all,[corrected],,,3.310,33.10,,,,,,,"
	[[ $stderr == *"rlprof-report: warning: calibration 'c.json' is for another host 'elsewhere' (the trace's: 'h')"* ]] || fail "$stderr"
	[[ $stderr == *"another recorder 'rlprof-record 9.9.9' (the trace's: 'rlprof-record 0.1.0')"* ]] || fail "$stderr"
	[[ $stderr == *"another command 'other' (the trace's: 'train --steps 2')"* ]] || fail "$stderr"
}

@test "--calibration: a malformed file is one error line with its line or field, exit 1" {
	printf '{\n  "format": "rlprof-calibration",\n  "version": 1,,\n}\n' > bad.json
	run --separate-stderr rlprof-report --calibration bad.json "$R/trace.csv"
	[ "$status" -eq 1 ]
	[ -z "$output" ]
	[[ $stderr == "rlprof-report: error: "*"line 3"* ]] || fail "$stderr"
	[ "$(wc -l <<< "$stderr")" -eq 1 ]
	for edit in 'del c["sources"]' 'c["version"] = 2' 'c["sources"]["annotations"]["ns_per_event"] = "x"' \
		    'c["sources"]["annotations"]["events"] = [1]' 'c["command"] = []' 'c["format"] = "other"'; do
		cal "$edit" > c.json
		run --separate-stderr rlprof-report --calibration c.json "$R/trace.csv"
		[ "$status" -eq 1 ] || fail "$edit: exit $status"
		[[ $stderr == "rlprof-report: error: 'c.json': "* ]] || fail "$edit: $stderr"
		[ "$(wc -l <<< "$stderr")" -eq 1 ] || fail "$edit: $stderr"
	done
	run --separate-stderr rlprof-report --calibration c.json "$R/trace.csv"
	[[ $stderr == *"'c.json': format: not \"rlprof-calibration\""* ]] || fail "$stderr"
	run --separate-stderr rlprof-report --calibration missing.json "$R/trace.csv"
	[ "$status" -eq 1 ]
	[[ $stderr == "rlprof-report: error: "*"missing.json"* ]] || fail "$stderr"
}

@test "--calibration: not with --tree, --compare, chrome or perfetto (usage, exit 2)" {
	for args in "--tree" "--compare $R/trace.csv" "-f chrome" "-f perfetto"; do
		run --separate-stderr rlprof-report $args --calibration "$R/cal.json" "$R/trace.csv"
		[ "$status" -eq 2 ] || fail "$args: exit $status"
		[[ $stderr == *"--calibration corrects breakdowns"* ]] || fail "$args: $stderr"
	done
}

# --- the runs ---

@test "rlprof-calibrate: the file has every documented field, runs and event counts per source" {
	[ -x "$W" ] || fail "the workload was not built: no NVTX headers (make deps installs them)"
	run --separate-stderr rlprof-calibrate -n 2 -o cal.json -- "$W" small-ops 300 10
	assert_success
	[[ $stderr == *"rlprof-calibrate: note: annotations: "*" ns per event, the median of 2 runs (standard error "*" ns; mean "*" ns, spread "*" ns; 900 events in the first)"* ]] || fail "$stderr"
	[[ $stderr == *"rlprof-calibrate: note: python-hook: no events, not measured"* ]] || fail "$stderr"
	[[ $stderr != *$'\r'* ]] || fail "a progress bar in a pipe"
	python3 - cal.json "$W" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))
assert set(c) == {"format", "version", "recorder", "machine", "command", "created_ns", "repeat",
                  "uninstrumented", "sources"}, set(c)
assert c["format"] == "rlprof-calibration" and c["version"] == 1 and c["repeat"] == 2
assert c["recorder"].startswith("rlprof-record ")
assert set(c["machine"]) == {"host", "kernel", "arch", "cpu_model", "cpus"}
assert all(c["machine"][k] for k in c["machine"]), c["machine"]
assert c["command"] == [sys.argv[2], "small-ops", "300", "10"]
assert set(c["uninstrumented"]) == {"runs_ns", "cpu_ns", "median_ns", "median_cpu_ns"}
assert len(c["uninstrumented"]["runs_ns"]) == 2 and c["uninstrumented"]["median_ns"] > 0
assert len(c["uninstrumented"]["cpu_ns"]) == 2 and c["uninstrumented"]["median_cpu_ns"] > 0
s = c["sources"]
assert set(s) == {"annotations", "python-hook", "cpu-sampling"}
keys = {"runs_ns", "cpu_ns", "events", "median_ns", "median_cpu_ns", "ns_per_event",
        "mean_ns_per_event", "spread_ns", "samples"}
assert all(set(v) == keys for v in s.values()), s
# 300 x (step, compute, update)
assert s["annotations"]["events"] == [900, 900] and s["annotations"]["samples"] == 2
# The sampler's events: the same boundaries, and its samples.
assert all(e >= 900 for e in s["cpu-sampling"]["events"]), s["cpu-sampling"]
assert isinstance(s["annotations"]["ns_per_event"], float) and s["annotations"]["spread_ns"] >= 0
# A C program: one hook run, no cpu rows, no cost.
assert s["python-hook"]["events"] == [0] and s["python-hook"]["ns_per_event"] is None
assert len(s["cpu-sampling"]["runs_ns"]) == 2 and all(e > 0 for e in s["cpu-sampling"]["events"])
PY
	# The file is one the report reads.
	rlprof-record -o t.csv -- "$W" small-ops 300 10
	run rlprof-report -f csv --calibration cal.json t.csv
	assert_success
	assert_line --regexp '^all,\[corrected\],,,'
}

@test "rlprof-calibrate: a gymnasium CartPole loop annotated per step, the hook measured on its own" {
	skip_unless_python gymnasium
	# The uninstrumented runs import rlprof from the toolkit's folder too.
	run --separate-stderr env -u PYTHONPATH rlprof-calibrate -n 2 -o cal.json -- \
		python3 "$TOP/bench/calibrate-cartpole.py" 300
	assert_success
	python3 - cal.json <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))["sources"]
assert s["annotations"]["events"] == [300, 300], s["annotations"]
assert len(s["python-hook"]["events"]) == 2 and min(s["python-hook"]["events"]) > 0, s["python-hook"]
assert s["python-hook"]["ns_per_event"] is not None
assert min(s["cpu-sampling"]["events"]) >= 300, s["cpu-sampling"]
PY
}

@test "rlprof-calibrate: without -n, 5 to 20 repeats, until the correction is known well enough" {
	[ -x "$W" ] || fail "the workload was not built"
	run --separate-stderr rlprof-calibrate -o cal.json -- "$W" small-ops 300 10
	assert_success
	[[ $stderr == *"note: the correction of a run with the default sources is known to within "*" (standard error; "*" % of the command's CPU time)"* ]] || fail "$stderr"
	python3 - cal.json "$stderr" <<'PY'
import json, re, sys
c = json.load(open(sys.argv[1]))
n = c["repeat"]
assert 5 <= n <= 20 and all(len(s["runs_ns"]) == n for s in c["sources"].values() if s["events"][0]), c
pct = float(re.search(r"standard error; ([0-9.]+) %", sys.argv[2]).group(1))
# It stopped early only because the correction was known to 1 %.
assert n == 20 or pct <= 1.0, (n, pct)
PY
}

@test "rlprof-calibrate --validate: the figures in csv, json and the file" {
	[ -x "$W" ] || fail "the workload was not built"
	run --separate-stderr rlprof-calibrate -n 1 --validate -f json -o cal.json -- "$W" small-ops 100 10
	assert_success
	python3 - "$output" cal.json <<'PY'
import json, sys
v = json.loads(sys.argv[1])
assert set(v) == {"uninstrumented_ms", "instrumented_ms", "corrected_ms", "removed_ms",
                  "overhead_pct", "error_pct", "uninstrumented_cpu_ms", "instrumented_cpu_ms",
                  "corrected_cpu_ms", "cpu_overhead_pct", "cpu_error_pct", "removed_cpu_ms"}, v
assert abs(v["instrumented_ms"] - v["removed_ms"] - v["corrected_ms"]) < 0.002, v
assert abs(v["instrumented_cpu_ms"] - v["removed_cpu_ms"] - v["corrected_cpu_ms"]) < 0.002, v
assert 0 <= v["removed_cpu_ms"] <= v["removed_ms"], v
c = json.load(open(sys.argv[2]))
f = c["validation"]
assert set(f) == {"runs", "uninstrumented_ns", "instrumented_ns", "corrected_ns", "removed_ns", "clamped_ns",
                  "overhead_pct", "error_pct", "uninstrumented_cpu_ns", "instrumented_cpu_ns",
                  "corrected_cpu_ns", "cpu_overhead_pct", "cpu_error_pct", "removed_cpu_ns"}, f
assert f["runs"] == 1 and f["corrected_ns"] == f["instrumented_ns"] - f["removed_ns"], f
# Something is taken off exactly when a source was measured to cost time
# (a run of a few ms can measure no cost: the instrumented run was faster).
costly = any((x["ns_per_event"] or 0) > 0 and max(x["events"]) > 0 for x in c["sources"].values())
assert (f["removed_ns"] + f["clamped_ns"] > 0) == costly, (c["sources"], f)
assert f["removed_ns"] >= 0 and f["clamped_ns"] >= 0, f
PY
	# --repeat pairs of validation runs, the figures their medians.
	run --separate-stderr rlprof-calibrate -n 3 --validate --force -f json -o cal.json -- "$W" small-ops 100 10
	assert_success
	python3 - cal.json <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))
f = c["validation"]
assert f["runs"] == 3 and len(c["uninstrumented"]["runs_ns"]) == 3, f
assert f["removed_ns"] >= 0 and f["instrumented_ns"] > 0 and f["corrected_ns"] > 0, f
PY
	run --separate-stderr rlprof-calibrate -n 1 --validate --force -o cal.json -- "$W" small-ops 100 10
	assert_success
	assert_line --index 0 "uninstrumented_ms,instrumented_ms,corrected_ms,removed_ms,overhead_pct,error_pct,uninstrumented_cpu_ms,instrumented_cpu_ms,corrected_cpu_ms,cpu_overhead_pct,cpu_error_pct,removed_cpu_ms"
	[ "${#lines[@]}" -eq 2 ]
}

@test "rlprof-calibrate: the command's output goes to --log, or to ours with --show-output, else nowhere" {
	run --separate-stderr rlprof-calibrate -n 1 -o a.json -- sh -c 'echo hello; echo oops >&2'
	assert_success
	[ -z "$output" ]
	[[ $stderr != *hello* && $stderr != *oops* ]] || fail "$stderr"
	# One repeat: uninstrumented, annotations, python-hook, cpu-sampling.
	run rlprof-calibrate -n 1 --log out.log -o b.json -- sh -c 'echo hello; echo oops >&2'
	assert_success
	[ "$(grep -c '^hello$' out.log)" -eq 4 ]
	[ "$(grep -c '^oops$' out.log)" -eq 4 ]
	run --separate-stderr rlprof-calibrate -n 1 --show-output -o c.json -- sh -c 'echo hello'
	assert_success
	[ "$(grep -c '^hello$' <<< "$output")" -eq 4 ]
	run rlprof-calibrate -n 2 --log out2.log -o d.json -- sh -c 'echo hello'
	assert_success
	# The hook is left out after the first repeat: 2 + 2 + 1 + 2 runs.
	[ "$(grep -c '^hello$' out2.log)" -eq 7 ]
}

@test "rlprof-calibrate: a failing command stops it with its status and the tail of its stderr" {
	run --separate-stderr rlprof-calibrate -n 2 -o cal.json -- sh -c 'for i in 1 2 3 4 5 6 7; do echo "line $i" >&2; done; exit 3'
	[ "$status" -eq 3 ]
	[[ $stderr == *"rlprof-calibrate: error: the uninstrumented run of 'sh' failed with exit status 3"* ]] || fail "$stderr"
	[[ $stderr == *"rlprof-calibrate: note: stderr: line 7"* ]] || fail "$stderr"
	[[ $stderr == *"stderr: line 3"* ]] || fail "$stderr"
	[[ $stderr != *"stderr: line 2"* ]] || fail "more than the tail: $stderr"
	[ ! -e cal.json ]
	# Failing only under the recorder: the run is named.
	run --separate-stderr rlprof-calibrate -n 1 -o cal.json -- sh -c 'test -z "$RLPROF_SPOOL_DIR" || { echo traced >&2; exit 4; }'
	[ "$status" -eq 4 ]
	[[ $stderr == *"the annotations run of 'sh' failed with exit status 4"* ]] || fail "$stderr"
	[[ $stderr == *"stderr: traced"* ]] || fail "$stderr"
	[ ! -e cal.json ]
}

@test "rlprof-calibrate: bad usage, a missing command or recorder, an existing output" {
	run -2 rlprof-calibrate -o cal.json
	run rlprof-calibrate -n 0 -o cal.json -- true
	[ "$status" -eq 2 ]
	run rlprof-calibrate --show-output --log x -- true
	[ "$status" -eq 2 ]
	run -127 --separate-stderr rlprof-calibrate -n 1 -o cal.json -- no-such-command-xyz
	[[ $stderr == *"no-such-command-xyz"* ]] || fail "$stderr"
	run --separate-stderr env RLPROF_RECORD=/nonexistent rlprof-calibrate -n 1 -o cal.json -- true
	[ "$status" -eq 3 ]
	echo keep > cal.json
	run --separate-stderr rlprof-calibrate -n 1 --log ran.log -o cal.json -- sh -c 'echo ran'
	[ "$status" -eq 1 ]
	[ "$(cat cal.json)" = keep ]
	[ ! -s ran.log ] || fail "the command ran before the output was checked"
}
