"""Writes to standard output the trace rlprof-record should make of
tests/gpu/rlprof-kernels.cu on a GPU, so that the checks of
tests/gpu/rlprof-check.py run without one.  --spin-a-ms MS changes the
length of spin_a (2 ms in the real program).  Kernels have the names
rlprof-record gives them, demangled."""
import argparse

ap = argparse.ArgumentParser()
ap.add_argument("--spin-a-ms", type=float, default=2.0)
a = ap.parse_args()

B = 1700000000000000000
US = 1000
rows = ["kind,pid,tid,start_ns,end_ns,name,category,domain,device,stream,correlation,value,detail",
        "meta,,,,,gpu,,,,,,,recorded: CUPTI API version 130001"]
corr = [0]


def op(a_us, b_us, name):
    rows.append(f"op,9,9,{B + a_us * US},{B + b_us * US},{name},,,,,,0,")


def launch(t_us, name, cat, stream, start_us, dur_us):
    corr[0] += 1
    c = corr[0]
    rows.append(f"cpu,9,9,{B + t_us * US},{B + t_us * US + 5 * US},cudaLaunchKernel,cuda_api,,,,{c},,")
    rows.append(f"gpu,9,,{B + int(start_us * US)},{B + int((start_us + dur_us) * US)},{name},{cat},,0,{stream},{c},,")


op(100, 3000, "copies")
launch(100, "memcpy HtoD", "memcpy", 7, 200, 1000)
launch(1300, "memset", "memset", 7, 1400, 100)
launch(1600, "memcpy DtoH", "memcpy", 7, 1700, 1000)
op(3000, 14000, "phase_a")
for i in range(5):
    launch(3000 + i * 10, "spin_a(long long)", "kernel", 13, 3100 + i * a.spin_a_ms * 1000, a.spin_a_ms * 1000)
op(14000, 20000, "phase_b")
for i in range(5):
    launch(14000 + i * 20, "spin_b(long long)", "kernel", 14, 14100 + i * 1000, 1000)
    launch(14010 + i * 20, "spin_c(long long)", "kernel", 15, 14100 + i * 1000, 1000)
op(20000, 70000, "idle")
rows.append(f"process,9,,{B},{B + 71000 * US},./rlprof-kernels,,,,,,1,exit 0")
rows.append(f"thread,9,9,{B},{B + 71000 * US},rlprof-kernels,,,,,,,")
print("\n".join(rows))
