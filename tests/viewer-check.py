"""Checks of rlprof-report's viewer formats against its CSV breakdown.

    viewer-check.py chrome TRACE.json BREAKDOWN.csv
    viewer-check.py perfetto TRACE.pftrace BREAKDOWN.csv

BREAKDOWN.csv is `rlprof-report -f csv` of the same trace.  Both check that
the slices of every track nest, to the nanosecond, and that the operation
slices of each process add up to the CSV's calls and inclusive_ns of the
operation (for operations that do not run inside themselves).  Perfetto:
the trace decodes with the bindings of the PyPI package perfetto, every
event's track is described before it, process and thread tracks carry the
trace's names, and packets come in time order.  Exits 1 with a message on
the first failure.
"""
import collections
import csv
import json
import sys


def fail(msg):
    sys.exit("viewer-check: " + msg)


def breakdown(path):
    ops = {}
    for r in csv.DictReader(open(path, newline="")):
        if r["calls"]:
            ops[(int(r["process"]), r["operation"])] = (int(r["calls"]), int(r["inclusive_ns"]))
    return ops


def check_nesting(slices, what):
    """slices: (start, end) in ns, in any order; they must nest."""
    stack = []
    for a, b in sorted(slices, key=lambda s: (s[0], -s[1])):
        while stack and stack[-1] <= a:
            stack.pop()
        if stack and b > stack[-1]:
            fail(f"{what}: [{a}, {b}] crosses a slice that ends at {stack[-1]}")
        stack.append(b)


def check_ops(ops, got, what):
    for key, (calls, incl) in ops.items():
        n, total, recursive = got.get(key, (0, 0, False))
        if n != calls:
            fail(f"{what}: {key}: {n} slices, the breakdown counts {calls} calls")
        if not recursive and total != incl:
            fail(f"{what}: {key}: slices add up to {total} ns, inclusive_ns is {incl}")
    extra = set(got) - set(ops)
    if extra:
        fail(f"{what}: operations not in the breakdown: {sorted(extra)}")


def chrome(path, ops):
    d = json.load(open(path))
    tracks = collections.defaultdict(list)
    opsl = collections.defaultdict(list)
    for e in d["traceEvents"]:
        if e["ph"] != "X":
            continue
        # Microseconds with three decimals: back to exact nanoseconds.
        a = round(e["ts"] * 1000)
        b = a + round(e["dur"] * 1000)
        if abs(a / 1000 - e["ts"]) > 1e-7 or a < 0:
            fail(f"chrome: ts {e['ts']} is not exact to the nanosecond")
        tracks[(e["pid"], e["tid"])].append((a, b))
        if e["tid"] < 1000000000:
            opsl[(e["pid"], e["name"])].append((a, b, e["tid"]))
    for k, v in tracks.items():
        check_nesting(v, f"chrome track {k}")
    got = {}
    for k, v in opsl.items():
        got[k] = (len(v), sum(b - a for a, b, _ in v), recursive(v))
    check_ops(ops, got, "chrome")
    if not d["otherData"]["start_ns"].isdigit():
        fail("chrome: otherData.start_ns is not a string of nanoseconds")


def recursive(v):
    """Whether a slice of one name overlaps another of it on its thread."""
    by = collections.defaultdict(list)
    for a, b, t in v:
        by[t].append((a, b))
    for s in by.values():
        end = None
        for a, b in sorted(s, key=lambda x: (x[0], -x[1])):
            if end is not None and a < end:
                return True
            end = b if end is None or b > end else end
    return False


def perfetto(path, ops):
    from perfetto.protos.perfetto.trace import perfetto_trace_pb2 as pb
    t = pb.Trace()
    t.ParseFromString(open(path, "rb").read())
    if not t.packet:
        fail("perfetto: no packets")
    desc = {}
    stacks = collections.defaultdict(list)
    slices = collections.defaultdict(list)
    last = -1
    E = pb.TrackEvent
    for i, p in enumerate(t.packet):
        if p.trusted_packet_sequence_id != 1:
            fail(f"perfetto: packet {i} is not on sequence 1")
        if i == 0 and p.sequence_flags != 1:
            fail("perfetto: the first packet does not clear the incremental state")
        if p.HasField("track_descriptor"):
            desc[p.track_descriptor.uuid] = p.track_descriptor
            continue
        if not p.HasField("track_event"):
            fail(f"perfetto: packet {i} is neither a track descriptor nor a track event")
        ev = p.track_event
        if ev.track_uuid not in desc:
            fail(f"perfetto: packet {i} uses track {ev.track_uuid} before its descriptor")
        if p.timestamp < last:
            fail(f"perfetto: packet {i} goes back in time")
        last = p.timestamp
        st = stacks[ev.track_uuid]
        if ev.type == E.TYPE_SLICE_BEGIN:
            st.append((p.timestamp, ev.name, list(ev.categories)))
        elif ev.type == E.TYPE_SLICE_END:
            if not st:
                fail(f"perfetto: packet {i} ends a slice on a track with none open")
            a, name, cats = st.pop()
            slices[ev.track_uuid].append((a, p.timestamp, name, cats))
    for u, st in stacks.items():
        if st:
            fail(f"perfetto: {len(st)} slices left open on track {u}")
    # Which tracks are a thread's operations: thread tracks and their further lanes.
    thread = {}
    for u, d in desc.items():
        if d.HasField("thread"):
            thread[u] = (d.thread.pid, d.thread.tid)
    for u, d in desc.items():
        if not d.HasField("thread") and not d.HasField("process") and d.name.endswith(")"):
            base = d.name.rsplit(" (", 1)[0]
            parent = desc.get(d.parent_uuid)
            if base.isdigit() and parent is not None and parent.HasField("process"):
                thread[u] = (parent.process.pid, int(base))
    opsl = collections.defaultdict(list)
    for u, v in slices.items():
        check_nesting([(a, b) for a, b, _, _ in v], f"perfetto track {desc[u].name or u}")
        if u in thread:
            for a, b, name, _ in v:
                opsl[(thread[u][0], name)].append((a, b, thread[u][1]))
    got = {k: (len(v), sum(b - a for a, b, _ in v), recursive(v)) for k, v in opsl.items()}
    check_ops(ops, got, "perfetto")
    return desc


def main():
    mode, path, bd = sys.argv[1:4]
    ops = breakdown(bd)
    if mode == "chrome":
        chrome(path, ops)
    else:
        desc = perfetto(path, ops)
        if len(sys.argv) > 4:
            # Track names as JSON: {"process": {pid: name}, "threads": [[pid, tid, name]], "tracks": [names]}
            want = json.loads(sys.argv[4])
            procs = {d.process.pid: d.process.process_name for d in desc.values() if d.HasField("process")}
            for pid, name in want.get("process", {}).items():
                if procs.get(int(pid)) != name:
                    fail(f"perfetto: process {pid} is named {procs.get(int(pid))!r}, not {name!r}")
            threads = {(d.thread.pid, d.thread.tid): d.thread.thread_name for d in desc.values() if d.HasField("thread")}
            for pid, tid, name in want.get("threads", []):
                if threads.get((pid, tid)) != name:
                    fail(f"perfetto: thread {pid}/{tid} is named {threads.get((pid, tid))!r}, not {name!r}")
            names = {d.name for d in desc.values() if d.name}
            for n in want.get("tracks", []):
                if n not in names:
                    fail(f"perfetto: no track named {n!r} (tracks: {sorted(names)})")


main()
