#!/usr/bin/env bats
# fiberrun --pool: worker protocol 2 (ids on every task and result, results
# on their own descriptor, binary-safe), readiness and the task clock, and
# bad input lines as records.

load helpers

# A protocol 2 worker in Python; $1: what it does with each task (Python, on
# `task` bytes and `tid`), after printing a banner on its standard output.
v2_worker() {
	cat > "$1" <<PY
import os, sys
res = os.fdopen(int(os.environ["FIBERRUN_RESULT_FD"]), "wb")
inp = sys.stdin.buffer
def answer(kind, tid, data):
    res.write(b"%s %s %d\n" % (kind, tid, len(data)) + data + b"\n")
    res.flush()
print("Loading model weights...", flush=True)
res.write(b"ready\n"); res.flush()
while True:
    head = inp.readline()
    if not head:
        break
    _, tid, size = head.split()
    task = inp.read(int(size)); inp.read(1)
$2
PY
}

@test "--protocol 2: stray output on a worker's stdout goes to stderr, marked; every result on its own task" {
	v2_worker w.py '    print("debug: got", task.decode(), flush=True)
    answer(b"ok", tid, b"r" + task)
    print("debug: done", task.decode(), flush=True)'
	run --separate-stderr bash -c "seq 6 | fiberrun --pool --lines -k -n 1 -- python3 w.py"
	assert_success
	[ "${#lines[@]}" -eq 6 ]
	for i in 1 2 3 4 5 6; do
		assert_line --index $((i - 1)) --regexp "^\\{\"id\":$i,\"status\":\"ok\",\"result\":\"r$i\",.*\"encoding\":\"text\"\\}$"
	done
	[[ $stderr == *"fiberrun: worker 0 stdout (not a result): Loading model weights..."* ]]
	[[ $stderr == *"fiberrun: worker 0 stdout (not a result): debug: done 1"* ]]
}

@test "--protocol lines: the compatibility mode still takes a stray line for the next result (the documented risk)" {
	run --separate-stderr bash -c "seq 3 | fiberrun --pool --protocol lines --lines -k -n 1 -- sh -c 'while read -r n; do echo r\$n; echo \"debug \$n\"; done'"
	assert_line --index 1 --regexp '^\{"id":2,"status":"ok","result":"debug 1",'
	grep -q 'a stray line is taken as the result of the next task\|is taken as the result of the next task' "$TOP/man/man5/fiberrun-protocol.5"
}

@test "--protocol 2: answers in any order reach their own tasks; binary results are base64" {
	v2_worker w.py '    held = globals().setdefault("held", [])
    held.append((tid, task))
    if len(held) == 2 or task == b"5":
        for t, x in reversed(held):
            answer(b"ok", t, bytes([0xff, 0x00]) + x if x == b"3" else x * 2)
        held.clear()'
	run --separate-stderr bash -c "seq 5 | fiberrun --pool --lines -k -n 1 --prefetch 2 -- python3 w.py"
	assert_success
	echo "$output" | python3 -c '
import base64, json, sys
recs = [json.loads(l) for l in sys.stdin]
assert [r["id"] for r in recs] == [1, 2, 3, 4, 5], recs
for r in recs:
    if r["id"] == 3:
        assert r["encoding"] == "base64" and base64.b64decode(r["result"]) == b"\xff\x003", r
    else:
        assert r["encoding"] == "text" and r["result"] == str(r["id"]) * 2, r
'
}

@test "--protocol 2: a result for an id the worker was not given fails the task with that reason" {
	v2_worker w.py '    answer(b"ok", b"999", b"x")'
	run --separate-stderr bash -c "echo 1 | fiberrun --pool --lines -r 1 -n 1 -- python3 w.py"
	assert_failure 1
	assert_output --regexp '^\{"id":1,"status":"failed","result":null,"error":"sent a result for task id 999, which it was not given",'
}

@test "--protocol 2: a malformed record header loses the worker with a clear reason" {
	v2_worker w.py '    res.write(b"hello world\n"); res.flush()'
	run --separate-stderr bash -c "echo 1 | fiberrun --pool --lines -r 1 -n 1 -- python3 w.py"
	assert_failure 1
	assert_output --regexp '"status":"failed",.*"error":"worker wrote a bad record header: '"'"'hello world'"'"'"'
}

@test "--protocol 2: results are binary-safe, any length, newlines and NUL included" {
	v2_worker w.py '    data = bytes(range(256)) * int(task)
    answer(b"ok", tid, data)'
	run --separate-stderr bash -c "printf '1\n100\n' | fiberrun --pool --lines -k -n 1 -- python3 w.py"
	assert_success
	echo "$output" | python3 -c '
import base64, json, sys
recs = [json.loads(l) for l in sys.stdin]
for r, n in zip(recs, (1, 100)):
    assert r["encoding"] == "base64" and base64.b64decode(r["result"]) == bytes(range(256)) * n, r["id"]
'
}

@test "--protocol lines: result bytes that are not UTF-8 are kept as base64, never altered" {
	printf 'a\xffb\nplain\n' > tasks
	run --separate-stderr bash -c "fiberrun --pool --protocol lines --lines -k -n 1 -- cat < tasks"
	assert_success
	assert_line --index 0 --regexp '"result":"Yf9i",.*"encoding":"base64"'
	assert_line --index 1 --regexp '"result":"plain",.*"encoding":"text"'
}

@test "--timeout: a worker's start-up does not count; duration is the task's own" {
	run --separate-stderr bash -c "seq 4 | fiberrun --pool --protocol lines --lines -n 2 -T 1 -- sh -c 'sleep 2; cat'"
	assert_success
	echo "$output" | python3 -c '
import json, sys
recs = [json.loads(l) for l in sys.stdin]
assert len(recs) == 4
for r in recs:
    # the start-up sleeps 2 s: a duration below that excludes it
    assert r["status"] == "ok" and r["attempts"] == 1 and r["duration"] < 2, r
'
	v2_worker w.py '    answer(b"ok", tid, task)'
	sed -i 's/^res.write(b"ready/import time; time.sleep(2)\nres.write(b"ready/' w.py
	run --separate-stderr bash -c "seq 2 | fiberrun --pool --lines -n 1 -T 1 -- python3 w.py"
	assert_success
	[ "$(grep -c '"status":"ok","result":"[12]",.*"attempts":1,' <<< "$output")" -eq 2 ]
}

@test "--start-timeout: a worker that never becomes ready is reported as such; its tasks count no attempt" {
	# The worker starts and reads its task but never speaks the protocol.
	# The limit leaves its agent time to connect even under a sanitizer
	# (else the report is the other case, "it never connected").
	run --separate-stderr bash -c "seq 2 | fiberrun --pool --lines -n 1 --start-timeout 3 -- sh -c 'while read -r l; do echo \"\$l\"; done'"
	assert_failure 1
	assert_line --index 0 --regexp '"status":"failed","result":null,"error":"no workers left \(last: did not become ready within 3 s \(--start-timeout\)\)",.*"attempts":0,'
	[[ $stderr == *"worker 0 "*"lost: did not become ready within 3 s (--start-timeout)"* ]]
	[[ $stderr == *"stdout (not a result): task "*"see --protocol lines]"* ]]
}

@test "--on-bad-input: an invalid line is a record of status invalid with its line; the run goes on" {
	printf '{"a":1}\n{"a":2}\n{oops\n{"a":4}\n' > tasks
	run --separate-stderr bash -c "fiberrun --pool --protocol lines -k -n 2 -- cat < tasks"
	assert_failure 1
	[ "${#lines[@]}" -eq 4 ]
	assert_line --index 2 --regexp '^\{"id":3,"status":"invalid","result":null,"error":"invalid JSON: [^"]+","line":3,"worker":null,"host":null,"attempts":0,'
	assert_line --index 3 --regexp '^\{"id":4,"status":"ok","result":\{"a":4\},'
	run --separate-stderr bash -c "fiberrun --pool --protocol lines --on-bad-input skip -k -n 2 -- cat < tasks"
	assert_success
	[ "${#lines[@]}" -eq 3 ]
	[[ $stderr == *"fiberrun: warning: '<stdin>': line 3 skipped: invalid JSON"* ]]
	run --separate-stderr bash -c "fiberrun --pool --protocol lines --on-bad-input abort -k -n 2 -- cat < tasks"
	assert_failure 1
	[[ $stderr == *"fiberrun: error: '<stdin>': line 3: invalid JSON"* ]]
	run --separate-stderr fiberrun --pool --on-bad-input maybe -- cat
	assert_failure 2
}

@test "--on-bad-input: a bad line at line 50,000 of 50,010 costs one record; --resume re-emits it" {
	{ seq 49999 | sed 's/.*/{"n":&}/'; echo '{bad'; seq 10 | sed 's/.*/{"m":&}/'; } > tasks
	run --separate-stderr bash -c "fiberrun --pool --protocol lines -q -n 2 -j log < tasks -- cat > out"
	assert_failure 1
	[ "$(wc -l < out)" -eq 50010 ]
	[ "$(grep -c '"status":"invalid"' out)" -eq 1 ]
	grep -q '"id":50000,"status":"invalid",.*"line":50000,' out
	run --separate-stderr bash -c "fiberrun --pool --protocol lines -q -n 2 -j log --resume < tasks -- cat > out2"
	assert_failure 1
	[ "$(sort out)" = "$(sort out2)" ]
}

@test "--prefetch: long task lines (sent without a copy) and short ones queued after them reach their workers whole" {
	python3 -c "
import random
r = random.Random(7)
for i in range(60):
    n = r.randrange(64 << 10, 400 << 10) if i % 3 else r.randrange(1, 100)
    print(''.join(chr(97 + (i + k) % 26) for k in range(n)))
" > tasks
	cat > len.py <<'PY'
import hashlib, sys
for line in sys.stdin:
    line = line.rstrip("\n")
    print(len(line), hashlib.sha1(line.encode()).hexdigest()[:12], flush=True)
PY
	python3 -c "
import hashlib
for line in open('tasks'):
    line = line.rstrip('\n')
    print(len(line), hashlib.sha1(line.encode()).hexdigest()[:12])
" > want
	run --separate-stderr bash -c "fiberrun --pool --protocol lines --lines -k -n 3 --prefetch 8 -- python3 len.py < tasks > out"
	assert_success
	[ "$(wc -l < out)" -eq 60 ]
	python3 -c "
import json
got = [json.loads(l)['result'] for l in open('out')]
want = open('want').read().splitlines()
assert got == want, [i for i, (a, b) in enumerate(zip(got, want)) if a != b][:5]
"
}

# Runs one long task line of $2 MB and then of $3 MB (JSON tasks when $1 is
# json, else --lines) and checks that the time and memory grow linearly and
# that the master and the agent peak under twice the line's size.
long_line_peaks() {
	cat > count.py <<'PY'
import os
n = 0
while True:
    b = os.read(0, 1 << 20)
    if not b:
        break
    while b:
        i = b.find(b"\n")
        if i < 0:
            n += len(b); break
        n += i; b = b[i + 1:]
        os.write(1, b"%d\n" % n); n = 0
# At the end of the input every task has been read and sent: the peaks
# (VmHWM) of this worker's agent and of the master are final.
def status(pid):
    return dict(l.split(":\t", 1) for l in open("/proc/%d/status" % pid).read().splitlines() if ":\t" in l)
peaks, pid = {}, os.getppid()
while pid > 1 and len(peaks) < 2:
    args = open("/proc/%d/cmdline" % pid, "rb").read().split(b"\0")
    st = status(pid)
    for role in (b"--worker", b"--pool"):
        if role in args:
            peaks[role.decode()] = int(st["VmHWM"].split()[0]) * 1024
    pid = int(st["PPid"])
with open("peaks", "w") as f:
    f.write("%d %d\n" % (peaks["--pool"], peaks["--worker"]))
PY
	cat > measure.py <<'PY'
import os, subprocess, sys, time
kind, mb = sys.argv[1], int(sys.argv[2])
with open("line", "wb") as f:
    if kind == "json":
        # Valid JSON all along, with escapes and UTF-8, its id at the end.
        first = b'{"data": "' + b'x\\"\xc3\xa9' * ((mb << 20) // 5) + b'", "n": [1, 2.5, null], "id": "long"}'
        f.write(first + b'\n{"id": 2}\n')
    else:
        first = b"x" * (mb << 20)
        f.write(first + b"\n1\n")
opts = ["--lines"] if kind == "lines" else []
t = time.perf_counter()
with open("line", "rb") as f:
    p = subprocess.run(["fiberrun", "--pool", "--protocol", "lines"] + opts + ["-n", "1", "--max-line", str(200 << 20),
                        "--", sys.executable, "count.py"], stdin=f, stdout=subprocess.PIPE, check=True)
dt = time.perf_counter() - t
# The count is a JSON number: as such in the record with JSON tasks.
want = (b'"result":%d,' if kind == "json" else b'"result":"%d"') % len(first)
assert p.stdout.count(b'"status":"ok"') == 2 and want in p.stdout, p.stdout[:300]
master, agent = open("peaks").read().split()
print(dt, master, agent, len(first))
PY
	# The program's own memory: a sanitizer keeps nothing freed aside.
	export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=0"
	read -r t1 m1 a1 s1 < <(python3 measure.py "$1" "$2")
	read -r t2 m2 a2 s2 < <(python3 measure.py "$1" "$3")
	python3 -c "
t1, m1, a1, s1, t2, m2, a2, s2 = $t1, $m1, $a1, $s1, $t2, $m2, $a2, $s2
k = s2 / s1
print('time ratio %.1f for %.0fx the size; master: peak / line %.2f, marginal %.2f; agent: peak / line %.2f, marginal %.2f' %
      (t2 / t1, k, m2 / s2, (m2 - m1) / (s2 - s1), a2 / s2, (a2 - a1) / (s2 - s1)))
assert t2 / t1 < 2.5 * k, 'reading long lines is not linear in time'
assert m2 / m1 < 1.2 * k, 'reading long lines is not linear in memory'
# The master holds the line once (the reader's buffer becomes the task's)
# and sends it from there; the agent writes the task to the command from
# the frame it came in: each at most twice the line's size, all included.
# A sanitizer's realloc always copies, so that there the old buffer and the
# new one, twice as large, are held at once while a line grows: 3 times.
lim = 3 if '${RLKIT_SANITIZE:-}' else 2
assert m2 < lim * s2, 'the master took more than %d times the size of a long line' % lim
assert a2 < lim * s2, 'the agent took more than %d times the size of a long line' % lim
# What the longer line cost more, without the fixed share (room for a
# sanitizer's shadow memory, 1/8): the line once (under a sanitizer, the
# copy its realloc makes too).
once = 2.5 if lim == 3 else 1.3
assert (m2 - m1) / (s2 - s1) < once, 'the master holds a long line more than once'
assert (a2 - a1) / (s2 - s1) < once, 'the agent holds a long line more than once'
"
}

@test "--max-line: a 100 MB task line takes about 10 times a 10 MB one; the master and the agent peak under twice its size" {
	long_line_peaks lines 10 100
}

@test "--max-line: a 100 MB JSON task (only its id is built) takes about 10 times a 10 MB one; the master and the agent peak under twice its size" {
	long_line_peaks json 10 100
}
