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
	assert_line --index 0 "process,operation,resource,category,time_us,percent"
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

@test "--format json: parses, operations add up to each process's wall time" {
	for t in $(traces); do
		rlprof-report -f json "$t" > out.json
		python3 - out.json <<'PY' || fail "$t"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["by"] == "operation"
assert set(d["problems"]) == {"malformed", "unknown_kind", "end_before_start", "unmatched", "truncated", "recorder_warnings"}
for p in d["processes"]:
    assert set(p) == {"pid", "name", "wall_us", "groups"}, p.keys()
    s = 0
    for g in p["groups"]:
        assert set(g) == {"operation", "calls", "time_us", "percent", "rows"}
        rs = sum(r["time_us"] for r in g["rows"])
        assert abs(rs - g["time_us"]) < 1e-3 * len(g["rows"]), g
        for r in g["rows"]:
            assert set(r) == {"resource", "category", "time_us", "percent"}
        s += g["time_us"]
    assert abs(s - p["wall_us"]) < 1e-3 * 50, (s, p["wall_us"])
for g in d["gpus"]:
    assert 0 <= g["busy_fraction"] <= 1 and g["busy_fraction"] <= g["smi_fraction_1_6s"] + 1e-9 <= g["smi_fraction_1s"] + 2e-9, g
PY
	done
}

@test "--format json: calls count operation rows" {
	run rlprof-report -f json "$R/nested.csv"
	assert_success
	python3 -c '
import json, sys
d = json.loads(sys.argv[1])
g = {x["operation"]: x for x in d["processes"][0]["groups"]}
assert g["step"]["calls"] == 1 and g["inference"]["calls"] == 1, g
assert d["processes"][0]["name"] == "python train.py"
assert d["processes"][0]["wall_us"] == 10.0' "$output"
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
assert k["ts"] == 1700000000000003.2 and k["dur"] == 2.8, k
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
	assert_line --index 1 "  operation      resource  category      time       %"
	assert_line --index 2 "  step           CPU       python     1.00 us   10.00"
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
	assert_line --index 0 "process,operation,resource,category,time_us,percent"
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
# The longest bar is step, 5 us: ticks every 1.25 us.
assert ticks == ["0 ns", "1.25 us", "2.50 us", "3.75 us", "5.00 us"], ticks
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
