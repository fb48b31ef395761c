#!/usr/bin/env bats
# Property of every program: hostile names (commas, quotes, CR, LF, tabs,
# bytes that are not UTF-8) in ROM paths, operation and process names,
# task lines and results go in, and every CSV output parses as RFC 4180
# with as many fields on every row, every JSON and JSON Lines output parses
# as strict JSON (UTF-8, no NaN), the names come out byte for byte in CSV
# and with U+FFFD for bad bytes in JSON, and a table keeps one line per row.

load helpers

check() { python3 "$TOP/tests/output-check.py" "$@"; }

setup() {
	cd "$BATS_TEST_TMPDIR" || return 1
	NAMES=('a,b' 'q"uo"te' $'new\nline' $'cr\rlf' $'bad\xff\xfeutf8' $'trunc\xe2\x82'
	       $'tab\there' $'all ,"\n\r\xc3\xa9\xff' "it's")
}

# The checker itself must catch what it is there to catch.
@test "output-check: rejects broken CSV and JSON" {
	printf 'a,b\n1,2,3\n' > bad.csv
	run check csv bad.csv
	assert_failure
	printf 'a,b\nx"y,2\n' > bad.csv
	run check csv bad.csv
	assert_failure
	printf 'a\n"x\n' > bad.csv
	run check csv bad.csv
	assert_failure
	printf '{"a":NaN}\n' > bad.json
	run check json bad.json
	assert_failure
	printf '{"a":"\xff"}\n' > bad.json
	run check json bad.json
	assert_failure
	printf '{"a":"\\udc80"}\n' > bad.json
	run check json bad.json
	assert_failure
	printf 'a,b\n"x,""y""\n\r",2\r\n' > good.csv
	check csv good.csv $'x,"y"\n\r'
}

@test "cule-bench info, run, trace: ROM paths with hostile names" {
	rom="$RLKIT_BUILD/share/roms/catch.bin"
	for n in "${NAMES[@]}"; do
		cp "$rom" "$n.bin"
		for f in csv json jsonl; do
			cule-bench info -f $f "$n.bin" > out.$f || fail "info -f $f on $(printf %q "$n")"
			check $f out.$f "$n.bin"
			cule-bench run --rom "$n.bin" --envs 2 --steps 5 -f $f > run.$f
			check $f run.$f
		done
		cule-bench info -f table "$n.bin" > out.txt
		[ "$(wc -l < out.txt)" -eq 2 ] || fail "the table of $(printf %q "$n") is not 2 lines"
		cule-bench trace --rom "$n.bin" --frames 3 > trace.csv
		check csv trace.csv
	done
}

# A trace with every hostile name as an operation, a phase and a process.
make_trace() {
	python3 - "$@" <<'PY'
import os, sys
names = [os.fsencode(a) for a in sys.argv[1:]]
def q(b):
    return b'"' + b.replace(b'"', b'""') + b'"'
out = [b"kind,pid,tid,start_ns,end_ns,name,category,domain,device,stream,correlation,value,detail"]
t = 1000
for k, n in enumerate(names):
    pid = 100 + k % 2
    out.append(b"process,%d,,0,100000,%s,,,,,,1,exit 0" % (pid, q(b"proc " + n)))
    out.append(b"op,%d,%d,%d,%d,%s,,%s,,,,0," % (pid, pid, t, t + 500, q(n), q(b"dom" + n)))
    out.append(b"phase,%d,%d,%d,%d,%s,,,,,,," % (pid, pid, t, t + 500, q(b"ph" + n)))
    out.append(b"cpu,%d,%d,%d,%d,,python,,,,,," % (pid, pid, t, t + 300))
    out.append(b"gpu,%d,,%d,%d,%s,kernel,,0,7,%d,," % (pid, t + 100, t + 400, q(b"k" + n), k))
    t += 1000
sys.stdout.buffer.write(b"\n".join(out) + b"\n")
PY
}

@test "rlprof-report: hostile operation, phase and process names in every format" {
	make_trace "${NAMES[@]}" > t.csv
	for f in csv json jsonl; do
		rlprof-report -f $f t.csv > out.$f
		check $f out.$f "${NAMES[@]}"
		rlprof-report -f $f -b phase t.csv > phase.$f
		check $f phase.$f
		rlprof-report -f $f --compare t.csv t.csv > cmp.$f
		check $f cmp.$f "${NAMES[@]}"
	done
	rlprof-report -f chrome t.csv > out.json
	check json out.json "${NAMES[@]}"
	rlprof-report -f svg t.csv > out.svg
	check xml out.svg
	rlprof-report -f table t.csv > out.txt
	# One line per row: the rows of the CSV; per process (2) a heading,
	# the titles and a total; a blank line between them; a blank line and
	# 4 lines for the GPU.
	rows=$(rlprof-report -f jsonl t.csv | wc -l)
	[ "$(wc -l < out.txt)" -eq $((rows + 2 * 3 + 1 + 5)) ] || { cat out.txt; fail "table lines"; }
}

@test "rlprof-record: hostile names from the rlprof Python module, CSV and JSON Lines traces" {
	[ -e "$RLKIT_BUILD/lib/rlkit/librlprof-inject.so" ] ||
		fail "the injection library was not built"
	cat > w.py <<'PY'
import os, sys, rlprof
for n in sys.argv[1:]:
    b = os.fsencode(n)
    rlprof.phase(b"ph" + b)
    with rlprof.operation(b):
        sum(range(10000))
    rlprof.mark(b"m" + b)
    rlprof.counter(b"c" + b, 1)
PY
	rlprof-record -o t.csv -- python3 w.py "${NAMES[@]}"
	check csv t.csv "${NAMES[@]}"
	rlprof-record -f jsonl -o t.jsonl -- python3 w.py "${NAMES[@]}"
	check jsonl t.jsonl "${NAMES[@]}"
	# The JSON Lines trace holds the names with U+FFFD already.
	for f in csv json jsonl; do
		rlprof-report -f $f t.csv > out.$f
		check $f out.$f "${NAMES[@]}"
		rlprof-report -f $f t.jsonl > out.$f
		check $f out.$f
	done
}

@test "fiberrun --pool --lines: hostile task lines echoed by the worker" {
	printf '%s\n' 'a,b' 'q"uo"te' $'cr\rlf' $'bad\xff\xfeutf8' $'trunc\xe2\x82' $'tab\there' \
		$'nul\x01ctl' "it's" '{"not":"json"' > tasks.txt
	fiberrun --pool --protocol lines --lines -n 2 -j log.jsonl -- cat < tasks.txt > out.jsonl
	check jsonl out.jsonl 'a,b' 'q"uo"te' $'cr\rlf' $'tab\there'
	check jsonl log.jsonl
	[ "$(wc -l < out.jsonl)" -eq 9 ]
	# Results that are not UTF-8 are base64, every byte kept.
	python3 -c '
import base64, json
got = {base64.b64decode(r["result"]) for r in map(json.loads, open("out.jsonl")) if r["encoding"] == "base64"}
assert got == {b"bad\xff\xfeutf8", b"trunc\xe2\x82"}, got'

}

@test "fiberrun --pool: hostile JSON tasks, and a worker that answers bytes that are not UTF-8" {
	python3 -c '
import json
for i, s in enumerate(["a,b", "q\"uo\"te", "new\nline", "\u0000nul", "\u00e9", "\u2028"]):
    print(json.dumps({"id": "t%d,\"x\"" % i, "s": s}))' > tasks.jsonl
	fiberrun --pool --protocol lines -n 2 -- cat < tasks.jsonl > out.jsonl
	check jsonl out.jsonl $'new\nline' 't0,"x"'
	[ "$(wc -l < out.jsonl)" -eq 6 ]
	# Results that are not UTF-8 are kept as base64, every byte kept.
	cat > answer.sh <<'SH'
while read -r l; do printf 'r\377\342\202,"\n'; done
SH
	printf '{"id":1}\n{"id":2}\n' | fiberrun --pool --protocol lines -n 1 -- sh answer.sh > bad.jsonl
	check jsonl bad.jsonl
	python3 -c '
import base64, json
for r in map(json.loads, open("bad.jsonl")):
    assert r["encoding"] == "base64" and base64.b64decode(r["result"]) == b"r\xff\xe2\x82,\"", r'
}
