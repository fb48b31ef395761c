#!/usr/bin/env bats
# Every parser has a libFuzzer target in tests/fuzz; each runs briefly here,
# from its seed corpus, under ASan and UBSan.  The targets are built here
# ('make fuzzers'), not by every build.  Longer runs by hand:
#   make fuzzers && build/fuzz/core-csv -max_total_time=600 tests/fuzz/corpus/core-csv

load helpers

@test "fuzz: every target in tests/fuzz runs 20,000 inputs without a finding" {
	command -v clang >/dev/null || skip "clang is not installed (make deps installs it)"
	run rlkit_make fuzzers
	[ "$status" -eq 0 ] || fail "make fuzzers failed:
$(printf '%s\n' "$output" | tail -30)"
	for src in "$TOP"/tests/fuzz/*.c; do
		name=$(basename "$src" .c)
		bin="$RLKIT_BUILD/fuzz/$name"
		[ -x "$bin" ] || fail "fuzz target not built: $bin (make fuzzers)"
		mkdir -p "corpus-$name"
		[ -d "$TOP/tests/fuzz/corpus/$name" ] && cp "$TOP/tests/fuzz/corpus/$name"/* "corpus-$name"/
		run "$bin" -seed=1 -runs=20000 -max_len=4096 -timeout=10 "corpus-$name"
		[ "$status" -eq 0 ] || fail "$name found a problem:
$(printf '%s\n' "$output" | tail -30)"
	done
}
