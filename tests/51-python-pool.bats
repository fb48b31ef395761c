#!/usr/bin/env bats
# rlkit.pool, multiprocessing.Pool over fiberrun: the package's own tests
# (share/python/tests/test_pool.py), an unchanged multiprocessing script
# run by changing its import, and the installed module
# (43-fiberrun-ssh.bats runs a Pool on ssh hosts, 44-fiberrun-slurm.bats in
# a Slurm allocation).

load helpers

setup() {
	cd "$BATS_TEST_TMPDIR" || return 1
	skip_unless_python pytest
	export RLKIT_PYTHONPATH="$RLKIT_BUILD/share/rlkit/python"
	export PYTHONPATH="$RLKIT_PYTHONPATH"
}

@test "rlkit.pool: the multiprocessing.Pool interface, errors, retries (test_pool.py)" {
	run python3 -m pytest -q -p no:cacheprovider "$TOP/share/python/tests/test_pool.py"
	[ "$status" -eq 0 ] || fail "$output"
	[[ $output == *" passed"* ]] || fail "no test ran: $output"
	[[ $output != *" skipped"* ]] || fail "tests skipped: $output"
}

# A script written for multiprocessing: functions of its own __main__, an
# initializer, every kind of map, apply_async with callbacks, an error.
write_script() {
	cat > script.py <<'PY'
import multiprocessing
import sys

STATE = {}


def init(base):
    STATE["base"] = base


def f(x):
    return STATE["base"] + x * x


def pair(a, b):
    return a * b


def boom(x):
    raise KeyError("no %d" % x)


if __name__ == "__main__":
    with multiprocessing.Pool(3, initializer=init, initargs=(100,)) as pool:
        print(pool.map(f, range(10)))
        print(list(pool.imap(f, range(5))))
        print(sorted(pool.imap_unordered(f, range(5), chunksize=2)))
        print(pool.starmap(pair, [(2, 3), (4, 5)]))
        got = []
        r = pool.apply_async(f, (7,), callback=got.append)
        r.wait()
        print(r.get(), got)
        try:
            pool.apply(boom, (4,))
        except KeyError as e:
            print("KeyError", e, "remote traceback:", "in boom" in str(e.__cause__))
        pool.close()
        pool.join()
    print(multiprocessing.cpu_count() > 0)
PY
}

@test "import rlkit.pool as multiprocessing: an unchanged Pool script prints what it prints with multiprocessing" {
	write_script
	run --separate-stderr python3 script.py
	assert_success
	expected=$output
	[[ $expected == *"KeyError 'no 4' remote traceback: True"* ]] || fail "$expected"
	sed 's/^import multiprocessing$/import rlkit.pool as multiprocessing/' script.py > moved.py
	! cmp -s script.py moved.py
	run --separate-stderr python3 moved.py
	assert_success
	[ "$output" = "$expected" ] || fail "$(diff <(echo "$expected") <(echo "$output"))"
}

@test "rlkit.pool: a script run as a module (python -m) finds its functions in the workers" {
	mkdir pkg
	touch pkg/__init__.py
	write_script
	sed 's/^import multiprocessing$/import rlkit.pool as multiprocessing/' script.py > pkg/job.py
	run --separate-stderr python3 -m pkg.job
	assert_success
	assert_line --index 0 "[100, 101, 104, 109, 116, 125, 136, 149, 164, 181]"
}

@test "rlkit.pool: workers find fiberrun beside the package; RLKIT_FIBERRUN overrides; a wrong one is an error" {
	run --separate-stderr env RLKIT_FIBERRUN=/no/such/fiberrun python3 -c 'import rlkit.pool as mp; mp.Pool(1)'
	assert_failure
	[[ $stderr == *"/no/such/fiberrun"* ]]
	run --separate-stderr env PATH=/usr/bin:/bin python3 -c '
import rlkit.pool as mp
with mp.Pool(1) as p:
    print(p.apply(abs, (-3,)))'
	assert_success
	assert_output 3
}

@test "make install: rlkit.pool and rlkit-pool(3) in place; the installed Pool runs the installed fiberrun" {
	rlkit_make install DESTDIR="$BATS_TEST_TMPDIR/root" PREFIX=/usr >/dev/null
	local py="$BATS_TEST_TMPDIR/root/usr/share/rlkit/python"
	[ -e "$py/rlkit/pool.py" ] && [ -e "$py/rlkit/_pool_worker.py" ] || fail "not installed in $py"
	[ -f "$BATS_TEST_TMPDIR/root/usr/share/man/man3/rlkit-pool.3" ] || fail "rlkit-pool(3) not installed"
	run --separate-stderr env PYTHONPATH="$py" python3 -c '
import rlkit.pool as mp
print(mp._fiberrun_path(None))
with mp.Pool(2) as p:
    print(sum(p.map(abs, range(-5, 5))))'
	assert_success
	assert_line --index 0 "$BATS_TEST_TMPDIR/root/usr/bin/fiberrun"
	assert_line --index 1 25
}
