#!/usr/bin/env bats
# rlprof-report: bad input (with line numbers), --strict, pipes, order.

load helpers

CSV_HEADER=process,operation,resource,category,time_us,percent,calls,exclusive_ns,inclusive_ns,mean_ns,p50_ns,p95_ns,max_ns

R=$TOP/tests/data/report
HDR="kind,pid,tid,start_ns,end_ns,name,category,domain,device,stream,correlation,value,detail"

# A trace with one bad row of each class after two good ones (lines 2, 3).
bad_trace() {
	printf '%s\n' "$HDR" \
		"op,1,1,0,1000,a,,,,,,0," \
		"cpu,1,1,0,500,,python,,,,,," \
		"op,1,1,abc,1000,b,,,,,,0," \
		"frob,1,1,0,1,,,,,,,," \
		"op,1,1,900,800,c,,,,,,0," \
		"op,1,1,100,,d,,,,,,1," \
		"cpu,1,1,0,1,,cooking,,,,,,"
	printf 'op,1,1,0,1'	# no newline: the input ends inside a row
}

@test "bad rows: skipped, each class reported once with its first line" {
	bad_trace > t.csv
	run --separate-stderr rlprof-report -f csv t.csv
	assert_success
	assert_output "process,operation,resource,category,time_us,percent,calls,exclusive_ns,inclusive_ns,mean_ns,p50_ns,p95_ns,max_ns
1,a,CPU,python,0.500,50.00,1,1000,1000,1000,1000,1000,1000
1,a,CPU,native,0.500,50.00,1,1000,1000,1000,1000,1000,1000"
	[[ $stderr == *"rlprof-report: warning: 2 malformed rows (first: 't.csv': line 4: bad start_ns 'abc')"* ]] || fail "$stderr"
	[[ $stderr == *"1 unknown kind row (first: 't.csv': line 5: unknown kind 'frob')"* ]] || fail "$stderr"
	[[ $stderr == *"1 end before start row (first: 't.csv': line 6: end_ns 800 is before start_ns 900)"* ]] || fail "$stderr"
	[[ $stderr == *"1 unmatched range row (first: 't.csv': line 7: op 'd' has a start but no end_ns)"* ]] || fail "$stderr"
	[[ $stderr == *"1 truncated row (first: 't.csv': line 9: the input ends inside a row: expected 13 fields, found 5)"* ]] || fail "$stderr"
	[ "$(grep -c 'malformed' <<< "$stderr")" -eq 1 ]
}

@test "--strict: the first bad row is an error with its line, exit 1" {
	bad_trace > t.csv
	run --separate-stderr rlprof-report --strict -f csv t.csv
	[ "$status" -eq 1 ]
	[ -z "$output" ]
	[ "$stderr" = "rlprof-report: error: 't.csv': line 4: bad start_ns 'abc'" ]
}

@test "--strict: each class is fatal" {
	for row in "frob,1,1,0,1,,,,,,,,:line 2: unknown kind 'frob'" \
		"op,1,1,900,800,c,,,,,,0,:line 2: end_ns 800 is before start_ns 900" \
		"op,1,1,100,,d,,,,,,1,:line 2: op 'd' has a start but no end_ns" \
		"op,1,1,0,10,d,,,,,,0,unclosed:line 2: op 'd' was never closed" \
		"op,1,1,0,10,d:line 2: the input ends inside a row"; do
		printf '%s\n%s' "$HDR" "${row%%:*}" > t.csv
		run rlprof-report --strict -f csv t.csv
		[ "$status" -eq 1 ] || fail "$row: status $status"
		assert_output --partial "${row#*:}"
	done
}

@test "bad input: non-finite and non-numeric values are malformed" {
	for v in nan inf -inf 1e999 x; do
		printf '%s\n%s\n' "$HDR" "counter,1,1,5,,c,,,,,,$v," > t.csv
		run rlprof-report --strict -f csv t.csv
		[ "$status" -eq 1 ] || fail "value $v accepted"
		assert_output "rlprof-report: error: 't.csv': line 2: bad value '$v'"
	done
}

@test "bad input: a truncated quoted field and truncated JSON Lines" {
	printf '%s\n%s\n%s' "$HDR" "op,1,1,0,10,a,,,,,,0," 'op,1,1,0,5,"b' > t.csv
	run rlprof-report --strict t.csv
	[ "$status" -eq 1 ]
	assert_output "rlprof-report: error: 't.csv': line 3: the input ends inside a quoted field"
	head -c 150 "$R/nested.jsonl" > t.jsonl
	run rlprof-report --strict t.jsonl
	[ "$status" -eq 1 ]
	assert_output --partial "'t.jsonl': line 2: the input ends inside a record"
	printf '{"kind":"op","pid":1,"tid":1,"start_ns":0,"end_ns":5,"name":"x"}\n{"kind":\n' > t.jsonl
	run rlprof-report --strict t.jsonl
	[ "$status" -eq 1 ]
	assert_output --partial "'t.jsonl': line 2: "
}

@test "bad input: not a trace, empty input, missing file" {
	echo "a,b,c" > t.csv
	run rlprof-report t.csv
	[ "$status" -eq 1 ]
	assert_output "rlprof-report: error: 't.csv': line 1: not an rlprof trace (the header row lacks kind, pid, start_ns or end_ns)"
	: > e.csv
	run rlprof-report e.csv
	[ "$status" -eq 1 ]
	assert_output --partial "empty input"
	run rlprof-report nonexistent.csv
	[ "$status" -eq 1 ]
	assert_output "rlprof-report: error: cannot open 'nonexistent.csv': No such file or directory"
}

@test "quoted fields: commas, quotes and newlines in names, and line numbers after them" {
	printf '%s\n%s\n%s\n%s\n' "$HDR" 'op,1,1,0,10,"a, ""b""
c",,,,,,0,' "op,1,1,20,30,d,,,,,,0," "op,1,1,zz,30,e,,,,,,0," > t.csv
	run --separate-stderr rlprof-report -f csv t.csv
	assert_success
	assert_line '1,"a, ""b""'
	[[ $stderr == *"line 5: bad start_ns 'zz'"* ]] || fail "$stderr"
}

@test "quoted fields: a quote inside an unquoted field makes a malformed row; a bare CR is data" {
	printf '%s\n%s\nop,1,1,20,30,c\rd,,,,,,0,\n' "$HDR" 'op,1,1,0,10,a"b,,,,,,0,' > t.csv
	run --separate-stderr rlprof-report -f csv t.csv
	assert_success
	assert_output "$(printf '%s\n1,"c\rd",CPU,native,0.010,100.00,1,10,10,10,10,10,10' "$CSV_HEADER")"
	[[ $stderr == *"1 malformed row (first: 't.csv': line 2: a quote inside an unquoted field)"* ]] || fail "$stderr"
}

@test "a UTF-8 byte order mark before the header is ignored" {
	printf '\357\273\277%s\n%s\n' "$HDR" "op,1,1,0,10,x,,,,,,0," > t.csv
	run rlprof-report -f csv t.csv
	assert_success
	assert_line "1,x,CPU,native,0.010,100.00,1,10,10,10,10,10,10"
}

@test "columns may come in any order; CRLF line ends" {
	printf 'pid,kind,start_ns,end_ns,tid,name,category,domain,device,stream,correlation,value,detail\r\n1,op,0,10,1,x,,,,,,0,\r\n' > t.csv
	run rlprof-report -f csv t.csv
	assert_success
	assert_line "1,x,CPU,native,0.010,100.00,1,10,10,10,10,10,10"
}

@test "standard input: '-' and no operand, in time order or not" {
	run bash -c "rlprof-report -f csv - < '$R/two.csv'"
	assert_success
	assert_output "$(rlprof-report -f csv "$R/two.csv")"
	# A pipe out of order is copied aside and read again, sorted.
	run bash -c "cat '$R/two.csv' | rlprof-report -f csv"
	assert_success
	assert_output "$(rlprof-report -f csv "$R/two.csv")"
	run bash -c "cat '$R/nested.jsonl' | rlprof-report -f csv"
	assert_output "$(rlprof-report -f csv "$R/nested.csv")"
}

@test "TMPDIR: temporary files go there; a missing one is a clear error" {
	mkdir tmp
	run bash -c "cat '$R/two.csv' | TMPDIR='$PWD/tmp' rlprof-report -f csv --sort-chunk 2"
	assert_success
	assert_output "$(rlprof-report -f csv "$R/two.csv")"
	[ -z "$(ls tmp)" ]
	run bash -c "cat '$R/two.csv' | TMPDIR='$PWD/none' rlprof-report -f csv"
	[ "$status" -eq 1 ]
	assert_output "rlprof-report: error: creating a temporary file to sort 'standard input': No such file or directory"
}

@test "--sort-chunk: sorting in many small runs gives the same breakdown" {
	for n in 2 3 5; do
		run rlprof-report -f csv --sort-chunk $n "$R/two.csv"
		assert_success
		assert_output "$(rlprof-report -f csv "$R/two.csv")"
		run bash -c "cat '$R/nested.csv' | rlprof-report -f csv --sort-chunk $n"
		assert_output "$(rlprof-report -f csv "$R/nested.csv")"
	done
}

@test "recorder warnings: counted and reported once" {
	{ cat "$R/nested.csv"; echo "warning,100,100,1700000000000000500,,,,,,,,,unbalanced pop"
	  echo "warning,100,100,1700000000000000600,,,,,,,,,dropped 3 events"; } > t.csv
	run --separate-stderr rlprof-report -f json t.csv
	assert_success
	[[ $stderr == "rlprof-report: warning: the recorder left 2 warnings in the trace (first: 't.csv': line 13: unbalanced pop)" ]] || fail "$stderr"
	[[ $output == *'"recorder_warnings":2}'* ]]
}

@test "operands: more than one trace is a usage error" {
	run rlprof-report "$R/two.csv" "$R/nested.csv"
	[ "$status" -eq 2 ]
	assert_output --partial "too many operands"
}

@test "meta row 'order': out of order on standard input is an error; a file is sorted" {
	{ head -2 "$R/nested.csv"; echo "meta,,,,,order,,,,,,,start_ns"; tail -n +3 "$R/nested.csv"; } > t.csv
	run bash -c "cat t.csv | rlprof-report -f csv"
	[ "$status" -eq 1 ]
	assert_output "rlprof-report: error: 'standard input': line 9: out of time order, though its meta row 'order' says it is in order"
	run rlprof-report -f csv t.csv
	assert_success
	assert_output "$(rlprof-report -f csv "$R/nested.csv")"
}
