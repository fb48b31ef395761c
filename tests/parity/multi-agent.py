#!/usr/bin/env python3
"""Compact traces of the games whose reference is multi-agent ALE.

Combat, Joust, Maze Craze and Warlords are checked against multi-agent ALE
(the Python package multi-agent-ale-py), which CI does not have: its traces
are committed in compact form, one file per case of tests/parity/multi-agent/
cases, and tests/35-cule-bench-multi-agent.bats compares cule-bench with them.

A compact trace is CSV, gzip-compressed:
    action,reward,terminal,lives,state
a row per frame (the frame is the row's number), the columns of `cule-bench
trace` but for the RAM and the screen, which `state` stands for: the first 8 hex digits of a chain of MD5s, each over
the last one and the frame's RAM and screen MD5, written every 16 frames,
on terminal frames and on the last (empty on the others).  So a difference
in RAM or screen shows at the next written state.  No ROM byte is in it.

usage: multi-agent.py compact [< TRACE.csv] > COMPACT.csv
       multi-agent.py write [--cule-bench PROG] [--roms DIR] [-o DIR] [CASE...]

compact turns a trace (of cule-bench trace or share/ale-trace.py) into the
compact form.  write traces each case (all by default) with multi-agent
ALE, the actions drawn by `cule-bench trace --frames` with the case's seed,
into DIR/CASE.csv.gz (default: the folder of the cases file).

Exit status: 0 success, 1 failure, 3 multi-agent-ale-py or ale-py (whose
ROMs are used) is not installed.
"""
import argparse
import gzip
import hashlib
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(os.path.dirname(HERE))
CASES = os.path.join(HERE, "multi-agent", "cases")
HEADER = "action,reward,terminal,lives,state"
EVERY = 16


def compact(lines):
    """Yield the compact rows of a trace's lines (header first)."""
    chain = b""
    rows = [line.rstrip("\n").split(",") for line in lines]
    if not rows or rows[0][:5] != ["frame", "action", "reward", "terminal", "lives"]:
        raise ValueError("not a trace: the header is missing")
    yield HEADER
    for i, r in enumerate(rows[1:], 1):
        if len(r) != 7:
            raise ValueError(f"line {i + 1}: {len(r)} columns, 7 expected")
        chain = hashlib.md5(chain + bytes.fromhex(r[5]) + r[6].encode()).digest()
        last = i == len(rows) - 1
        state = chain.hex()[:8] if i % EVERY == 0 or r[3] == "1" or last else ""
        yield ",".join(r[1:5] + [state])


def read_cases(path=CASES):
    """[(name, game, seed, frames, options)] of the cases file."""
    cases = []
    with open(path) as f:
        for line in f:
            words = line.split("#", 1)[0].split()
            if words:
                cases.append((words[0], words[1], int(words[2]), int(words[3]), words[4:]))
    return cases


def write(args):
    try:
        import multi_agent_ale_py  # noqa: F401
        import ale_py
    except ImportError as e:
        print(f"multi-agent.py: error: python module '{e.name}' is not installed",
              file=sys.stderr)
        return 3
    roms = args.roms or os.path.join(os.path.dirname(ale_py.__file__), "roms")
    out = args.output or os.path.dirname(CASES)
    cases = read_cases()
    names = set(args.cases)
    unknown = names - {c[0] for c in cases}
    if unknown:
        print(f"multi-agent.py: error: no case '{sorted(unknown)[0]}' in '{CASES}'",
              file=sys.stderr)
        return 1
    with tempfile.TemporaryDirectory() as tmp:
        for name, game, seed, frames, options in cases:
            if names and name not in names:
                continue
            rom = os.path.join(roms, game + ".bin")
            ours = subprocess.run([args.cule_bench, "trace", "--rom", rom, "--game", game,
                                   "--frames", str(frames), "--seed", str(seed)] + options,
                                  stdout=subprocess.PIPE, text=True, check=True).stdout
            actions = os.path.join(tmp, "actions")
            with open(actions, "w") as f:
                f.writelines(line.split(",")[1] + "\n" for line in ours.splitlines()[1:])
            trace = os.path.join(tmp, "trace.csv")
            subprocess.run([sys.executable, os.path.join(TOP, "share", "ale-trace.py"),
                            "--multi-agent", "--rom", rom, "--actions", actions,
                            "--seed", str(seed), "-o", trace] + options, check=True)
            with open(trace) as f:
                rows = list(compact(f))
            if len(rows) != frames + 1:
                print(f"multi-agent.py: error: case '{name}': {len(rows) - 1} frames traced",
                      file=sys.stderr)
                return 1
            # mtime 0: the same trace gives the same bytes.
            path = os.path.join(out, name + ".csv.gz")
            with open(path + ".tmp", "wb") as raw:
                with gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0) as z:
                    z.write(("\n".join(rows) + "\n").encode())
            os.replace(path + ".tmp", path)
    return 0


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = p.add_subparsers(dest="command", required=True)
    sub.add_parser("compact", help="compact a trace from standard input")
    w = sub.add_parser("write", help="write the reference traces of the cases")
    w.add_argument("--cule-bench", default="cule-bench", help="the program (default: on PATH)")
    w.add_argument("--roms", help="folder of the ROMs (default: ale-py's)")
    w.add_argument("-o", "--output", help="folder to write to (default: the cases' folder)")
    w.add_argument("cases", nargs="*", help="cases to write (default: all)")
    args = p.parse_args()
    if args.command == "compact":
        try:
            for row in compact(sys.stdin):
                sys.stdout.write(row + "\n")
        except ValueError as e:
            print(f"multi-agent.py: error: {e}", file=sys.stderr)
            return 1
        return 0
    try:
        return write(args)
    except subprocess.CalledProcessError as e:
        print(f"multi-agent.py: error: '{e.cmd[0]}' failed with status {e.returncode}",
              file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
