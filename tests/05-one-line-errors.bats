#!/usr/bin/env bats
# Property of every program: an error is one line on stderr, whatever the
# names it quotes; control characters in them come out escaped (\n, \r,
# \t, \xNN), and the exit status is the documented one.

load helpers

setup() {
	cd "$BATS_TEST_TMPDIR" || return 1
}

@test "cule-bench info: a missing ROM named with a newline: one stderr line, exit 1" {
	run -1 --separate-stderr cule-bench info $'a\nb.bin'
	[ "${#stderr_lines[@]}" -eq 1 ]
	[[ $stderr == "cule-bench: error: "*"a\\nb.bin"* ]]
}

@test "rlprof-report: a missing trace named with LF, CR, TAB and ESC: one stderr line, exit 1" {
	run -1 --separate-stderr rlprof-report $'x\ny\r\t\e.csv'
	[ "${#stderr_lines[@]}" -eq 1 ]
	[[ $stderr == "rlprof-report: error: "*'x\ny\r\t\x1b.csv'* ]]
	[[ $stderr != *$'\r'* && $stderr != *$'\t'* && $stderr != *$'\e'* ]]
}
