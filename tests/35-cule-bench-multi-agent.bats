#!/usr/bin/env bats
# Combat, Joust, Maze Craze and Warlords: the two-player games that ale-py
# ships and refuses, whose reference is multi-agent ALE (multi-agent-ale-py,
# PettingZoo's emulator).  CI lacks it, so its traces are committed in
# compact form (tests/parity/multi-agent/, written by
# tests/parity/multi-agent.py write) and cule-bench replays each with the
# same actions and options: default and other modes and difficulties, as
# loadROM leaves the emulator and as Gymnasium drives it (reset after
# loading, sticky actions), through terminal states and the resets after
# them.  make check-parity compares with multi-agent ALE live
# (tests/parity/all-games.bats).  The ROMs come from ale-py.

load helpers
load parity

@test "trace --game combat: identical to multi-agent ALE's committed traces" { compare_with_committed combat; }
@test "trace --game joust: identical to multi-agent ALE's committed traces" { compare_with_committed joust; }
@test "trace --game maze_craze: identical to multi-agent ALE's committed traces" { compare_with_committed maze_craze; }
@test "trace --game warlords: identical to multi-agent ALE's committed traces" { compare_with_committed warlords; }

@test "trace: the committed traces are the cases', and cover rewards, lives lost, game overs and resets" {
	local c game n
	for c in $(awk '!/^#/ && NF { print $1 }' "$MA_DIR/cases"); do
		[ -f "$MA_DIR/$c.csv.gz" ] || fail "no trace for case $c"
	done
	for f in "$MA_DIR"/*.csv.gz; do
		c=$(basename "$f" .csv.gz)
		grep -q "^$c " "$MA_DIR/cases" || fail "$c.csv.gz is no case's"
	done
	for game in combat joust maze_craze warlords; do
		for c in $(ma_cases "$game"); do gzip -dc "$MA_DIR/$c.csv.gz" | tail -n +2; done > all
		n=$(awk -F, '$2 != 0' all | wc -l)
		[ "$n" -gt 0 ] || fail "$game: no reward in its traces"
		n=$(awk -F, '$3 == 1' all | wc -l)
		[ "$n" -gt 0 ] || fail "$game: no game over in its traces"
	done
	# Joust counts lives down to -1, Maze Craze and Warlords lose their one.
	for game in joust maze_craze warlords; do
		for c in $(ma_cases "$game"); do gzip -dc "$MA_DIR/$c.csv.gz" | tail -n +2; done |
			awk -F, '$4 == -1 { found = 1 } END { exit !found }' || fail "$game: lives never -1"
	done
}

@test "games: the four list multi-agent-ale-py as their reference, with its modes and difficulties" {
	run cule-bench games -f csv
	assert_success
	assert_line 'combat,Combat,0ef64cdbecccb7049752a3de0b7ade14,auto,joystick,yes,1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27,0 1 2 3,multi-agent-ale-py'
	assert_line 'joust,Joust,3276c777cbe97cdd2b4a63ffc16b7151,auto,joystick,yes,0 2 1 3,0,multi-agent-ale-py'
	assert_line --regexp '^maze_craze,Maze Craze,ed2218b3075d15eaa34e3356025ccca3,auto,joystick,yes,0 1 2 .* 62 63,0,multi-agent-ale-py$'
	assert_line 'warlords,Warlords,cbe5a166550a8129a5e6d374901dffad,auto,paddles,yes,4 9 14 19 3 5 8 10 13 15 18 20 23 1 6 11 16 21,0,multi-agent-ale-py'
	# Every other game's reference is ale-py (catch has none).
	n=$(cule-bench games -f csv | awk -F, 'NR > 1 && $9 != "ale-py" { print $1 }' | sort | tr '\n' ' ')
	[ "$n" = "catch combat joust maze_craze warlords " ] || fail "not ale-py's: $n"
}

@test "--mode: a mode multi-agent ALE does not list is a usage error naming the valid ones" {
	local roms
	skip_unless_python ale_py
	roms=$(ale_roms)
	[ -f "$roms/warlords.bin" ] || skip "ale-py has no ROM warlords.bin"
	run --separate-stderr cule-bench trace --rom "$roms/warlords.bin" --frames 1 --mode 2
	[ "$status" -eq 2 ]
	[ "${stderr_lines[0]}" = "cule-bench: error: game 'warlords' has no mode 2 (valid: 4, 9, 14, 19, 3, 5, 8, 10, 13, 15, 18, 20, 23, 1, 6, 11, 16 or 21)" ]
	run --separate-stderr cule-bench trace --rom "$roms/joust.bin" --frames 1 --difficulty 1
	[ "$status" -eq 2 ]
	[ "${stderr_lines[0]}" = "cule-bench: error: game 'joust' has no difficulty 1 (valid: 0)" ]
}

@test "games: modes, difficulties and minimal action sets are multi-agent ALE's (its one-, two- and four-player modes in turn)" {
	local roms g want got
	skip_unless_python ale_py multi_agent_ale_py
	roms=$(ale_roms)
	for g in combat joust maze_craze warlords; do
		want=$(python3 -c '
import multi_agent_ale_py as m, sys
m.ALEInterface.setLoggerMode(m.ALEInterface.Logger.Error)
a = m.ALEInterface(); a.setInt("random_seed", 1); a.loadROM(sys.argv[1])
modes = [int(x) for n in (1, 2, 4) for x in a.getAvailableModes(n)]
print(" ".join(map(str, modes)), "/", " ".join(str(int(x)) for x in a.getAvailableDifficulties()),
      "/", " ".join(str(int(x)) for x in a.getMinimalActionSet()))' "$roms/$g.bin")
		got=$(cule-bench games -f csv | awk -F, -v g="$g" '$1 == g { print $7 " / " $8 }')
		# The minimal set: the actions random traces draw from it.
		got="$got / $(cule-bench trace --rom "$roms/$g.bin" --frames 1000 |
			tail -n +2 | cut -d, -f2 | sort -n -u | tr '\n' ' ' | sed 's/ $//')"
		[ "$got" = "$want" ] || fail "$g: ours '$got', multi-agent ALE '$want'"
	done
}
