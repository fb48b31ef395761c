#!/usr/bin/env bats
# rlprof-record on PyTorch: operators written as expressions count as
# backend.  PyTorch is gigabytes, so 'make check-train' installs it and runs
# this suite; 'make check' does not.

load ../helpers

setup() {
	cd "$BATS_TEST_TMPDIR" || return 1
	python3 -c 'import torch' 2> /dev/null || fail "PyTorch is not installed (make check-train installs it)"
}

@test "--cpu-sample: torch operators written as x @ w + b are >= 90% backend" {
	run rlprof-record -o t.csv -- python3 "$TOP/tests/workloads/phases.py" ru.txt torch
	assert_success
	python3 "$TOP/tests/workloads/cpu-check.py" t.csv expect torch backend 0.9
}
