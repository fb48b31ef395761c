#!/bin/sh
# rlprof's GPU checks, for a machine with a CUDA GPU (tests/gpu/run calls
# this after building): records tests/gpu/rlprof-kernels.cu (known kernels,
# copies, NVTX operations) with rlprof-record --require-gpu and checks the
# kernels, their durations, their operations through correlation ids, and
# the utilisation figures (tests/gpu/rlprof-check.py); then a PyTorch
# training step when torch with CUDA is there.  Writes the CSV summary to
# $OUT/gpu-rlprof.csv (or standard output).  Exit status: 0 all checks
# passed, 1 not.  Takes well under a minute.
set -u
cd "$(dirname "$0")/../.." || exit 1
B=${RLKIT_BUILD:-$PWD/build}
CUDA_HOME=${CUDA_HOME:-/usr/local/cuda}
NVCC=${NVCC:-nvcc}
PATH=$B/bin:$CUDA_HOME/bin:$PATH
export PATH
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
out=${OUT:+$OUT/gpu-rlprof.csv}
status=0
{
	echo "check,expected,measured,result"
	if ! "$NVCC" -O2 -o "$work/rlprof-kernels" tests/gpu/rlprof-kernels.cu >"$work/nvcc.log" 2>&1; then
		echo "build-rlprof-kernels,ok,$(tail -1 "$work/nvcc.log" | tr ',' ';'),FAILED"
		status=1
	elif ! rlprof-record --require-gpu --force -o "$work/kernels.csv" -- "$work/rlprof-kernels" \
		>"$work/record.log" 2>&1; then
		echo "record-rlprof-kernels,exit 0,$(tail -1 "$work/record.log" | tr ',' ';'),FAILED"
		status=1
	else
		python3 tests/gpu/rlprof-check.py kernels "$work/kernels.csv" || status=1
	fi
	if python3 -c 'import torch, sys; sys.exit(0 if torch.cuda.is_available() else 1)' 2>/dev/null; then
		if rlprof-record --require-gpu --force -o "$work/torch.csv" -- \
			python3 tests/gpu/rlprof-torch-step.py >"$work/torch.log" 2>&1; then
			python3 tests/gpu/rlprof-check.py torch "$work/torch.csv" || status=1
		else
			echo "record-torch-step,exit 0,$(tail -1 "$work/torch.log" | tr ',' ';'),FAILED"
			status=1
		fi
	else
		echo "torch-step,torch with CUDA,absent,skipped"
	fi
} > "${out:-/dev/stdout}"
if [ -n "$out" ]; then
	cat "$out"
	[ -f "$work/kernels.csv" ] && cp "$work/kernels.csv" "$OUT/gpu-rlprof-kernels-trace.csv"
fi
exit $status
