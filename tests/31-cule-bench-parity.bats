#!/usr/bin/env bats
# Parity with ALE in bounded time: the games of this run's slice (about one
# in eight, a different slice for each commit) against ale-py, both
# drivings (tests/parity.bash).  make check-parity runs every game, one
# test each (tests/parity/all-games.bats).

load helpers
load parity

setup_file() {
	parity_setup_file
}

@test "parity: every game is in exactly one slice" {
	local k g n=0
	for ((k = 0; k < PARITY_SLICES; k++)); do
		for g in $(parity_games); do
			RLKIT_PARITY_SLICE=$k in_slice "$g" && n=$((n + 1))
		done
	done
	[ "$n" -eq "$(parity_games | wc -l)" ] || fail "$n games in the slices, $(parity_games | wc -l) in all"
}

@test "parity: the games of this run's slice are identical to ALE for 3,000 frames" {
	skip_unless_python ale_py
	local g bad= n=0
	for g in $(parity_games); do
		in_slice "$g" || continue
		n=$((n + 1))
		( compare_with_ale "$g" ) || bad="$bad $g"
	done
	[ "$n" -gt 0 ] || fail "no game in slice $(parity_slice)"
	[ -z "$bad" ] || fail "differ from ALE:$bad"
}

@test "parity: Solaris, seed 1 and sticky actions, reads a TIA register across a page at frame 3,733 as ALE does" {
	local roms
	skip_unless_python ale_py
	roms=$(ale_roms)
	[ -f "$roms/solaris.bin" ] || skip "ale-py has no ROM solaris.bin"
	cd "$BATS_TEST_TMPDIR" || fail "no test folder"
	FRAMES=3800
	cule-bench trace --rom "$roms/solaris.bin" --game solaris --frames "$FRAMES" --seed 1 \
		--reset --sticky 0.25 > ours.csv || fail "cule-bench failed"
	tail -n +2 ours.csv | cut -d, -f2 > actions
	python3 "$TOP/share/ale-trace.py" --rom "$roms/solaris.bin" --actions actions --seed 1 \
		--reset --sticky 0.25 -o ale.csv || fail "ale-trace.py failed"
	compare_traces ours.csv ale.csv "seed 1, sticky actions 0.25"
}
