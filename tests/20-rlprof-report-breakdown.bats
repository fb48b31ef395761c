#!/usr/bin/env bats
# rlprof-report: breakdowns of hand-made fixtures, worked out by hand.

load helpers

R=$TOP/tests/data/report

# The breakdown columns of the CSV (the first six), with rlprof-report's status.
report6() {
	set -o pipefail
	rlprof-report "$@" | cut -d, -f1-6
}

# nested.csv: process 100 lives 0..10 us (relative); step 1..9 us with
# inference 2..5 us nested in it; cpu rows python 1-2, backend 2-3,
# cuda_api 3-3.5, wait 3.5-5, simulator 5-8; a kernel runs 3.2-6 us.
#   [unannotated] 0-1 and 9-10: CPU native 2 us
#   step:      python 1-2 (1 us), simulator 5-6 with GPU (1 us CPU+GPU),
#              simulator 6-8 (2 us), nothing 8-9 (1 us native)
#   inference: backend 2-3 (1 us), cuda_api 3-3.2 (0.2 us CPU),
#              cuda_api 3.2-3.5 with GPU (0.3 us CPU+GPU), wait 3.5-5 with
#              GPU (1.5 us GPU gpu)
@test "--format csv: nested operations and GPU overlap, worked out by hand" {
	run report6 -f csv "$R/nested.csv"
	assert_success
	assert_output "process,operation,resource,category,time_us,percent
100,step,CPU,python,1.000,10.00
100,step,CPU,simulator,2.000,20.00
100,step,CPU,native,1.000,10.00
100,step,CPU+GPU,simulator,1.000,10.00
100,inference,CPU,backend,1.000,10.00
100,inference,CPU,cuda_api,0.200,2.00
100,inference,CPU+GPU,cuda_api,0.300,3.00
100,inference,GPU,gpu,1.500,15.00
100,[unannotated],CPU,native,2.000,20.00"
}

# two.csv, rows shuffled: process 200 (no process row, 0..10 us):
# main_loop on thread 200 all along with python; load on thread 201 2..4 us
# with simulator (it started last, so it owns that time); a memcpy 6..7 us.
# Process 300 (process row 1..5 us): episode, simulator 1..3, wait 3..5
# while a kernel runs 3..5; phases rollout 1..3 and train 3..5.
@test "--format csv: two processes, two threads, rows out of order" {
	run report6 -f csv "$R/two.csv"
	assert_success
	assert_output "process,operation,resource,category,time_us,percent
200,main_loop,CPU,python,7.000,70.00
200,main_loop,CPU+GPU,python,1.000,10.00
200,load,CPU,simulator,2.000,20.00
300,episode,CPU,simulator,2.000,50.00
300,episode,GPU,gpu,2.000,50.00"
}

@test "--by phase: time per phase, [no phase] outside phases" {
	run report6 -f csv --by phase "$R/two.csv"
	assert_success
	assert_line "300,rollout,CPU,simulator,2.000,50.00"
	assert_line "300,train,GPU,gpu,2.000,50.00"
	assert_line "200,[no phase],CPU,python,7.000,70.00"
}

@test "--by process: one group per process" {
	run report6 -f csv -b process "$R/two.csv"
	assert_success
	assert_output "process,operation,resource,category,time_us,percent
200,[all],CPU,python,7.000,70.00
200,[all],CPU,simulator,2.000,20.00
200,[all],CPU+GPU,python,1.000,10.00
300,[all],CPU,simulator,2.000,50.00
300,[all],GPU,gpu,2.000,50.00"
}

@test "--by category: all processes together, percent of the summed 14 us" {
	run report6 -f csv -b category "$R/two.csv"
	assert_success
	assert_output "process,operation,resource,category,time_us,percent
all,[all],CPU,python,7.000,50.00
all,[all],CPU,simulator,4.000,28.57
all,[all],CPU+GPU,python,1.000,7.14
all,[all],GPU,gpu,2.000,14.29"
}

@test "--process: only that process, in every format" {
	run report6 -f csv -p 300 "$R/two.csv"
	assert_success
	refute_line --partial "200,"
	assert_line "300,episode,GPU,gpu,2.000,50.00"
	# Process 300 has a process row; it must not come back with -p 200.
	run report6 -f csv -p 200 "$R/two.csv"
	assert_success
	refute_line --partial "300,"
	assert_line "200,load,CPU,simulator,2.000,20.00"
	run rlprof-report -f chrome -p 200 "$R/two.csv"
	assert_success
	python3 -c '
import json, sys
d = json.loads(sys.argv[1])
assert {e["pid"] for e in d["traceEvents"]} == {200}, d' "$output"
}

@test "--process: a pid or command that is not in the trace is an error naming the trace" {
	for f in csv table json chrome perfetto; do
		run rlprof-report -f $f -p 12345 "$R/two.csv"
		[ "$status" -eq 1 ] || fail "$f: status $status"
		assert_output "rlprof-report: error: no process 12345 in '$R/two.csv'"
		run rlprof-report -f $f -p nosuchcommand "$R/two.csv"
		[ "$status" -eq 1 ] || fail "$f: status $status"
		assert_output "rlprof-report: error: no process of command 'nosuchcommand' in '$R/two.csv'"
	done
}

@test "--process NAME: the processes of a command, by whole command or a word of it" {
	# Process 300 is "env worker" (its process row); 200 has no name.
	for name in "env worker" worker env; do
		run report6 -f csv -p "$name" "$R/two.csv"
		assert_success
		refute_line --partial "200,"
		assert_line "300,episode,GPU,gpu,2.000,50.00"
	done
	run rlprof-report -f chrome -p worker "$R/two.csv"
	assert_success
	python3 -c '
import json, sys
d = json.loads(sys.argv[1])
assert {e["pid"] for e in d["traceEvents"]} == {300}, d' "$output"
	run rlprof-report -f chrome -p worker - < "$R/two.csv"
	[ "$status" -eq 2 ]
	assert_output --partial "needs a trace file"
}

# The trace starts at 0 (main_loop); the window 2..4 us holds only load
# (2 us simulator) in process 200, and episode 2..3 simulator, 3..4 GPU.
@test "--from and --to: only the time inside the window counts" {
	run report6 -f csv --from 2us --to 4000ns "$R/two.csv"
	assert_success
	assert_output "process,operation,resource,category,time_us,percent
200,load,CPU,simulator,2.000,100.00
200,main_loop,,,0.000,0.00
300,episode,CPU,simulator,1.000,50.00
300,episode,GPU,gpu,1.000,50.00"
}

@test "--from: bad times and empty windows are usage errors" {
	run rlprof-report --from 1parsec "$R/two.csv"
	[ "$status" -eq 2 ]
	assert_output --partial "bad time '1parsec'"
	run rlprof-report --from 2s --to 1s "$R/two.csv"
	[ "$status" -eq 2 ]
}

@test "--format json: same breakdown from JSON Lines as from CSV" {
	run rlprof-report -f csv "$R/nested.jsonl"
	assert_success
	assert_output "$(rlprof-report -f csv "$R/nested.csv")"
}

# GPU 0 in two.csv: kernel 3..5 us and memcpy 6..7 us: busy 3 us of the
# 10 us span; nvidia-smi sees a kernel in the only window: 100%.
@test "--format table: GPU utilisation next to the nvidia-smi figure" {
	run rlprof-report -f table "$R/two.csv"
	assert_success
	assert_line --regexp '^GPU 0 utilisation over 10.0 us:$'
	assert_line --regexp '^  busy .* 30.00 %  \(3.00 us\)$'
	assert_line --regexp '^  nvidia-smi, 1/6 s windows +100.00 %  \(3.33x the busy time\)$'

	assert_line "  process 300 (env worker), child of 200: 4.00 us profiled"
}

@test "--format json: GPU utilisation over sampling windows of a long trace" {
	# Kernels of 1 ms at the start of each second for 3 s; one at 2.5 s.
	{
		echo "kind,pid,tid,start_ns,end_ns,name,category,domain,device,stream,correlation,value,detail"
		for s in 0 1 2; do
			echo "gpu,1,,${s}000000000,${s}001000000,k,kernel,,0,1,,,"
		done
		echo "gpu,1,,2500000000,2501000000,k,kernel,,0,1,,,"
		echo "op,1,1,0,3000000000,run,,,,,,0,"
	} > t.csv
	run rlprof-report -f json t.csv
	assert_success
	python3 - "$output" <<'PY'
import json, sys
g = json.loads(sys.argv[1])["gpus"][0]
assert g["busy_us"] == 4000.0, g
assert abs(g["busy_fraction"] - 4e-3 / 3) < 1e-6, g
# 1/6 s windows: 18 over 3 s; kernels touch windows 0, 6, 12 and 15.
assert (g["smi_windows_1_6s"], g["smi_active_1_6s"]) == (18, 4), g
assert (g["smi_windows_1s"], g["smi_active_1s"]) == (3, 3), g
assert g["smi_fraction_1s"] == 1.0, g
PY
}

# nested.csv with another pid and other timestamps: the same run again.
renumbered() {
	sed -e 's/^\([a-z]*\),100,100,/\1,555,555,/' -e 's/^\([a-z]*\),100,,/\1,555,,/' \
		-e 's/,17000000000000/,17000000500000/g' "$R/nested.csv"
}

@test "--compare: two traces side by side with ratios, processes matched by command" {
	run rlprof-report -f csv --compare "$R/nested.csv" "$R/two.csv"
	assert_success
	assert_line --index 0 "process,operation,resource,category,time_us,percent,other_time_us,other_percent,ratio"
	assert_line ",main_loop,CPU,python,7.000,50.00,0.000,0.00,0.000"
	assert_line "python train.py,step,CPU,python,0.000,0.00,1.000,10.00,"
	assert_line ",[total],,,14.000,100.00,10.000,100.00,0.714"
	run rlprof-report -f csv --compare "$R/two.csv" "$R/two.csv"
	assert_success
	assert_line ",load,CPU,simulator,2.000,14.29,2.000,14.29,1.000"
	assert_line "env worker,episode,GPU,gpu,2.000,14.29,2.000,14.29,1.000"
	# Another pid, the same command: one row per slot, ratio 1.
	renumbered > r.csv
	grep -q '^op,555,555,' r.csv
	run rlprof-report -f csv --compare r.csv "$R/nested.csv"
	assert_success
	[ "${#lines[@]}" -eq 11 ] || fail "${#lines[@]} lines"
	assert_line "python train.py,step,CPU,simulator,2.000,20.00,2.000,20.00,1.000"
	refute_line --regexp ',(0\.000|)$'
}

@test "--compare --process: the pid or command applies to both traces; one missing is an error naming it" {
	renumbered > r.csv
	run rlprof-report -f csv -p 100 --compare r.csv "$R/nested.csv"
	[ "$status" -eq 1 ]
	assert_output "rlprof-report: error: no process 100 in 'r.csv'"
	run rlprof-report -f csv -p train.py --compare r.csv "$R/nested.csv"
	assert_success
	assert_line "python train.py,inference,GPU,gpu,1.500,15.00,1.500,15.00,1.000"
	run rlprof-report -f csv -p train.py --compare "$R/two.csv" "$R/nested.csv"
	[ "$status" -eq 1 ]
	assert_output "rlprof-report: error: no process of command 'train.py' in '$R/two.csv'"
}

@test "--compare: not chrome or perfetto; --tree not with --compare" {
	for f in chrome perfetto; do
		run rlprof-report -f $f --compare "$R/two.csv" "$R/nested.csv"
		[ "$status" -eq 2 ]
		assert_output --partial "--compare gives table, csv, json, jsonl or svg"
	done
	run rlprof-report --tree -f csv --compare "$R/two.csv" "$R/nested.csv"
	[ "$status" -eq 2 ]
}

@test "--compare --format jsonl: the CSV's rows, ratio null where the CSV's is empty" {
	run rlprof-report -f jsonl --compare "$R/nested.csv" "$R/two.csv"
	assert_success
	python3 - "$output" <<'PY'
import json, sys
rows = [json.loads(l) for l in sys.argv[1].splitlines()]
assert all(list(r) == ["process", "operation", "resource", "category", "time_us", "percent",
                       "other_time_us", "other_percent", "ratio"] for r in rows), rows
step = [r for r in rows if r["operation"] == "step" and r["category"] == "python"][0]
assert step["ratio"] is None and step["other_time_us"] == 1.0, step
assert step["process"] == "python train.py", step
assert rows[-1] == {"process": None, "operation": "[total]", "resource": None, "category": None,
                    "time_us": 14.0, "percent": 100.0, "other_time_us": 10.0,
                    "other_percent": 100.0, "ratio": 0.714}, rows[-1]
PY
}

@test "--compare --format json: a summary and the jsonl rows" {
	run rlprof-report -f json --compare "$R/nested.csv" "$R/two.csv"
	assert_success
	python3 - "$output" "$(rlprof-report -f jsonl --compare "$R/nested.csv" "$R/two.csv")" <<'PY'
import json, sys
d = json.loads(sys.argv[1])
assert list(d) == ["summary", "rows"], d.keys()
assert d["rows"] == [json.loads(l) for l in sys.argv[2].splitlines()]
s = d["summary"]
assert s["by"] == "operation" and s["wall_us"] == 14.0 and s["other_wall_us"] == 10.0, s
assert s["ratio"] == 0.714 and s["this"].endswith("two.csv") and s["other"].endswith("nested.csv"), s
PY
}

@test "--compare --format table: both traces named, aligned, human units" {
	run rlprof-report -f table --compare "$R/nested.csv" "$R/two.csv"
	assert_success
	assert_line --index 0 "this: $R/two.csv, other: $R/nested.csv"
	assert_line --index 1 --regexp '^  process +operation +resource +category +this +% +other +% +ratio$'
	assert_line --regexp '^  +\[total\] +14\.0 us +100\.00 +10\.0 us +100\.00 +0\.714$'
}

# tree.csv: python3 train.py (10, 100 us) ran sh -c 'ldconfig -p' (11,
# 2 us), which ran ldconfig (12, 9 us); a pyenv shim (13, 0.5 us) ran cat
# (14, 0.3 us); python3 worker.py (15, 20 us) forked a worker (16, 20 us).
# All together 151.8 us, so under 1% is under 1.518 us.
@test "processes: a tree, shims folded, processes under 1% summed" {
	run report6 -f csv "$R/tree.csv"
	assert_success
	assert_output "process,operation,resource,category,time_us,percent
10,train,CPU,python,100.000,100.00
12,[unannotated],CPU,native,11.000,100.00
15,[unannotated],CPU,native,20.000,100.00
16,[unannotated],CPU,native,20.000,100.00
other,[unannotated],CPU,native,0.800,100.00"
	run rlprof-report -f table "$R/tree.csv"
	assert_line --regexp '^  process 12 \(ldconfig -p\), child of 10: 11(\.0)? us profiled'
	assert_line --regexp '^    process 16 \(python3 worker.py\), child of 15: '
	assert_line --regexp '^2 processes under 1% each: '
}

@test "--all-processes: every process its own rows; shims still folded" {
	run report6 -f csv --all-processes "$R/tree.csv"
	assert_success
	assert_output "process,operation,resource,category,time_us,percent
10,train,CPU,python,100.000,100.00
12,[unannotated],CPU,native,11.000,100.00
14,[unannotated],CPU,native,0.800,100.00
15,[unannotated],CPU,native,20.000,100.00
16,[unannotated],CPU,native,20.000,100.00"
	run rlprof-report -f json -b process --all-processes "$R/tree.csv"
	assert_success
	[[ $output != *'"other"'* ]]
}
