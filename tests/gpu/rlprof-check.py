"""Checks of a trace that rlprof-record made on a GPU machine, for
tests/gpu/rlprof.sh.  Prints CSV rows "check,expected,measured,result"
(no header) and exits 1 when a check fails.

  rlprof-check.py kernels TRACE   the trace of tests/gpu/rlprof-kernels.cu
  rlprof-check.py torch TRACE     the trace of tests/gpu/rlprof-torch-step.py

rlprof-report is taken from PATH."""
import csv
import io
import json
import subprocess
import sys

failed = False


def row(check, expected, measured, ok):
    global failed
    failed |= not ok
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerow(
        [check, expected, measured, "ok" if ok else "FAILED"])
    sys.stdout.write(out.getvalue())


def report(*args):
    return subprocess.run(["rlprof-report", *args], check=True,
                          capture_output=True, text=True).stdout


def load(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def common(rows, path):
    meta = [r["detail"] for r in rows
            if r["kind"] == "meta" and r["name"] == "gpu" and not r["pid"]]
    row("gpu-recorded", "recorded: CUPTI ...", meta[0] if meta else "",
        bool(meta) and meta[0].startswith("recorded:"))
    calls = {(r["pid"], r["correlation"]): r for r in rows
             if r["kind"] == "cpu" and r["category"] == "cuda_api" and r["correlation"]}
    gpu = [r for r in rows if r["kind"] == "gpu"]
    linked = [g for g in gpu if (g["pid"], g["correlation"]) in calls]
    row("gpu-rows", ">0", len(gpu), len(gpu) > 0)
    row("correlated-fraction", "1.0", f"{len(linked) / max(len(gpu), 1):.4f}",
        gpu and len(linked) == len(gpu))
    # One clock: a kernel starts after the call that launched it, and
    # within its process's lifetime.
    procs = {r["pid"]: (int(r["start_ns"]), int(r["end_ns"])) for r in rows
             if r["kind"] == "process" and r["start_ns"] and r["end_ns"]}
    bad = sum(1 for g in linked
              if int(g["start_ns"]) < int(calls[(g["pid"], g["correlation"])]["start_ns"])
              or not (procs.get(g["pid"], (0, 1 << 63))[0] <= int(g["start_ns"])
                      <= procs.get(g["pid"], (0, 1 << 63))[1]))
    row("kernel-after-call-in-process", "0 bad", f"{bad} bad", bad == 0)
    util = json.loads(report("-f", "json", path))["gpus"]
    for g in util:
        row(f"busy-le-smi-device-{g['device']}", "busy_fraction <= smi_fraction_1_6s",
            f"{g['busy_fraction']} <= {g['smi_fraction_1_6s']}",
            g["busy_fraction"] <= g["smi_fraction_1_6s"])
    return gpu, util


def by_kernel(path):
    return {(r["operation"], r["kernel"]): r
            for r in csv.DictReader(io.StringIO(report("-f", "csv", "--by", "kernel", path)))}


def kernels(path):
    rows = load(path)
    gpu, util = common(rows, path)
    bk = by_kernel(path)
    # Kernels by their demangled names (CUPTI gives _Z6spin_ax).
    for op, k, ms in (("phase_a", "spin_a", 2.0), ("phase_b", "spin_b", 1.0),
                      ("phase_b", "spin_c", 1.0)):
        r = bk.get((op, f"{k}(long long)"))
        row(f"{k}-calls-in-{op}", 5, r["calls"] if r else 0, bool(r) and int(r["calls"]) == 5)
        mean = int(r["mean_ns"]) / 1e6 if r else 0.0
        row(f"{k}-mean-ms", f"{ms:.1f}..{ms * 1.25:.2f}", f"{mean:.3f}",
            ms <= mean <= ms * 1.25)
    for k in ("memcpy HtoD", "memcpy DtoH", "memset"):
        r = bk.get(("copies", k))
        row(f"{k.replace(' ', '-')}-in-copies", ">=1", r["calls"] if r else 0, bool(r))
    # phase_b's two streams run at once.
    b = sorted((int(g["start_ns"]), int(g["end_ns"])) for g in gpu
               if g["name"] == "spin_b(long long)")
    c = sorted((int(g["start_ns"]), int(g["end_ns"])) for g in gpu
               if g["name"] == "spin_c(long long)")
    overlap = sum(max(0, min(e1, e2) - max(s1, s2)) for s1, e1 in b for s2, e2 in c)
    total = sum(e - s for s, e in b) or 1
    streams = {g["stream"] for g in gpu
               if g["name"] in ("spin_b(long long)", "spin_c(long long)")}
    row("phase_b-streams", 2, len(streams), len(streams) == 2)
    row("phase_b-overlap-fraction", ">=0.5", f"{overlap / total:.3f}", overlap / total >= 0.5)
    busy = sum(g["busy_us"] for g in util)
    row("busy-us", ">=15000 (10 ms phase_a + 5 ms phase_b)", f"{busy:.0f}", busy >= 15000)
    ratio = max((g["smi_fraction_1_6s"] / g["busy_fraction"] for g in util
                 if g["busy_fraction"] > 0), default=0.0)
    row("smi-over-busy", ">1 (50 ms idle)", f"{ratio:.2f}", ratio > 1.0)


def torch(path):
    rows = load(path)
    common(rows, path)
    bk = by_kernel(path)
    step = sum(int(r["calls"]) for (op, k), r in bk.items()
               if op == "train_step" and k != "[all]")
    row("train_step-kernels", ">0", step, step > 0)


if __name__ == "__main__":
    {"kernels": kernels, "torch": torch}[sys.argv[1]](sys.argv[2])
    sys.exit(1 if failed else 0)
