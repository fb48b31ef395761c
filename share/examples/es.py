#!/usr/bin/env python3
"""Evolution strategies with a shared noise table, on fiberrun.

One fiberrun pool runs for the whole search; its workers (es-worker, in C)
persist across generations.  Each generation sends POPULATION antithetic
pairs of tasks: only seeds go out, only fitness comes back, and the update
(seeds with their weights) rides along with the next tasks, so that every
worker rebuilds the same parameters from its own copy of the noise table.

    python3 es.py --worker ./es-worker                  # local, CPUs workers
    python3 es.py --worker ./es-worker -- -H hosts.txt  # over ssh

Arguments after "--" go to fiberrun.  Prints CSV: generation, mean and max
fitness (cart-pole steps balanced, 500 at most), tasks, seconds.
"""
import argparse
import json
import random
import subprocess
import sys
import time

TABLE_SIZE = 1 << 20
DIM = 5
SIGMA = 0.1


def centered_ranks(xs):
    order = sorted(range(len(xs)), key=lambda i: xs[i])
    r = [0.0] * len(xs)
    for rank, i in enumerate(order):
        r[i] = rank / (len(xs) - 1) - 0.5 if len(xs) > 1 else 0.0
    return r


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--worker", required=True, help="the es-worker program")
    ap.add_argument("--fiberrun", default="fiberrun")
    ap.add_argument("--generations", type=int, default=20)
    ap.add_argument("--population", type=int, default=32, help="antithetic pairs per generation")
    ap.add_argument("--lr", type=float, default=0.02)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("fiberrun_args", nargs="*", help="more fiberrun options (after --)")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    cmd = [args.fiberrun, "--pool", "--protocol", "lines", "--lines", "-q"] + args.fiberrun_args + ["--", args.worker]
    pool = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    history = []    # (seed, weight) of every update so far
    line = 0        # task ids are input line numbers
    print("generation,mean_fitness,max_fitness,tasks,seconds")
    for gen in range(args.generations):
        t0 = time.perf_counter()
        seeds = [rng.randrange(TABLE_SIZE) for _ in range(args.population)]
        hist = " ".join("%d %.9g" % p for p in history)
        ids = {}
        for i, s in enumerate(seeds):
            for sign in (1, -1):
                line += 1
                ids[line] = (i, sign)
                pool.stdin.write("%d %d %d %s\n" % (s, sign, len(history), hist))
        pool.stdin.flush()
        fit = {}

        for _ in range(2 * args.population):
            rec = json.loads(pool.stdout.readline())
            if rec["status"] != "ok":
                sys.exit("es.py: error: task %s: %s" % (rec["id"], rec.get("error")))
            fit[ids[rec["id"]]] = float(rec["result"])
        plus = [fit[(i, 1)] for i in range(args.population)]
        minus = [fit[(i, -1)] for i in range(args.population)]
        ranks = centered_ranks(plus + minus)
        for i, s in enumerate(seeds):
            w = args.lr * (ranks[i] - ranks[args.population + i]) / (args.population * SIGMA)
            history.append((s, w))
        allf = plus + minus
        print("%d,%.1f,%.0f,%d,%.3f" % (gen, sum(allf) / len(allf), max(allf), len(allf),
                                        time.perf_counter() - t0), flush=True)
    pool.stdin.close()
    pool.wait()
    return pool.returncode


if __name__ == "__main__":
    sys.exit(main())
