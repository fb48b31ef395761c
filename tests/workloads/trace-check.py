#!/usr/bin/env python3
"""Check and query rlprof traces in the tests (CSV or JSON Lines).

  trace-check.py validate FILE      schema of rlprof-trace(5); exit 1 on a fault
  trace-check.py ms FILE KIND NAME  duration in ms of each KIND row named NAME
  trace-check.py rows FILE KIND     the rows of KIND as "name|category|domain|value|detail"
  trace-check.py us FILE KIND [NAME]
                                    total duration in microseconds (exact, 3
                                    decimals) of the KIND rows (named NAME)
  trace-check.py wall FILE          the profiled wall time in microseconds of the
                                    first process: from its first to its last
                                    event, its process row included
  trace-check.py tree FILE          the op ranges and marks ("@name") of each
                                    thread nested by time, one per line, indented
                                    two spaces per level, threads in order of
                                    their first row; exit 1 when two ranges
                                    overlap without nesting
  trace-check.py within FILE INNER OUTER
                                    exit 1 unless every op range named INNER lies
                                    within an op or phase range named OUTER of
                                    the same process (any thread)
  trace-check.py overlap FILE CATEGORY NAME
                                    microseconds of the cpu rows of CATEGORY
                                    that fall within op ranges named NAME of the
                                    same thread

Durations are computed from the integer nanoseconds, never through floats,
so that tests can compare them with a report's sums exactly.
"""
import csv
import json
import sys

COLUMNS = ["kind", "pid", "tid", "start_ns", "end_ns", "name", "category",
           "domain", "device", "stream", "correlation", "value", "detail"]
KINDS = {"meta", "process", "thread", "op", "mark", "phase", "cpu", "gpu",
         "counter", "warning"}
CATEGORIES = {"", "python", "simulator", "backend", "cuda_api", "wait",
              "kernel", "memcpy", "memset", "native", "system", "runnable"}
INTEGERS = ["pid", "tid", "start_ns", "end_ns", "device", "stream", "correlation"]


def load(path):
    with open(path, newline="", encoding="utf-8") as f:
        text = f.read()
    if text.startswith("{"):
        rows = []
        for n, line in enumerate(text.splitlines(), 1):
            obj = json.loads(line)
            for k in obj:
                if k not in COLUMNS:
                    raise SystemExit("line %d: unknown key %r" % (n, k))
                if obj[k] == "":
                    raise SystemExit("line %d: empty field %r not omitted" % (n, k))
            rows.append({k: "" if obj.get(k) is None else str(obj[k]) for k in COLUMNS})
        return rows
    reader = csv.reader(text.splitlines())
    header = next(reader)
    if header != COLUMNS:
        raise SystemExit("bad header: %r" % header)
    rows = []
    for n, r in enumerate(reader, 2):
        if len(r) != len(COLUMNS):
            raise SystemExit("line %d: %d fields" % (n, len(r)))
        rows.append(dict(zip(COLUMNS, r)))
    return rows


def validate(rows):
    for n, r in enumerate(rows, 1):
        if r["kind"] not in KINDS:
            raise SystemExit("row %d: unknown kind %r" % (n, r["kind"]))
        if r["category"] not in CATEGORIES:
            raise SystemExit("row %d: unknown category %r" % (n, r["category"]))
        for k in INTEGERS:
            if r[k] and not r[k].lstrip("-").isdigit():
                raise SystemExit("row %d: %s is not an integer: %r" % (n, k, r[k]))
        if r["start_ns"] and r["end_ns"] and int(r["end_ns"]) < int(r["start_ns"]):
            raise SystemExit("row %d: ends before it starts" % n)
        if r["kind"] in ("op", "cpu", "phase", "thread") and not (r["start_ns"] and r["end_ns"] and r["pid"]):
            raise SystemExit("row %d: %s without pid, start or end" % (n, r["kind"]))
        if r["kind"] == "cpu" and not r["category"]:
            raise SystemExit("row %d: cpu row without a category" % n)
    print("valid: %d rows" % len(rows))


def us(ns):
    return "%d.%03d" % (ns // 1000, ns % 1000)


def spans(rows, kind, name=None):
    return [(int(r["start_ns"]), int(r["end_ns"]), r) for r in rows
            if r["kind"] == kind and (name is None or r["name"] == name)]


def tree(rows):
    threads = {}
    for start, end, r in spans(rows, "op") + spans(rows, "mark"):
        name = r["name"] if r["kind"] == "op" else "@" + r["name"]
        threads.setdefault((r["pid"], r["tid"]), []).append((start, -end, name))
    bad = 0
    for key in sorted(threads, key=lambda k: min(threads[k])):
        stack = []
        for start, neg_end, name in sorted(threads[key]):
            end = -neg_end
            while stack and stack[-1][1] <= start:
                stack.pop()
            if stack and end > stack[-1][1]:
                print("overlap: %r and %r" % (stack[-1][0], name), file=sys.stderr)
                bad = 1
            print("  " * len(stack) + name)
            stack.append((name, end))
    return bad


def within(rows, inner, outer):
    bad = 0
    for start, end, r in spans(rows, "op", inner):
        if not any(s <= start and end <= e and o["pid"] == r["pid"]
                   for s, e, o in spans(rows, "op", outer) + spans(rows, "phase", outer)):
            print("%r on thread %s is not within %r" % (inner, r["tid"], outer), file=sys.stderr)
            bad = 1
    return bad


def overlap(rows, category, name):
    ops = {}
    for start, end, r in spans(rows, "op", name):
        ops.setdefault((r["pid"], r["tid"]), []).append((start, end))
    total = 0
    for start, end, r in spans(rows, "cpu"):
        if r["category"] != category:
            continue
        for s, e in ops.get((r["pid"], r["tid"]), []):
            total += max(0, min(end, e) - max(start, s))
    return total


def main():
    cmd, path = sys.argv[1], sys.argv[2]
    rows = load(path)
    if cmd == "validate":
        validate(rows)
    elif cmd == "ms":
        for r in rows:
            if r["kind"] == sys.argv[3] and r["name"] == sys.argv[4]:
                print("%.3f" % ((int(r["end_ns"]) - int(r["start_ns"])) / 1e6))
    elif cmd == "rows":
        for r in rows:
            if r["kind"] == sys.argv[3]:
                print("|".join(r[k] for k in ("name", "category", "domain", "value", "detail")))
    elif cmd == "us":
        name = sys.argv[4] if len(sys.argv) > 4 else None
        print(us(sum(e - s for s, e, _ in spans(rows, sys.argv[3], name))))
    elif cmd == "wall":
        pid = next(r["pid"] for r in rows if r["kind"] == "process")
        times = [(int(r["start_ns"]), int(r["end_ns"])) for r in rows
                 if r["pid"] == pid and r["start_ns"] and r["end_ns"]]
        print(us(max(e for _, e in times) - min(s for s, _ in times)))
    elif cmd == "tree":
        sys.exit(tree(rows))
    elif cmd == "within":
        sys.exit(within(rows, sys.argv[3], sys.argv[4]))
    elif cmd == "overlap":
        print(us(overlap(rows, sys.argv[3], sys.argv[4])))
    else:
        raise SystemExit("unknown command %r" % cmd)


if __name__ == "__main__":
    main()
