#!/usr/bin/env bats
# rlkit.atari, the emulator as a Gymnasium vector environment: the Python
# package's own tests (share/python/tests, pytest), run on the package as
# the build lays it out, and its native stepping counted as simulator by
# rlprof-record.  The training tests (Stable-Baselines3 PPO) need PyTorch:
# 'make check-train' runs them.

load helpers

setup() {
	cd "$BATS_TEST_TMPDIR" || return 1
	skip_unless_python pytest gymnasium numpy ale_py
	[ -e "$RLKIT_BUILD/share/rlkit/python/rlkit/_atari.so" ] ||
		fail "rlkit.atari was not built (it needs the Python headers: python3-dev)"
	export RLKIT_PYTHONPATH="$RLKIT_BUILD/share/rlkit/python"
}

pytest_file() {
	run python3 -m pytest -q -p no:cacheprovider "$TOP/share/python/tests/$1"
	[ "$status" -eq 0 ] || fail "$output"
	[[ $output == *" passed"* ]] || fail "no test ran: $output"
	[[ $output != *" skipped"* ]] || fail "tests skipped: $output"
}

@test "rlkit.atari: VectorEnv spaces, batches, autoreset, send/recv, errors (test_atari.py)" {
	pytest_file test_atari.py
}

@test "rlkit.atari: identical to ale-py's ALEInterface for every verified game (test_parity.py)" {
	pytest_file test_parity.py
}

@test "make install: rlkit.atari and rlkit-atari(3) in place, importable from the installed tree" {
	rlkit_make install DESTDIR="$BATS_TEST_TMPDIR/root" PREFIX=/usr >/dev/null
	local py="$BATS_TEST_TMPDIR/root/usr/share/rlkit/python"
	[ -e "$py/rlkit/_atari.so" ] && [ -e "$py/rlkit/atari.py" ] || fail "not installed in $py"
	[ -f "$BATS_TEST_TMPDIR/root/usr/share/man/man3/rlkit-atari.3" ] || fail "rlkit-atari(3) not installed"
	run env PYTHONPATH="$py" python3 -c '
import rlkit.atari, numpy as np
env = rlkit.atari.VectorEnv("catch", 2)
obs, _ = env.reset(seed=1)
print(rlkit.atari.__file__.startswith("'"$py"'"), obs.shape)'
	assert_success
	assert_output "True (2, 84, 84)"
}

@test "rlprof-record: rlkit.atari's stepping is simulator time" {
	[ -e "$RLKIT_BUILD/lib/rlkit/librlprof-inject.so" ] || fail "the injection library was not built"
	cat > steps.py <<'PY'
import numpy as np, rlkit.atari, rlprof
env = rlkit.atari.VectorEnv("catch", 16, threads=1)
env.reset(seed=0)
with rlprof.operation("steps"):
    for _ in range(150):
        env.step(np.zeros(16, np.int32))
PY
	PYTHONPATH="$RLKIT_PYTHONPATH" run rlprof-record -o t.csv -- python3 steps.py
	assert_success
	# At least 90% of the stepping loop's CPU time is simulator (time spent
	# runnable or blocked depends on the machine's load, not on attribution);
	# 16 environments a step keep the Python around each call a small part.
	run bash -c "rlprof-report -f csv t.csv | awk -F, '\$2 == \"steps\" && \$3 == \"CPU\" { all += \$5; if (\$4 == \"simulator\") sim += \$5 }
		END { printf \"%.3f\\n\", all ? sim / all : 0 }'"
	assert_success
	awk -v s="$output" 'BEGIN { exit !(s >= 0.9) }' || fail "simulator share of the steps: $output"
}
