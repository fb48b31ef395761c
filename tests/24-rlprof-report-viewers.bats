#!/usr/bin/env bats
# rlprof-report for trace viewers: Chrome trace JSON and Perfetto's
# protobuf format, decoded and checked against the CSV breakdown of the
# same trace (tests/viewer-check.py).  Perfetto traces are decoded with the
# bindings of the PyPI package perfetto (make deps installs it).

load helpers

R=$TOP/tests/data/report
WORKLOAD=$RLKIT_BUILD/workloads/rlprof-workload
HDR="kind,pid,tid,start_ns,end_ns,name,category,domain,device,stream,correlation,value,detail"

traces() {
	echo "$R/nested.csv" "$R/two.csv" "$R/nested.jsonl" ${RLPROF_REPORT_TRACES:-}
}

# viewer FORMAT TRACE [NAMES]: the output of -f FORMAT checked against -f csv.
viewer() {
	rlprof-report -f csv "$2" > bd.csv || fail "$2: csv"
	rlprof-report -f "$1" "$2" > out.trace || fail "$2: $1"
	python3 "$TOP/tests/viewer-check.py" "$1" out.trace bd.csv ${3:+"$3"} || fail "$2: $1"
}

need_perfetto() {
	python3 -c 'import perfetto.protos.perfetto.trace.perfetto_trace_pb2' 2> /dev/null ||
		fail "the Python package perfetto is missing (make deps installs it)"
}

@test "--format perfetto: decodes; slices nest per track and match the breakdown's calls and inclusive time" {
	need_perfetto
	for t in $(traces); do
		viewer perfetto "$t"
	done
}

@test "--format perfetto: tracks named after the trace's processes, threads, CPU rows and GPU streams" {
	need_perfetto
	viewer perfetto "$R/nested.csv" \
		'{"process": {"100": "python train.py"}, "threads": [[100, 100, "MainThread"]], "tracks": ["100 cpu", "GPU 0 stream 7"]}'
	viewer perfetto "$R/two.csv" \
		'{"process": {"300": "env worker"}, "threads": [[200, 201, "loader"]], "tracks": ["phases", "200 cpu", "201 cpu"]}'
}

@test "--format perfetto: a range that crosses another of its track goes to a further track" {
	need_perfetto
	printf '%s\n' "$HDR" "op,1,1,0,100,a,,,,,,0," "op,1,1,50,150,b,,,,,,0," \
		"op,1,1,60,70,c,,,,,,1," > t.csv
	viewer perfetto t.csv '{"tracks": ["1 (2)"]}'
}

@test "--format perfetto: --process and --from/--to as for the other formats" {
	need_perfetto
	rlprof-report -f perfetto -p worker "$R/two.csv" > p.trace
	rlprof-report -f perfetto --from 2us --to 4us "$R/two.csv" > w.trace
	python3 - p.trace w.trace <<'PY'
import sys
from perfetto.protos.perfetto.trace import perfetto_trace_pb2 as pb
def load(path):
    t = pb.Trace()
    t.ParseFromString(open(path, "rb").read())
    return t.packet
pids = {p.track_descriptor.process.pid for p in load(sys.argv[1]) if p.track_descriptor.HasField("process")}
assert pids == {300}, pids
ts = [p.timestamp for p in load(sys.argv[2]) if p.HasField("track_event")]
assert ts and min(ts) == 2000 and max(ts) == 4000, (min(ts), max(ts))
PY
}

@test "--format perfetto: memory does not grow with the length of the trace" {
	need_perfetto
	# Back-to-back calls: a few open slices at any time, 10 times as many.
	for n in 20000 200000; do
		awk -v h="$HDR" -v n=$n 'BEGIN { print h; for (i = 0; i < n; i++) printf "op,1,1,%d,%d,step,,,,,,0,\n", i * 10, i * 10 + 9 }' > t$n.csv
		/usr/bin/env time -f '%M' -o rss$n rlprof-report -f perfetto -o out$n.trace t$n.csv
	done
	[ "$(cat rss200000)" -lt $(( $(cat rss20000) * 3 / 2 + 4096 )) ] ||
		fail "peak RSS $(cat rss20000) KiB for 20000 calls, $(cat rss200000) KiB for 200000"
	python3 -c '
from perfetto.protos.perfetto.trace import perfetto_trace_pb2 as pb
t = pb.Trace(); t.ParseFromString(open("out200000.trace", "rb").read())
assert sum(p.track_event.type == 1 for p in t.packet) == 200000'
}

@test "--format chrome: timestamps from the trace start, exact to the nanosecond after a JSON round trip" {
	# Epoch nanoseconds of a real run: as microseconds they need more
	# digits than a double holds.  Adjacent calls of 333 ns each.
	python3 -c '
t = 1796155438776217143
print("'"$HDR"'")
for i in range(2000):
    print(f"op,9,9,{t + i * 333},{t + (i + 1) * 333},step,,,,,,0,")' > t.csv
	[ "$(sed -n 2p t.csv | cut -d, -f4)" = 1796155438776217143 ]
	rlprof-report -f chrome t.csv > out.json
	python3 - out.json <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
ev = sorted((e for e in d["traceEvents"] if e["ph"] == "X"), key=lambda e: e["ts"])
assert len(ev) == 2000
assert d["otherData"]["start_ns"] == "1796155438776217143", d["otherData"]
for i, e in enumerate(ev):
    assert round(e["ts"] * 1000) == i * 333 and round(e["dur"] * 1000) == 333, (i, e)
# Adjacent slices touch and do not overlap, in the doubles a viewer reads.
for a, b in zip(ev, ev[1:]):
    assert round((a["ts"] + a["dur"]) * 1000) == round(b["ts"] * 1000), (a, b)
PY
	viewer chrome t.csv
}

@test "--format chrome: every trace's slices nest per track and match the breakdown" {
	for t in $(traces); do
		viewer chrome "$t"
	done
}

@test "recorded: a workload's trace checks out in both viewer formats" {
	need_perfetto
	[ -x "$WORKLOAD" ] || fail "the built-in workload was not built: no NVTX headers (make deps installs them)"
	export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
	rlprof-record -o rec.csv -- "$WORKLOAD" threads 3 40
	viewer perfetto rec.csv
	viewer chrome rec.csv
	rlprof-record -o rec2.csv -- "$WORKLOAD" busy-sleep 10 10 3
	viewer perfetto rec2.csv
	viewer chrome rec2.csv
}

@test "sample rows (--full-detail): instants on their thread, named by file, in their category, in both viewers" {
	need_perfetto
	printf '%s\n' "$HDR" "thread,9,9,0,10000,main,,,,,,," "op,9,9,1000,9000,step,,,,,,0," \
		"cpu,9,9,1000,9000,backend,,,,,," \
		"sample,9,9,2000,2000,libtorch_cpu.so,backend,,,,,4000000," \
		"sample,9,9,3000,3000,libpython3.11.so.1.0,python,,,,,4000000," > t.csv
	rlprof-report -f chrome t.csv > c.json
	rlprof-report -f perfetto t.csv > p.trace
	python3 - c.json p.trace <<'PY'
import json, sys
from perfetto.protos.perfetto.trace import perfetto_trace_pb2 as pb
ev = [e for e in json.load(open(sys.argv[1]))["traceEvents"] if e.get("ph") == "i"]
got = sorted((e["name"], e["cat"], e["tid"], e["ts"], e["args"]["cpu_ns"]) for e in ev)
assert got == [("libpython3.11.so.1.0", "python", 9, 2.0, 4000000),
               ("libtorch_cpu.so", "backend", 9, 1.0, 4000000)], got
t = pb.Trace()
t.ParseFromString(open(sys.argv[2], "rb").read())
inst = sorted((p.track_event.name, list(p.track_event.categories), p.timestamp)
              for p in t.packet if p.HasField("track_event") and p.track_event.type == 3)
assert inst == [("libpython3.11.so.1.0", ["python"], 3000), ("libtorch_cpu.so", ["backend"], 2000)], inst
PY
	# The breakdown is that of the cpu rows alone.
	rlprof-report -f csv t.csv > a.csv
	grep -v '^sample,' t.csv > u.csv
	rlprof-report -f csv u.csv > b.csv
	cmp a.csv b.csv
	# A sample's category is one of the CPU's.
	printf '%s\n%s\n' "$HDR" "sample,9,9,2000,2000,libc.so.6,wait,,,,,1," > bad.csv
	run rlprof-report --strict bad.csv
	assert_failure 1
	assert_output "rlprof-report: error: 'bad.csv': line 2: bad category 'wait' for a sample row"
}
