"""Check a trace of tests/workloads/phases.py (or any trace): per operation,
the share of its time in each cpu category.

    python3 cpu-check.py TRACE shares            # op,category,ms,share_of_cpu,share_of_wall
    python3 cpu-check.py TRACE expect OP CAT MIN  # exit 1 unless OP's share in CAT >= MIN
                                                  # (CAT: one, or several joined by '+')
    python3 cpu-check.py TRACE at-most OP CAT MAX # exit 1 unless OP's share in CAT <= MAX
    python3 cpu-check.py TRACE cpu PID_OF_COMMAND # the CPU ns of the traced process
    python3 cpu-check.py TRACE samples OP CAT MIN FILE
        # sample rows (--full-detail) in OP: exit 1 unless at least MIN of
        # them are in CAT and one of those is of a file whose name holds FILE

Shares of CPU categories (python, simulator, backend, cuda_api, native,
system) are of the operation's CPU time; those of runnable and wait of its
wall time.  For expect and at-most, a set of CPU categories without system
is a share of the user CPU time (all but system): the kernel splits a
thread's CPU time into user and system by where its ticks land, which on a
busy machine puts a few ticks of pure user code in system, so a check of
where the user time went would fail for the kernel's noise.
"""
import bisect
import collections
import csv
import itertools
import sys

CPU = ("python", "simulator", "backend", "cuda_api", "native", "system")


def load(path):
    ops, cpus = [], collections.defaultdict(list)
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            if row["kind"] == "op":
                ops.append((row["name"], int(row["pid"]), int(row["tid"]),
                            int(row["start_ns"]), int(row["end_ns"])))
            elif row["kind"] == "cpu":
                cpus[(int(row["pid"]), int(row["tid"]))].append(
                    (int(row["start_ns"]), int(row["end_ns"]), row["category"]))
    return ops, cpus


def per_op(ops, cpus):
    """Each operation's time per category: the overlaps of its interval with
    the cpu rows of its thread, found by bisection (rows sorted by start;
    the running maximum of their ends tells where overlaps can begin)."""
    out = collections.defaultdict(lambda: collections.defaultdict(int))
    wall = collections.defaultdict(int)
    index = {}
    for key, rows in cpus.items():
        rows.sort()
        index[key] = list(itertools.accumulate((e for _, e, _ in rows), max))
    for name, pid, tid, a, b in ops:
        wall[name] += b - a
        rows, ends = cpus.get((pid, tid), ()), index.get((pid, tid), ())
        for s, e, cat in itertools.islice(rows, bisect.bisect_right(ends, a), None):
            if s >= b:
                break
            lo, hi = max(a, s), min(b, e)
            if hi > lo:
                out[name][cat] += hi - lo
    return out, wall


def samples(path, ops, op, cat, want, file):
    """Sample rows inside the operation op (its thread, its time)."""
    rows = []
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            if r["kind"] == "sample":
                rows.append((int(r["pid"]), int(r["tid"]), int(r["start_ns"]),
                             r["category"], r["name"], int(r["value"])))
    by_thread = collections.defaultdict(list)
    for s in sorted(rows, key=lambda s: s[2]):
        by_thread[(s[0], s[1])].append(s)
    times = {k: [s[2] for s in v] for k, v in by_thread.items()}
    inside = []
    for name, pid, tid, a, b in ops:
        if name == op and (pid, tid) in times:
            t = times[(pid, tid)]
            inside += by_thread[(pid, tid)][bisect.bisect_left(t, a):bisect.bisect_right(t, b)]
    hits = [s for s in inside if s[3] == cat]
    files = collections.Counter(s[4] for s in hits)
    got = len(hits) / len(inside) if inside else 0.0
    if got < want or not any(file in f for f in files) or any(s[5] < 0 for s in rows):
        print("%s: %d of %d samples in %s (%.3f, want >= %.2f), files %s, want one with %r" % (
            op, len(hits), len(inside), cat, got, want, dict(files), file), file=sys.stderr)
        return 1
    return 0


def main():
    path, what = sys.argv[1], sys.argv[2]
    ops, cpus = load(path)
    if what == "samples":
        return samples(path, ops, sys.argv[3], sys.argv[4], float(sys.argv[5]), sys.argv[6])
    if what == "cpu":
        pid = int(sys.argv[3])
        print(sum(e - s for (p, _), rows in cpus.items() if p == pid
                  for s, e, c in rows if c in CPU))
        return 0
    out, wall = per_op(ops, cpus)
    if what == "shares":
        print("op,category,ms,share")
        for name in sorted(out):
            cpu = sum(v for c, v in out[name].items() if c in CPU) or 1
            for cat, v in sorted(out[name].items()):
                base = cpu if cat in CPU else wall[name]
                print("%s,%s,%.1f,%.3f" % (name, cat, v / 1e6, v / base))
        return 0
    op, cat, want = sys.argv[3], sys.argv[4], float(sys.argv[5])
    cats = cat.split("+")
    if cats[0] not in CPU:
        base, of = wall[op], "wall"
    elif "system" in cats:
        base, of = sum(v for c, v in out[op].items() if c in CPU), "CPU"
    else:
        base, of = sum(v for c, v in out[op].items() if c in CPU and c != "system"), "user CPU"
    got = sum(out[op][c] for c in cats) / base if base else 0.0
    if what == "at-most" and got > want:
        print("%s: %s is %.3f of its %s time, want <= %.2f (%s)" % (
            op, cat, got, of, want, dict(out[op])), file=sys.stderr)
        return 1
    if what == "expect" and got < want:
        print("%s: %s is %.3f of its %s time, want >= %.2f (%s)" % (
            op, cat, got, of, want, dict(out[op])), file=sys.stderr)
        return 1
    return 0


sys.exit(main())
