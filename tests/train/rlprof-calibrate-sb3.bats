#!/usr/bin/env bats
# rlprof-calibrate on Stable-Baselines3 PPO and DQN on CartPole (CPU
# PyTorch): every source is measured, and the calibration corrects a
# recorded run.  Counts and structure only; bench/calibrate gives the
# figures.  'make check-train' installs PyTorch and runs this suite.

load ../helpers

setup() {
	cd "$BATS_TEST_TMPDIR" || return 1
	python3 -c 'import torch, stable_baselines3, gymnasium' 2> /dev/null ||
		fail "PyTorch or Stable-Baselines3 is not installed (make check-train installs them)"
}

sb3() {	# sb3 ALGO: calibrate one repeat, then correct a recorded run
	run --separate-stderr rlprof-calibrate -n 1 -o cal.json -- python3 "$TOP/bench/record-sb3.py" "$1" 600
	assert_success
	python3 - cal.json <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))["sources"]
for name in ("annotations", "python-hook", "cpu-sampling"):
    assert s[name]["events"][0] > 0 and s[name]["ns_per_event"] is not None, (name, s[name])
PY
	rlprof-record -o t.csv -- python3 "$TOP/bench/record-sb3.py" "$1" 600
	run rlprof-report -f csv --calibration cal.json t.csv
	assert_success
	assert_line --regexp '^all,\[corrected\],,,[0-9]'
	assert_line --regexp '^[0-9]+,train,'
}

@test "rlprof-calibrate: SB3 PPO on CartPole, every source measured" {
	sb3 ppo
}

@test "rlprof-calibrate: SB3 DQN on CartPole, every source measured" {
	sb3 dqn
}
