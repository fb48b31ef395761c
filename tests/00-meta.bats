#!/usr/bin/env bats
# Suite-wide promises: every program in cmd/ has -h, --version, usage errors
# with exit 2, exit 1 with one error line for a missing or malformed input
# file, a man page whose SYNOPSIS matches --help and whose EXIT STATUS
# states the rule of rlkit(7), bash and zsh completions that match its
# --list-opts, and a README entry.

load helpers

# The input files of every program, one line each, tab-separated: the
# program, its arguments with IN for the file, the exit status when IN does
# not exist ("-": a missing IN is not an error, as for a joblog that --resume
# starts), and the contents of a malformed IN (printf format; "-": none).
# Missing and malformed files exit 1 with one line "prog: error: ..."
# (rlkit(7)).  Each program needs at least one line.
input_files() {
	local trace="$TOP/tests/data/report/two.csv" rom="$RLKIT_BUILD/share/roms/catch.bin"
	cat <<EOF
rlprof-report	IN	1	kind,pid\\nop,1\\n
rlprof-report	--compare IN $trace	1	kind,pid\\nop,1\\n
rlprof-report	--compare $trace IN	1	"unterminated\\n
cule-bench	--rom IN --envs 1 --steps 1	1	not a ROM
cule-bench	trace --rom IN --frames 1	1	\\x00\\x01
cule-bench	info IN	1	not a ROM
cule-bench	trace --rom $rom --actions IN	1	3\\nUPLEFTDOWN\\n
fiberrun	-H IN -- true	1	node1\\nnode2:zero\\n
fiberrun	-H IN -- true	1	# no hosts\\n
fiberrun	--pool --protocol lines -n 1 -j IN --resume -- cat	-	{"id":1}\\nnot a record\\n{"id":2}\\n
fiberrun	--pool --protocol lines --on-bad-input abort -n 1 -- cat < IN	-	not json\\n
rlprof-record	-o IN/t.csv -- true	1	-
rlprof-report	--calibration IN $trace	1	{\n  "format": "rlprof-calibration",,\n}\n
rlprof-calibrate	-o IN/cal.json -- true	1	-
EOF
}

# check_one_error PROG: the last run failed with status 1, wrote nothing on
# stdout and exactly one line "PROG: error: ..." on stderr.
check_one_error() {
	[ "$status" -eq 1 ] || fail "$1 $args: exit status $status, not 1: $stderr"
	[ -z "$output" ] || fail "$1 $args: printed to stdout: $output"
	[[ $stderr == "$1: error: "* ]] || fail "$1 $args: stderr is not '$1: error: ...': $stderr"
	[ "$(printf '%s\n' "$stderr" | wc -l)" -eq 1 ] || fail "$1 $args: more than one line: $stderr"
}

@test "-h and --help: usage on stdout, exit 0, for every program" {
	for p in $(programs); do
		run "$p" -h
		assert_success
		assert_line --index 0 --regexp "^usage: $p "
		run "$p" --help
		assert_success
		assert_line --regexp '^Options:$'
		assert_line --regexp '^  -h, --help'
	done
}

@test "--version: program, toolkit and version, exit 0, for every program" {
	for p in $(programs); do
		run "$p" --version
		assert_success
		assert_output --regexp "^$p \(rlkit\) [0-9]+\.[0-9]+\.[0-9]+$"
	done
}

@test "bad option: error and usage on stderr, exit 2, for every program" {
	for p in $(programs); do
		run --separate-stderr "$p" --no-such-option
		[ "$status" -eq 2 ] || fail "$p --no-such-option exited $status, not 2"
		[ -z "$output" ] || fail "$p printed to stdout on a usage error"
		[[ $stderr == "$p: error: unknown option '--no-such-option'"* ]] ||
			fail "$p: unexpected stderr: $stderr"
		[[ $stderr == *$'\n'"usage: $p "* ]] || fail "$p: no usage line on stderr"
	done
}

@test "man page: man/man1/<prog>.1 exists, renders, and its SYNOPSIS matches --help" {
	for p in $(programs); do
		page="$TOP/man/man1/$p.1"
		[ -f "$page" ] || fail "$p has no man page man/man1/$p.1"
		want=$(help_synopsis "$p" | tr -s ' ')
		got=$(man_synopsis "$page")
		[ "$got" = "$want" ] || fail "$p: man SYNOPSIS differs from --help
--- man:
$got
--- help:
$want"
		grep -q '^\.Sh EXIT STATUS' "$page" || fail "$p: man page lacks EXIT STATUS"
		grep -q '^\.Sh EXAMPLES' "$page" || fail "$p: man page lacks EXAMPLES"
		run groff -mandoc -Tutf8 -ww -z "$page"
		[ -z "$output" ] || fail "$p: groff warns: $output"
	done
}

@test "completion: bash and zsh files exist and match --list-opts" {
	for p in $(programs); do
		[ -f "$TOP/completion/bash/$p" ] || fail "$p has no completion/bash/$p"
		[ -f "$TOP/completion/zsh/_$p" ] || fail "$p has no completion/zsh/_$p"
		diff -u "$TOP/completion/bash/$p" <("$TOP/completion/generate" bash "$(command -v "$p")") ||
			fail "completion/bash/$p is stale: run 'make completions'"
		diff -u "$TOP/completion/zsh/_$p" <("$TOP/completion/generate" zsh "$(command -v "$p")") ||
			fail "completion/zsh/_$p is stale: run 'make completions'"
		bash -n "$TOP/completion/bash/$p" || fail "completion/bash/$p is not valid bash"
	done
}

@test "completion: bash completes long options and option values" {
	for p in $(programs); do
		run bash -c "source '$TOP/completion/bash/$p'
			fn=\$(complete -p '$p' | sed 's/.* -F \([^ ]*\) .*/\1/')
			COMP_WORDS=('$p' --ver); COMP_CWORD=1; \$fn; echo \"\${COMPREPLY[*]}\""
		assert_success
		assert_output "--version"
	done
}

@test "README: every program has an entry with an example" {
	for p in $(programs); do
		grep -q "^### $p\$" "$TOP/README.md" || fail "README.md has no '### $p' entry"
		awk -v p="$p" '$0 == "### " p {on = 1; next} /^##/ {on = 0} on' "$TOP/README.md" |
			grep -q "^    .*$p" || fail "README.md entry for $p has no indented example"
	done
}

@test "README: the two set-up commands" {
	grep -q '^    make demo$' "$TOP/README.md"
	grep -q '^    make check$' "$TOP/README.md"
}

@test "man7: overview page lists every program and the exit-code table" {
	page="$TOP/man/man7/rlkit.7"
	for p in $(programs); do
		grep -q "Xr $p 1" "$page" || fail "rlkit.7 does not mention $p"
	done
	run bash -c "groff -mandoc -Tutf8 -P-cbou '$page' | tr -s ' '"
	assert_line --regexp '^ *0 +success'
	assert_line --regexp '^ *2 +usage error'
	assert_line --regexp '^ *1 +the work failed'
	assert_line --regexp '^ *3 +a needed system resource is missing'
	assert_output --partial 'missing, unreadable or malformed'
}

@test "exit status: every program has its input files in the table of 00-meta.bats" {
	for p in $(programs); do
		input_files | cut -f1 | grep -qx "$p" ||
			fail "$p has no line in input_files (tests/00-meta.bats)"
	done
}

@test "exit status: a missing input file exits 1 with one error line, for every program" {
	while IFS=$'\t' read -r p args missing _; do
		[ "$missing" != - ] || continue
		args=${args//IN/no-such-file}
		run --separate-stderr bash -c "$p $args" < /dev/null
		check_one_error "$p"
		[[ $stderr == *"no-such-file"* ]] || fail "$p $args: the message does not name the file: $stderr"
	done < <(input_files)
}

@test "exit status: a malformed input file exits 1 with one error line, for every program" {
	while IFS=$'\t' read -r p args _ bad; do
		[ "$bad" != - ] || continue
		rm -f bad.in
		printf "$bad" > bad.in
		args=${args//IN/bad.in}
		run --separate-stderr bash -c "$p $args" < /dev/null
		check_one_error "$p"
	done < <(input_files)
}

@test "exit status: a folder given as an input file exits 1 with one error line, for every program" {
	mkdir folder.in
	while IFS=$'\t' read -r p args missing _; do
		[ "$missing" != - ] && [[ $args != *IN/* ]] || continue
		args=${args//IN/folder.in}
		run --separate-stderr bash -c "$p $args" < /dev/null
		check_one_error "$p"
	done < <(input_files)
}

@test "bad option: exit 2 in every subcommand that --help lists, for every program" {
	for p in $(programs); do
		for c in $("$p" --help | awk '/^Commands:$/ { on = 1; next } /^$/ { on = 0 } on { print $1 }'); do
			run --separate-stderr "$p" "$c" --no-such-option
			[ "$status" -eq 2 ] || fail "$p $c --no-such-option exited $status, not 2"
			[[ $stderr == "$p: error: unknown option '--no-such-option'"* ]] ||
				fail "$p $c: unexpected stderr: $stderr"
		done
	done
}

@test "man EXIT STATUS: every page states the rule of rlkit(7)" {
	for p in $(programs); do
		page="$TOP/man/man1/$p.1"
		run bash -c "MANWIDTH=1000 groff -mandoc -Tutf8 -P-cbou '$page' |
			awk '/^EXIT STATUS/ {on = 1; next} /^[A-Z]/ {on = 0} on' | tr -s ' '"
		assert_line --regexp '^ *0 +success'
		assert_line --regexp '^ *1 +the work failed'
		assert_line --regexp '^ *2 +usage error'
		assert_line --regexp '^ *3 +a needed system resource is missing'
		assert_output --partial 'rlkit(7)'
	done
}
