#!/usr/bin/env bats
# rlprof-report: output formats, checked with parsers, on any trace.
#
# The invariant tests run on the fixtures and on every trace named in
# RLPROF_REPORT_TRACES (space-separated paths), so that traces recorded by
# rlprof-record from the project's workloads can be checked the same way.

load helpers

R=$TOP/tests/data/report

traces() {
	echo "$R/nested.csv" "$R/two.csv" "$R/nested.jsonl" ${RLPROF_REPORT_TRACES:-}
}

@test "--format csv: header lists the documented columns, in order" {
	run rlprof-report -f csv "$R/nested.csv"
	assert_success
	assert_line --index 0 "process,operation,resource,category,time_us,percent,calls,exclusive_ns,inclusive_ns,mean_ns,p50_ns,p95_ns,max_ns"
}

@test "--format csv: resources and categories are the documented ones; rows add up to 100%" {
	for t in $(traces); do
		rlprof-report -f csv -b process "$t" > out.csv
		python3 - out.csv <<'PY' || fail "$t"
import csv, sys, collections
rows = list(csv.DictReader(open(sys.argv[1])))
assert rows, "no rows"
tot = collections.Counter()
for r in rows:
    assert r["resource"] in ("CPU", "CPU+GPU", "GPU", "none"), r
    assert r["category"] in ("python", "simulator", "backend", "cuda_api", "native", "gpu", "wait"), r
    if r["resource"] == "GPU": assert r["category"] == "gpu", r
    if r["resource"] == "none": assert r["category"] == "wait", r
    tot[r["process"]] += float(r["percent"])
for p, v in tot.items():
    assert abs(v - 100) < 0.1, (p, v)
PY
	done
}

@test "--format json: parses; the rows are the CSV's, and add up to each process's wall time" {
	for t in $(traces); do
		rlprof-report -f json "$t" > out.json
		rlprof-report -f csv "$t" > out.csv
		python3 - out.json out.csv <<'PY' || fail "$t"
import json, sys, csv, collections
d = json.load(open(sys.argv[1]))
assert list(d) == ["by", "processes", "rows", "gpus", "problems"], list(d)
assert d["by"] == "operation"
assert set(d["problems"]) == {"malformed", "unknown_kind", "end_before_start", "unmatched", "truncated", "recorder_warnings"}
rows = list(csv.DictReader(open(sys.argv[2], newline="")))
assert len(rows) == len(d["rows"])
for r, o in zip(rows, d["rows"]):
    assert list(o) == list(r), (o, r)
    for k, v in r.items():
        assert (o[k] is None) if v == "" else str(o[k]) == v or float(o[k]) == float(v), (k, o, r)
tot = collections.Counter()
for o in d["rows"]:
    tot[o["process"]] += o["time_us"]
for p in d["processes"]:
    assert list(p) == ["process", "name", "wall_us"], p
    assert abs(tot[p["process"]] - p["wall_us"]) < 1e-3 * 50, (p, tot)
for g in d["gpus"]:
    assert 0 <= g["busy_fraction"] <= 1 and g["busy_fraction"] <= g["smi_fraction_1_6s"] + 1e-9 <= g["smi_fraction_1s"] + 2e-9, g
PY
	done
}

# nested.csv: step 1..9 us holds inference 2..5 us.
@test "--format json: per-operation calls, exclusive and inclusive time, mean, p50, p95, max" {
	run rlprof-report -f json "$R/nested.csv"
	assert_success
	python3 -c '
import json, sys
d = json.loads(sys.argv[1])
g = {x["operation"]: x for x in d["rows"]}
stats = lambda r: [r[k] for k in ("calls", "exclusive_ns", "inclusive_ns", "mean_ns", "p50_ns", "p95_ns", "max_ns")]
assert stats(g["step"]) == [1, 5000, 8000, 8000, 8000, 8000, 8000], g["step"]
assert stats(g["inference"]) == [1, 3000, 3000, 3000, 3000, 3000, 3000], g["inference"]
assert stats(g["[unannotated]"]) == [None, 2000, None, None, None, None, None], g["[unannotated]"]
assert d["processes"] == [{"process": "100", "name": "python train.py", "wall_us": 10.0}]' "$output"
}

# 20 calls of "step" on one thread: 1..20 us long, one after the other,
# each holding a "leaf" of 1 us; a recursive "r" (an r inside an r).
stats_trace() {
	echo "kind,pid,tid,start_ns,end_ns,name,category,domain,device,stream,correlation,value,detail"
	t=0
	for i in $(seq 1 20); do
		echo "op,7,7,$t,$((t + i * 1000)),step,,,,,,0,"
		echo "op,7,7,$t,$((t + 1000)),leaf,,,,,,1,"
		t=$((t + i * 1000))
	done
	echo "op,7,7,$t,$((t + 10000)),r,,,,,,0,"
	echo "op,7,7,$((t + 2000)),$((t + 6000)),r,,,,,,1,"
}

@test "--format csv: statistics per call; p50 and p95 by nearest rank; recursion counted once in inclusive time" {
	stats_trace > t.csv
	run rlprof-report -f csv t.csv
	assert_success
	# step: 20 calls; durations 1..20 us; exclusive = all but the leaves.
	assert_line "7,step,CPU,native,190.000,86.36,20,190000,210000,10500,10000,19000,20000"
	assert_line "7,leaf,CPU,native,20.000,9.09,20,20000,20000,1000,1000,1000,1000"
	# r: 10 us holding another r of 4 us: 2 calls, inclusive 10 us, not 14.
	assert_line "7,r,CPU,native,10.000,4.55,2,10000,10000,7000,4000,10000,10000"
}

@test "--format table: statistics on the first row of each operation" {
	stats_trace > t.csv
	run rlprof-report -f table t.csv
	assert_success
	assert_line --index 1 --regexp '^  operation +resource +category +time +% +calls +exclusive +inclusive +mean +p50 +p95 +max$'
	assert_line --regexp '^  step +CPU +native +190 us +86\.36 +20 +190 us +210 us +10\.5 us +10\.0 us +19\.0 us +20\.0 us$'
}

@test "--tree: operations under their callers, with inclusive time, in every format" {
	stats_trace > t.csv
	run rlprof-report --tree -f csv t.csv
	assert_success
	assert_output "process,operation,depth,calls,exclusive_ns,inclusive_ns,mean_ns,p50_ns,p95_ns,max_ns,percent
7,step,0,20,190000,210000,10500,10000,19000,20000,95.45
7,leaf,1,20,20000,20000,1000,1000,1000,1000,9.09
7,r,0,1,6000,10000,10000,10000,10000,10000,4.55
7,r,1,1,4000,4000,4000,4000,4000,4000,1.82"
	run rlprof-report --tree -f table t.csv
	assert_success
	assert_line --index 0 "process 7: 220 us profiled"
	assert_line --index 1 --regexp '^  operation +calls +exclusive +inclusive +mean +p50 +p95 +max +%$'
	assert_line --index 2 --regexp '^  step +20 +190 us +210 us'
	assert_line --index 3 --regexp '^    leaf +20 +20.0 us +20.0 us'
	assert_line --index 5 --regexp '^    r +1 +4.00 us +4.00 us'
	run rlprof-report --tree -f json t.csv
	assert_success
	python3 - "$output" "$(rlprof-report --tree -f jsonl t.csv)" <<'PY'
import json, sys
rows = json.loads(sys.argv[1])
assert rows == [json.loads(l) for l in sys.argv[2].splitlines()]
assert [(r["operation"], r["depth"], r["inclusive_ns"]) for r in rows] == [("step", 0, 210000), ("leaf", 1, 20000), ("r", 0, 10000), ("r", 1, 4000)], rows
PY
	run rlprof-report --tree -f svg t.csv
	[ "$status" -eq 2 ]
	run rlprof-report --tree -b phase -f csv t.csv
	[ "$status" -eq 2 ]
}

@test "--tree: nested.csv, unannotated time last; children of each thread under its own operations" {
	run rlprof-report --tree -f csv "$R/nested.csv"
	assert_success
	assert_output "process,operation,depth,calls,exclusive_ns,inclusive_ns,mean_ns,p50_ns,p95_ns,max_ns,percent
100,step,0,1,5000,8000,8000,8000,8000,8000,80.00
100,inference,1,1,3000,3000,3000,3000,3000,3000,30.00
100,[unannotated],0,,2000,2000,,,,,20.00"
	# Thread 201's load is not a child of thread 200's main_loop.
	run rlprof-report --tree -f csv "$R/two.csv"
	assert_success
	assert_line "200,load,0,1,2000,2000,2000,2000,2000,2000,20.00"
}

@test "--format svg: parses as XML, one bar per operation, labels and a legend" {
	for t in $(traces); do
		rlprof-report -f svg "$t" > out.svg
		python3 - out.svg "$t" <<'PY' || fail "$t"
import sys, xml.etree.ElementTree as ET, subprocess, csv, io
ns = {"s": "http://www.w3.org/2000/svg"}
root = ET.parse(sys.argv[1]).getroot()
assert root.tag == "{http://www.w3.org/2000/svg}svg"
bars = root.findall(".//s:g[@class='bar']", ns)
rows = list(csv.DictReader(io.StringIO(subprocess.run(["rlprof-report", "-f", "csv", sys.argv[2]], capture_output=True, text=True).stdout)))
assert len(bars) == len({(r["process"], r["operation"]) for r in rows}), len(bars)
labels = {b.find("s:text", ns).text for b in bars}
assert {r["operation"] for r in rows} <= labels, labels
legend = root.find(".//s:g[@class='legend']", ns)
assert legend is not None and len(legend.findall("s:rect", ns)) == len({(r["resource"], r["category"]) for r in rows})
PY
	done
}

@test "--format svg: names are escaped" {
	printf '%s\n' "kind,pid,tid,start_ns,end_ns,name,category,domain,device,stream,correlation,value,detail" \
		'op,1,1,0,1000,"<a & ""b"">",,,,,,0,' > t.csv
	rlprof-report -f svg t.csv > out.svg
	python3 -c 'import sys, xml.dom.minidom as m; m.parse(sys.argv[1])' out.svg
	grep -q '&lt;a &amp; &quot;b&quot;&gt;' out.svg
}

@test "--format chrome: loads as JSON with the documented tracks and events" {
	run rlprof-report -f chrome "$R/nested.csv"
	assert_success
	python3 -c '
import json, sys
d = json.loads(sys.argv[1])
ev = d["traceEvents"]
names = {(e["ph"], e["name"]) for e in ev}
assert ("X", "step") in names and ("X", "inference") in names
assert ("X", "sgemm_kernel") in names and ("X", "python") in names
meta = {e["args"]["name"]: e.get("tid") for e in ev if e["ph"] == "M" and e["name"] in ("process_name", "thread_name")}
assert "python train.py pid 100" in meta, meta
assert "MainThread" in meta and "GPU 0 stream 7" in meta and "100 cpu" in meta, meta
k = [e for e in ev if e["name"] == "sgemm_kernel"][0]
assert k["tid"] == meta["GPU 0 stream 7"] and k["cat"] == "kernel"
# Microseconds from the trace start, the first event (1 us after the process start).
assert k["ts"] == 2.2 and k["dur"] == 2.8, k
assert d["otherData"]["start_ns"] == "1700000000000001000", d["otherData"]
s = [e for e in ev if e["name"] == "step"][0]
assert s["tid"] == 100 and s["cat"] == "rl" and s["args"]["depth"] == 0
assert d["displayTimeUnit"] == "ms"' "$output"
}

@test "--format chrome: every trace gives valid JSON whose durations nest per track" {
	for t in $(traces); do
		rlprof-report -f chrome "$t" > out.json
		python3 - out.json <<'PY' || fail "$t"
import json, sys, collections
d = json.load(open(sys.argv[1]))
tracks = collections.defaultdict(list)
for e in d["traceEvents"]:
    if e["ph"] == "X" and e["cat"] != "cpu":
        tracks[(e["pid"], e["tid"])].append((e["ts"], -e["dur"], e["ts"] + e["dur"]))
for k, v in tracks.items():
    stack = []
    for s, _, end in sorted(v):
        while stack and stack[-1] <= s + 1e-6: stack.pop()
        assert not stack or end <= stack[-1] + 1e-6, (k, s, end, stack)
        stack.append(end)
PY
	done
}

@test "--format chrome: --from and --to clip events to the window" {
	run rlprof-report -f chrome --from 2us --to 4us "$R/two.csv"
	assert_success
	python3 -c '
import json, sys
ev = [e for e in json.loads(sys.argv[1])["traceEvents"] if e["ph"] == "X"]
assert ev and all(2 <= e["ts"] and e["ts"] + e["dur"] <= 4 for e in ev), ev
assert {e["name"] for e in ev} == {"main_loop", "load", "episode", "python", "simulator", "rollout", "train", "reduce", "wait"}, ev' "$output"
}

@test "--format table: aligned columns and a total per process" {
	run rlprof-report -f table "$R/nested.csv"
	assert_success
	assert_line --index 0 "process 100 (python train.py): 10.0 us profiled"
	assert_line --index 1 --regexp "^  operation      resource  category      time       %  calls  exclusive  inclusive +mean +p50 +p95 +max$"
	assert_line --index 2 --regexp "^  step           CPU       python     1.00 us   10.00      1    5.00 us    8.00 us +8.00 us +8.00 us +8.00 us +8.00 us$"
	assert_line --index 3 "                 CPU       simulator  2.00 us   20.00"
	assert_line "  total                               10.0 us  100.00"
}

@test "--format jsonl: the CSV's rows and columns, one object per line" {
	rlprof-report -f csv -b phase "$R/two.csv" > out.csv
	rlprof-report -f jsonl -b phase "$R/two.csv" > out.jsonl
	python3 - out.csv out.jsonl <<'PY'
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
objs = [json.loads(l) for l in open(sys.argv[2])]
assert len(rows) == len(objs) > 0
for r, o in zip(rows, objs):
    assert list(o) == list(r), (o, r)
    assert o["process"] == r["process"] and o["operation"] == r["operation"]
    assert abs(o["time_us"] - float(r["time_us"])) < 1e-9 and o["percent"] == float(r["percent"])
PY
}

@test "--format: csv is the default in a pipe; unknown formats are usage errors" {
	run rlprof-report "$R/nested.csv"
	assert_line --index 0 "process,operation,resource,category,time_us,percent,calls,exclusive_ns,inclusive_ns,mean_ns,p50_ns,p95_ns,max_ns"
	run rlprof-report -f pdf "$R/nested.csv"
	[ "$status" -eq 2 ]
	assert_output --partial "unknown format 'pdf'"
}

@test "--format: table is the default on a terminal" {
	command -v script > /dev/null || skip "script (bsdutils) is not installed"
	run script -qec "rlprof-report '$R/nested.csv'" /dev/null
	assert_success
	assert_line --index 0 --regexp "^process 100 \(python train.py\): 10.0 us profiled"
}

@test "--format svg: a time axis under the bars" {
	rlprof-report -f svg "$R/nested.csv" > out.svg
	python3 - out.svg <<'PY'
import sys, xml.etree.ElementTree as ET
ns = {"s": "http://www.w3.org/2000/svg"}
root = ET.parse(sys.argv[1]).getroot()
ticks = [t.text for t in root.findall(".//s:g[@class='ticks']/s:text", ns)]
# The longest bar is step, 5 us: round ticks to 6 us, in us.
assert ticks == ["0 us", "2 us", "4 us", "6 us"], ticks
legend = [t.text for t in root.findall(".//s:g[@class='legend']/s:text", ns)]
assert legend[0] == "resource / category" and "CPU / python" in legend and "GPU / gpu" in legend, legend
PY
	# A run of seconds: ticks in seconds, 0.5 s apart.
	printf '%s\n' "kind,pid,tid,start_ns,end_ns,name,category,domain,device,stream,correlation,value,detail" \
		"op,1,1,0,1700000000,train,,,,,,0," "cpu,1,1,0,1000000000,,wait,,,,,," > t.csv
	rlprof-report -f svg t.csv > out.svg
	python3 - out.svg <<'PY'
import sys, xml.etree.ElementTree as ET
ns = {"s": "http://www.w3.org/2000/svg"}
root = ET.parse(sys.argv[1]).getroot()
ticks = [t.text for t in root.findall(".//s:g[@class='ticks']/s:text", ns)]
assert ticks == ["0.0 s", "0.5 s", "1.0 s", "1.5 s", "2.0 s"], ticks
legend = [t.text for t in root.findall(".//s:g[@class='legend']/s:text", ns)]
assert legend == ["resource / category", "CPU / native", "none / wait"], legend
PY
}

@test "--compare --format svg: the two runs side by side on one scale" {
	cp "$R/nested.csv" "$R/two.csv" .
	rlprof-report -f svg --compare nested.csv two.csv > out.svg
	python3 - out.svg <<'PY'
import sys, xml.etree.ElementTree as ET
ns = {"s": "http://www.w3.org/2000/svg"}
root = ET.parse(sys.argv[1]).getroot()
runs = [t.text for t in root.findall(".//s:text[@class='run']", ns)]
assert runs == ["this: two.csv (14.0 us)", "other: nested.csv (10.0 us)"], runs
ticks = [t.text for t in root.findall(".//s:g[@class='ticks']/s:text", ns)]
# The longest bar of both runs is main_loop, 8 us: two axes to 8 us.
assert ticks == ["0 us", "2 us", "4 us", "6 us", "8 us"] * 2, ticks
bars = root.findall(".//s:g[@class='bar']", ns)
labels = [b.find("s:text", ns).text for b in bars]
assert labels == ["main_loop", "load", "episode", "step", "inference", "[unannotated]"], labels
# Two totals per bar, this then other; step is only in the other run.
step = bars[3].findall("s:text", ns)
assert [t.text for t in step[1:]] == ["not in this run", "5.00 us (50.0%)"], [t.text for t in step]
PY
}

@test "--output: a folder that does not exist fails at once, before reading the trace" {
	mkfifo never-written
	# The trace is a FIFO nobody writes to: reading it would block.
	run timeout 20 rlprof-report -f csv -o missing/out.csv never-written
	[ "$status" -eq 1 ]
	assert_output --regexp "^rlprof-report: error: cannot create a file next to 'missing/out.csv': No such file or directory$"
	[ ! -e missing ]
}

@test "--output: written atomically, an existing file is kept without --force" {
	run rlprof-report -f csv -o out.csv "$R/nested.csv"
	assert_success
	[ -z "$output" ]
	grep -q "^100,step,CPU,python" out.csv
	echo keep > old.csv
	run rlprof-report -f csv -o old.csv "$R/nested.csv"
	[ "$status" -eq 1 ]
	assert_output --partial "'old.csv' exists"
	[ "$(cat old.csv)" = keep ]
	run rlprof-report -f csv --force -o old.csv "$R/nested.csv"
	assert_success
	grep -q "^100,step" old.csv
}
