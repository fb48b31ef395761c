#!/usr/bin/env bats
# Suite-wide promises: every program in cmd/ has -h, --version, usage errors
# with exit 2, a man page whose SYNOPSIS matches --help, bash and zsh
# completions that match its --list-opts, and a README entry.

load helpers

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
	assert_line --regexp '^ *3 +a needed resource is missing'
}
