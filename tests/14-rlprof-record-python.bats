#!/usr/bin/env bats
# rlprof-record: Python programs, annotated with the nvtx package or the
# rlprof module, and the automatic python/simulator/backend categories.

load helpers

check() { python3 "$TOP/tests/workloads/trace-check.py" "$@"; }

setup() {
	cd "$BATS_TEST_TMPDIR" || return 1
	[ -e "$RLKIT_BUILD/lib/rlkit/librlprof-inject.so" ] ||
		fail "the injection library was not built"
}

# total_ms FILE KIND CATEGORY: summed duration of cpu rows of a category.
total_ms() {
	awk -F, -v c="$2" '$1 == "cpu" && $7 == c { t += $5 - $4 } END { printf "%d\n", t / 1e6 }' "$1"
}

@test "nvtx package: annotate, push/pop and domains become operations" {
	skip_unless_python nvtx
	# The sleeps are the work being recorded, not waits for something.
	cat > nv.py <<'PY'
import time, nvtx
with nvtx.annotate("outer", domain="train"):
    with nvtx.annotate("inner", domain="train"):
        time.sleep(0.02)
nvtx.push_range("pushed")
time.sleep(0.01)
nvtx.pop_range()
nvtx.mark("here")
@nvtx.annotate("decorated")
def f():
    time.sleep(0.005)
f()
PY
	run rlprof-record -o t.csv -- python3 nv.py
	assert_success
	run check validate t.csv
	assert_success
	run check rows t.csv op
	assert_line "inner||train|1|"
	assert_line "outer||train|0|"
	assert_line --regexp '^pushed\|\|[^|]*\|0\|$'
	assert_line --regexp '^decorated\|\|[^|]*\|0\|$'
	run check rows t.csv mark
	assert_line --regexp '^here\|'
	# In time: nested as annotated, in the order of the script.
	run check tree t.csv
	assert_success
	assert_output "outer
  inner
pushed
@here
decorated"
}

@test "rlprof module: operation as context manager and decorator, phase, counter, meta" {
	# The sleep is the work being recorded.
	cat > m.py <<'PY'
import time, rlprof
assert rlprof.enabled()
rlprof.phase("training")
with rlprof.operation("ctx"):
    time.sleep(0.01)
@rlprof.operation("deco")
def g():
    return 5
assert g() == 5
rlprof.counter("loss", 0.25)
rlprof.meta("seed", 7)
rlprof.mark("done")
PY
	run rlprof-record -o t.csv -- python3 m.py
	assert_success
	run check rows t.csv op
	assert_line "ctx|||0|"
	assert_line "deco|||0|"
	run check rows t.csv counter
	assert_output "loss|||0.25|"
	run check rows t.csv phase
	assert_output "training||||"
	grep -q ',seed,,,,,,,7$' t.csv
}

@test "rlprof module: importable outside rlprof-record, where it does nothing" {
	run env PYTHONPATH="$TOP/share/python" python3 -c '
import rlprof
assert not rlprof.enabled()
with rlprof.operation("x"):
    pass
rlprof.counter("c", 1)
print("quiet")'
	assert_success
	assert_output quiet
}

cartpole_categories() {
	cat > cp.py <<'PY'
import gymnasium as gym, numpy as np, nvtx
env = gym.make("CartPole-v1")
with nvtx.annotate("reset"):
    obs, _ = env.reset(seed=0)
w = np.ones((4,))
for i in range(500):
    with nvtx.annotate("inference"):
        a = int(np.dot(np.asarray(obs), w) > 0)
        for _ in range(20):
            sum(range(50))
    with nvtx.annotate("step"):
        obs, r, term, trunc, _ = env.step(a)
    if term or trunc:
        with nvtx.annotate("reset"):
            obs, _ = env.reset()
PY
	run rlprof-record --cpu-sample 0 -o t.csv --force -- python3 cp.py
	assert_success
	run check validate t.csv
	assert_success
	[ "$(check ms t.csv op step | wc -l)" -eq 500 ]
	sim=$(total_ms t.csv simulator) py=$(total_ms t.csv python)
	[ "$(awk -F, '$1 == "cpu" && $7 == "simulator"' t.csv | wc -l)" -ge 500 ] || fail "too few simulator rows"
	[ "$(awk -F, '$1 == "cpu" && $7 == "backend"' t.csv | wc -l)" -ge 500 ] || fail "too few backend rows"
	[ "$py" -gt 0 ] && [ "$sim" -gt 0 ] || fail "python $py ms, simulator $sim ms"
	# The simulator's time lies inside the "step" and "reset" operations.
	python3 - t.csv <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
steps = sorted((int(r["start_ns"]), int(r["end_ns"])) for r in rows if r["kind"] == "op" and r["name"] in ("step", "reset"))
sims = [(int(r["start_ns"]), int(r["end_ns"])) for r in rows if r["kind"] == "cpu" and r["category"] == "simulator"]
import bisect
starts = [s for s, _ in steps]
outside = 0
for s, e in sims:
    i = bisect.bisect_right(starts, s) - 1
    if i < 0 or e > steps[i][1]:
        outside += 1
assert outside == 0, "%d simulator rows outside step and reset ops" % outside
PY
}

@test "--cpu-sample 0: a gymnasium CartPole loop splits into simulator, backend and python (C hook)" {
	skip_unless_python gymnasium numpy nvtx
	[ -e "$RLKIT_BUILD/lib/rlkit/_rlprof_hook.so" ] || skip "the C hook was not built (no Python headers: python3-dev)"
	run rlprof-record --cpu-sample 0 -o k.csv -- python3 -c 'import rlprof; print(rlprof.hook_kind())'
	assert_output c
	cartpole_categories
}

@test "--cpu-sample 0: the same with the pure-Python hook (RLPROF_PYHOOK=python)" {
	skip_unless_python gymnasium numpy nvtx
	RLPROF_PYHOOK=python run rlprof-record --cpu-sample 0 -o k.csv -- python3 -c 'import rlprof; print(rlprof.hook_kind())'
	assert_output python
	RLPROF_PYHOOK=python cartpole_categories
}

@test "--cpu-sample 0: both hooks attribute the same calls" {
	skip_unless_python gymnasium numpy
	[ -e "$RLKIT_BUILD/lib/rlkit/_rlprof_hook.so" ] || skip "the C hook was not built (no Python headers: python3-dev)"
	cat > same.py <<'PY'
import gymnasium as gym, numpy as np, threading
# Both environments are made before the second thread starts: making one
# fills caches (np.finfo's, say) that two threads at once may both fill,
# a call more in one run than in another.
envs = [gym.make("CartPole-v1") for _ in range(2)]
def run(env, n):
    obs, _ = env.reset(seed=1)
    for i in range(n):
        obs, r, term, trunc, _ = env.step(int(np.sum(obs) > 0))
        if term or trunc:
            obs, _ = env.reset()
t = threading.Thread(target=run, args=(envs[1], 200))
t.start()
run(envs[0], 200)
t.join()
PY
	rlprof-record --cpu-sample 0 --sample 0 -o c.csv -- python3 same.py
	RLPROF_PYHOOK=python rlprof-record --cpu-sample 0 --sample 0 -o p.csv -- python3 same.py
	# Native calls are attributed identically.  Python rows are the gaps
	# between them, and where a thread's first and last gap fall depends on
	# when the hook reaches the new thread: allow one row per thread.
	for cat in python simulator backend; do
		c=$(grep -c ",$cat,,,,,,\$" c.csv) p=$(grep -c ",$cat,,,,,,\$" p.csv)
		slack=0
		[ "$cat" = python ] && slack=2
		[ $((c - p)) -le $slack ] && [ $((p - c)) -le $slack ] ||
			fail "$cat rows: C hook $c, Python hook $p"
		[ "$c" -gt 0 ] || fail "no $cat rows"
	done
	# Both threads were attributed.
	[ "$(awk -F, '$1 == "cpu" && $7 == "simulator" { print $3 }' c.csv | sort -u | wc -l)" -eq 2 ]
}

@test "--no-python: no automatic categories, NVTX still recorded" {
	skip_unless_python nvtx
	printf 'import nvtx\nwith nvtx.annotate("a"):\n    sum(range(1000))\n' > a.py
	run rlprof-record --no-python --cpu-sample 0 -o t.csv -- python3 a.py
	assert_success
	run grep -c '^cpu,.*,python,' t.csv
	assert_output 0
	run check rows t.csv op
	assert_output "a|||0|"
}

@test "python: a sitecustomize of the user still runs under rlprof-record" {
	mkdir site
	printf 'import builtins\nbuiltins.RLKIT_SITE = 1\n' > site/sitecustomize.py
	printf 'import builtins, rlprof\nprint(builtins.RLKIT_SITE, rlprof.enabled())\n' > s.py
	PYTHONPATH=$PWD/site run rlprof-record -o t.csv -- python3 s.py
	assert_success
	assert_output "1 True"
}

@test "python: fork children (multiprocessing) end with os._exit and keep their events" {
	cat > mp.py <<'PY'
import multiprocessing as mp, rlprof
def work(i):
    with rlprof.operation("child-work"):
        sum(range(10000))
    return i
if __name__ == "__main__":
    ctx = mp.get_context("fork")
    procs = [ctx.Process(target=work, args=(i,)) for i in range(3)]
    for p in procs: p.start()
    for p in procs: p.join()
PY
	run rlprof-record -o t.csv -- python3 mp.py
	assert_success
	run awk -F, '$1 == "op" && $6 == "child-work" { print $2 }' t.csv
	[ "${#lines[@]}" -eq 3 ] || fail "child-work rows: ${#lines[@]}"
	[ "$(printf '%s\n' "${lines[@]}" | sort -u | wc -l)" -eq 3 ]
}

@test "python: events before os.execv are kept, and threads carry their Python names" {
	cat > ex.py <<'PY'
import os, sys, threading, rlprof
def work():
    with rlprof.operation("in-thread"):
        pass
t = threading.Thread(target=work, name="collector")
t.start(); t.join()
with rlprof.operation("before-exec"):
    pass
os.execv(sys.executable, [sys.executable, "-c", "import rlprof\nwith rlprof.operation('after-exec'):\n    pass"])
PY
	run rlprof-record -o t.csv -- python3 ex.py
	assert_success
	run check rows t.csv op
	assert_line "before-exec|||0|"
	assert_line "after-exec|||0|"
	assert_line "in-thread|||0|"
	run check rows t.csv thread
	assert_line "collector||||"
}
