#!/usr/bin/env python3
"""A fiberrun pool worker in Python: one JSON task per line in, one JSON
result per line out.  A task {"x": 3} gets {"square": 9}; a task without a
number gets an error result ("!" and a message), reported with status
"error".

    printf '{"x":2}\\n{"x":3}\\n' | fiberrun --pool -n 2 -- python3 worker.py
"""
import json
import sys

for line in sys.stdin:
    try:
        x = json.loads(line)["x"]
        print(json.dumps({"square": x * x}), flush=True)
    except (ValueError, KeyError, TypeError) as e:
        print("!bad task: %s" % e, flush=True)
