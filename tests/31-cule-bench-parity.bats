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
