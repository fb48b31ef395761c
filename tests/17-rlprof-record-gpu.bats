#!/usr/bin/env bats
# rlprof-record: the CUDA injection library (CUPTI) without a GPU: it builds,
# exports InitializeInjection, loads anywhere, records through a stand-in
# for libcupti, and degrades with the reason in the trace.  The real thing
# runs on a GPU machine: tests/gpu/rlprof.sh.

load helpers

LIB=$RLKIT_BUILD/lib/rlkit/librlprof-inject.so
FAKE=$RLKIT_BUILD/workloads/libfake-cupti.so
DRIVER=$TOP/tests/workloads/fake-cuda-driver.py

# The detail of the trace's meta row "gpu".
gpu_meta() {
	python3 -c 'import csv, sys
print("".join(r["detail"] for r in csv.DictReader(open(sys.argv[1])) if r["kind"] == "meta" and r["name"] == "gpu" and not r["pid"]))' "$1"
}

# A stand-in CUDA driver library whose cuInit succeeds with one device.
fake_driver() {
	cat > drv.c <<'C'
int cuInit(unsigned f) { (void)f; return 0; }
int cuDeviceGetCount(int *n) { *n = 1; return 0; }
C
	cc -shared -fPIC -o libcuda-fake.so drv.c
}

@test "injection library: exports InitializeInjection and loads without CUDA" {
	[ -f "$FAKE" ] || fail "built without the CUPTI headers (make deps installs them)"
	# Outside rlprof-record the call does nothing and says success.
	run python3 -c 'import ctypes, sys; l = ctypes.CDLL(sys.argv[1]); print(l.InitializeInjection())' "$LIB"
	assert_success
	assert_output 1
}

@test "rlprof-record: names the injection library in CUDA_INJECTION64_PATH" {
	run rlprof-record --sample 0 -o t.csv -- sh -c 'echo "$CUDA_INJECTION64_PATH"'
	assert_success
	assert_equal "$(realpath "$output")" "$(realpath "$LIB")"
}

@test "--no-gpu: no CUDA injection, and the trace says so" {
	run rlprof-record --no-gpu --sample 0 -o t.csv -- sh -c 'echo "[$CUDA_INJECTION64_PATH]"'
	assert_success
	assert_output "[]"
	assert_equal "$(gpu_meta t.csv)" "not recorded: turned off (--no-gpu)"
}

@test "CUDA_INJECTION64_PATH of another tool is kept; the trace says why" {
	CUDA_INJECTION64_PATH=/opt/other/libinject.so run rlprof-record --sample 0 -o t.csv -- \
		sh -c 'echo "$CUDA_INJECTION64_PATH"'
	assert_success
	assert_output /opt/other/libinject.so
	assert_equal "$(gpu_meta t.csv)" "not recorded: CUDA_INJECTION64_PATH names another injection library"
}

@test "no CUDA driver: the CPU side is recorded and the trace says why" {
	RLPROF_CUDA_DRIVER=/nonexistent/libcuda.so.1 run rlprof-record --sample 0 -o t.csv -- sh -c 'exit 0'
	assert_success
	assert_equal "$(gpu_meta t.csv)" "not recorded: no CUDA driver (/nonexistent/libcuda.so.1 cannot be loaded)"
	grep -q '^process,[0-9]*,,[0-9]*,[0-9]*,sh -c exit 0,.*,exit 0$' t.csv
}

@test "--require-gpu without a driver: exit 3, one line, command not run, no trace" {
	RLPROF_CUDA_DRIVER=/nonexistent/libcuda.so.1 run rlprof-record --require-gpu -o t.csv -- touch ran
	assert_failure 3
	assert_output "rlprof-record: error: no CUDA driver (/nonexistent/libcuda.so.1 cannot be loaded)"
	[ ! -e ran ] && [ ! -e t.csv ]
}

@test "--require-gpu with --no-gpu: usage error" {
	run rlprof-record --require-gpu --no-gpu -o t.csv -- true
	assert_failure 2
	assert_line --index 0 "rlprof-record: error: --require-gpu and --no-gpu contradict each other"
}

@test "CUPTI missing: the process goes on, warning and reason in the trace" {
	RLPROF_CUPTI_LIB=/nonexistent/libcupti.so run rlprof-record --sample 0 -o t.csv -- python3 "$DRIVER"
	assert_success
	assert_output "InitializeInjection 1"
	assert_equal "$(gpu_meta t.csv)" "not recorded: CUPTI library '/nonexistent/libcupti.so' cannot be loaded"
	grep -q "^warning,[0-9]*,[0-9]*,[0-9]*,,,,,,,,,CUPTI library '/nonexistent/libcupti.so' cannot be loaded$" t.csv
	grep -q "^meta,[0-9]*,[0-9]*,,,cupti,,,,,,,CUPTI library" t.csv
}

@test "another CUPTI subscriber: the reason names it; --require-gpu exits 3 after the run" {
	[ -f "$FAKE" ] || fail "built without the CUPTI headers (make deps installs them)"
	fake_driver
	FAKE_CUPTI_FAIL=1 RLPROF_CUPTI_LIB=$FAKE RLPROF_CUDA_DRIVER=$PWD/libcuda-fake.so \
		run rlprof-record --require-gpu --sample 0 -o t.csv -- python3 "$DRIVER"
	assert_failure 3
	assert_line --index 0 "InitializeInjection 1"
	assert_line --index 1 --partial "rlprof-record: error: GPU activity not recorded: another CUPTI subscriber is present"
	[ "${#lines[@]}" -eq 2 ]
	gpu_meta t.csv | grep -q '^not recorded: another CUPTI subscriber is present .*MULTIPLE_SUBSCRIBERS'
}

@test "CUPTI records: API call, kernel and copy rows linked by correlation, dropped count, flush at exit" {
	[ -f "$FAKE" ] || fail "built without the CUPTI headers (make deps installs them)"
	fake_driver
	RLPROF_CUPTI_LIB=$FAKE RLPROF_CUDA_DRIVER=$PWD/libcuda-fake.so \
		run rlprof-record --require-gpu --sample 0 -o t.csv -- python3 "$DRIVER" launch
	assert_success
	gpu_meta t.csv | grep -q '^recorded: CUPTI API version [0-9]*$'
	pid=$(grep -m1 '^cpu,.*,cuLaunchKernel,' t.csv | cut -d, -f2)
	# The call is a cuda_api row of the calling (main) thread, 1 ms or more.
	run python3 -c 'import csv, sys
for r in csv.DictReader(open(sys.argv[1])):
    if r["kind"] == "cpu" and r["name"] == "cuLaunchKernel":
        print(int(r["pid"] == r["tid"] == sys.argv[2]), r["category"], r["correlation"],
              int(int(r["end_ns"]) - int(r["start_ns"]) >= 1000000))' t.csv "$pid"
	assert_output "1 cuda_api 7 1"
	# The activity came with the flush at exit: kernel 2 ms, copy 1 ms.
	run python3 -c 'import csv, sys
for r in csv.DictReader(open(sys.argv[1])):
    if r["kind"] == "gpu":
        print(r["name"], r["category"], r["device"], r["stream"], r["correlation"],
              int(r["end_ns"]) - int(r["start_ns"]), int(r["tid"] == ""))' t.csv
	# CUPTI's mangled name (_Z11fake_kernelPfi), demangled.
	assert_output "fake_kernel(float*, int) kernel 0 3 7 2000000 1
memcpy HtoD memcpy 0 4 7 1000000 1"
	grep -q '^warning,.*,dropped 3 GPU activity records (CUPTI.s buffers were full)$' t.csv
	# The report links both to the operation around the call.
	run rlprof-report -f csv --by kernel t.csv
	assert_success
	assert_line "$pid,launch,\"fake_kernel(float*, int)\",kernel,1,2000000,2000000,2000000"
	assert_line "$pid,launch,memcpy HtoD,memcpy,1,1000000,1000000,1000000"
	assert_line "$pid,launch,[all],,2,3000000,1500000,2000000"
}

@test "CUPTI records: JSON Lines traces carry the same correlation ids" {
	[ -f "$FAKE" ] || fail "built without the CUPTI headers (make deps installs them)"
	RLPROF_CUPTI_LIB=$FAKE run rlprof-record -f jsonl --sample 0 -o t.jsonl -- python3 "$DRIVER"
	assert_success
	run python3 -c '
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
print(sorted((r["kind"], r.get("category"), r["correlation"]) for r in rows if "correlation" in r))' t.jsonl
	assert_output "[('cpu', 'cuda_api', 7), ('gpu', 'kernel', 7), ('gpu', 'memcpy', 7)]"
}

@test "tests/gpu/rlprof-check.py: passes the trace the GPU run should give" {
	python3 "$TOP/tests/workloads/gpu-trace-synth.py" > t.csv
	run python3 "$TOP/tests/gpu/rlprof-check.py" kernels t.csv
	assert_success
	refute_output --partial FAILED
	assert_line "spin_a-mean-ms,2.0..2.50,2.000,ok"
	assert_line "phase_b-overlap-fraction,>=0.5,1.000,ok"
	assert_line "correlated-fraction,1.0,1.0000,ok"
	[ "${#lines[@]}" -eq 18 ]
}

@test "tests/gpu/rlprof-check.py: fails a kernel of the wrong length, an unlinked kernel" {
	python3 "$TOP/tests/workloads/gpu-trace-synth.py" --spin-a-ms 3 > t.csv
	run python3 "$TOP/tests/gpu/rlprof-check.py" kernels t.csv
	assert_failure 1
	assert_line "spin_a-mean-ms,2.0..2.50,3.000,FAILED"
	python3 "$TOP/tests/workloads/gpu-trace-synth.py" | sed 's/^\(gpu,.*,\)1,,$/\1999,,/' > u.csv
	run python3 "$TOP/tests/gpu/rlprof-check.py" kernels u.csv
	assert_failure 1
	assert_line "correlated-fraction,1.0,0.9444,FAILED"
}

@test "tests/gpu/rlprof.sh: without nvcc or a GPU, a FAILED row and exit 1" {
	OUT=$PWD NVCC=/nonexistent/nvcc run sh "$TOP/tests/gpu/rlprof.sh"
	assert_failure 1
	assert_line --index 0 "check,expected,measured,result"
	assert_line --partial "build-rlprof-kernels,ok,"
	[ -f gpu-rlprof.csv ]
}

@test "make install: the installed rlprof-record names the installed CUDA injection library" {
	dest=$BATS_TEST_TMPDIR/root
	run rlkit_make install-bin install-lib DESTDIR="$dest" PREFIX=/usr
	assert_success
	lib=$dest/usr/lib/rlkit/librlprof-inject.so
	run python3 -c 'import ctypes, sys; print(ctypes.CDLL(sys.argv[1]).InitializeInjection())' "$lib"
	assert_success
	assert_output 1
	run "$dest/usr/bin/rlprof-record" --sample 0 --cpu-sample 0 -o t.csv -- sh -c 'echo "$CUDA_INJECTION64_PATH"'
	assert_success
	assert_equal "$(realpath "$output")" "$(realpath "$lib")"
}

@test "CUPTI records: flushed on SIGTERM too" {
	[ -f "$FAKE" ] || fail "built without the CUPTI headers (make deps installs them)"
	RLPROF_CUPTI_LIB=$FAKE run rlprof-record --sample 0 -o t.csv -- python3 "$DRIVER" --term
	assert_failure 143
	grep -q '^process,[0-9]*,,[0-9]*,[0-9]*,python3 .*,signal SIGTERM$' t.csv
	run grep -c '^gpu,.*,7,,$' t.csv
	assert_output 2
}
