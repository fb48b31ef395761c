#!/usr/bin/env python3
"""A fiberrun pool worker in Python, speaking protocol 2
(fiberrun-protocol(5)): a task {"x": 3} gets {"square": 9}; a task
without a number gets an error result, reported with status "error".
Anything printed on standard output is not a result: fiberrun passes it
to its standard error, marked as such.

    printf '{"x":2}\\n{"x":3}\\n' | fiberrun --pool -n 2 -- python3 worker.py
"""
import json
import os
import sys

res = os.fdopen(int(os.environ["FIBERRUN_RESULT_FD"]), "wb")
inp = sys.stdin.buffer


def answer(kind, tid, data):
    res.write(b"%s %s %d\n" % (kind, tid, len(data)) + data + b"\n")
    res.flush()


print("worker.py: loading", flush=True)  # a banner: harmless here
res.write(b"ready\n")
res.flush()
while True:
    head = inp.readline()
    if not head:
        break
    _, tid, size = head.split()
    task = inp.read(int(size))
    inp.read(1)
    try:
        x = json.loads(task)["x"]
        answer(b"ok", tid, json.dumps({"square": x * x}).encode())
    except (ValueError, KeyError, TypeError) as e:
        answer(b"error", tid, ("bad task: %s" % e).encode())
