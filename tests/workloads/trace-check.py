#!/usr/bin/env python3
"""Check and query rlprof traces in the tests (CSV or JSON Lines).

  trace-check.py validate FILE      schema of rlprof-trace(5); exit 1 on a fault
  trace-check.py ms FILE KIND NAME  duration in ms of each KIND row named NAME
  trace-check.py rows FILE KIND     the rows of KIND as "name|category|domain|value|detail"
"""
import csv
import json
import sys

COLUMNS = ["kind", "pid", "tid", "start_ns", "end_ns", "name", "category",
           "domain", "device", "stream", "correlation", "value", "detail"]
KINDS = {"meta", "process", "thread", "op", "mark", "phase", "cpu", "gpu",
         "counter", "warning"}
CATEGORIES = {"", "python", "simulator", "backend", "cuda_api", "wait",
              "kernel", "memcpy", "memset"}
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
    else:
        raise SystemExit("unknown command %r" % cmd)


if __name__ == "__main__":
    main()
