#!/usr/bin/env bats
# Game modes and difficulties (--mode, --difficulty): each game's valid set
# as ALE lists it, a usage error naming the valid values for any other, and
# parity with ALE (share/ale-trace.py --mode/--difficulty: loadROM, setMode,
# setDifficulty, reset_game) in non-default modes.  The ROMs come from
# ale-py; a game whose ROM is missing is skipped.

load helpers

FRAMES=2000

setup() {
	cd "$BATS_TEST_TMPDIR" || return 1
	ROM="$RLKIT_BUILD/share/roms/catch.bin"
}

# with_ale GAME OPTION VALUE: the trace in that mode or difficulty equals ALE's.
with_ale() {
	local game=$1 opt=$2 value=$3 roms
	skip_unless_python ale_py
	roms=$(ale_roms)
	[ -f "$roms/$game.bin" ] || skip "ale-py has no ROM $game.bin"
	cule-bench trace --rom "$roms/$game.bin" --game "$game" --frames "$FRAMES" --seed 3 \
		--reset "$opt" "$value" > ours.csv || fail "cule-bench failed"
	tail -n +2 ours.csv | cut -d, -f2 > actions
	python3 "$TOP/share/ale-trace.py" --rom "$roms/$game.bin" --actions actions --seed 3 \
		"$opt" "$value" -o ale.csv || fail "ale-trace.py failed"
	[ "$(wc -l < ours.csv)" -eq $((FRAMES + 1)) ] || fail "cule-bench wrote $(wc -l < ours.csv) lines"
	if ! cmp -s ours.csv ale.csv; then
		paste -d'\n' ours.csv ale.csv | awk -F, '
			NR % 2 == 1 { split($0, a, ","); next }
			{ n = split($0, b, ",")
			  for (i = 1; i <= n; i++) if (a[i] != b[i]) {
				print "first difference: frame " b[1] ", column " i ": ours " a[i] ", ALE " b[i]
				exit } }'
		fail "$game $opt $value differs from ALE"
	fi
	# The mode changes the game: the trace differs from the default one.
	cule-bench trace --rom "$roms/$game.bin" --game "$game" --actions actions --reset > default.csv
	! cmp -s ours.csv default.csv || fail "$opt $value traces as the default"
}

@test "--mode 1: Frogger's second mode, identical to ALE" { with_ale frogger --mode 1; }
@test "--mode 2: Frogger's third mode, identical to ALE" { with_ale frogger --mode 2; }
@test "--mode 3: Galaxian, identical to ALE" { with_ale galaxian --mode 3; }
@test "--mode 70: Pooyan, identical to ALE" { with_ale pooyan --mode 70; }
@test "--mode 4: Turmoil, identical to ALE" { with_ale turmoil --mode 4; }
@test "--mode 4: Crossbow, identical to ALE" { with_ale crossbow --mode 4; }
@test "--mode 6: Mario Bros., identical to ALE" { with_ale mario_bros --mode 6; }
@test "--difficulty 1: TRON Deadly Discs, identical to ALE" { with_ale trondead --difficulty 1; }
@test "--difficulty 3: Superman, identical to ALE" { with_ale superman --difficulty 3; }
@test "--difficulty 1: Space Invaders, identical to ALE" { with_ale space_invaders --difficulty 1; }
@test "--mode 1: Lost Luggage, identical to ALE" { with_ale lost_luggage --mode 1; }
@test "--mode 1: Pong, identical to ALE" { with_ale pong --mode 1; }
@test "--mode 86: Centipede, identical to ALE" { with_ale centipede --mode 86; }
@test "--mode 12: Space War (its mode in BCD), identical to ALE" { with_ale space_war --mode 12; }
@test "--mode 3: 3-D Tic-Tac-Toe, identical to ALE" { with_ale tic_tac_toe_3d --mode 3; }
@test "--mode 3: Casino's poker solitaire, identical to ALE" { with_ale casino --mode 3; }
@test "--mode 12: Video Checkers' reverse checkers (17 in RAM), identical to ALE" { with_ale video_checkers --mode 12; }
@test "--mode 2: Video Chess, identical to ALE" { with_ale video_chess --mode 2; }
@test "--difficulty 3: Backgammon (ALE's only listed difficulty), identical to ALE" { with_ale backgammon --difficulty 3; }
@test "--mode 2: Adventure (SELECT held for random times from ALE's stream), identical to ALE" { with_ale adventure --mode 2; }
@test "--mode 5: Word Zapper, identical to ALE" { with_ale word_zapper --mode 5; }
@test "--mode 2: Klax (its mode in the cartridge's RAM), identical to ALE" { with_ale klax --mode 2; }
@test "--mode 5: Double Dunk (options set in its menu), identical to ALE" { with_ale double_dunk --mode 5; }
@test "--mode 2: Ms. Pac-Man's third game (variation 0), identical to ALE" { with_ale ms_pacman --mode 2; }
@test "--mode 3: Alien, identical to ALE" { with_ale alien --mode 3; }
@test "--mode 4: Gravitar, identical to ALE" { with_ale gravitar --mode 4; }
@test "--mode 1201: Video Cube's cube 12 (RIGHT held until it shows), identical to ALE" { with_ale video_cube --mode 1201; }

@test "--mode: a mode the game lacks is a usage error naming the valid modes" {
	run --separate-stderr cule-bench trace --rom "$ROM" --frames 5 --mode 1
	[ "$status" -eq 2 ]
	[ "${stderr_lines[0]}" = "cule-bench: error: game 'catch' has no mode 1 (valid: 0)" ]
	run --separate-stderr cule-bench --rom "$ROM" --envs 1 --steps 5 --difficulty 2
	[ "$status" -eq 2 ]
	[ "${stderr_lines[0]}" = "cule-bench: error: game 'catch' has no difficulty 2 (valid: 0)" ]
	run cule-bench trace --rom "$ROM" --frames 5 --mode 0 --difficulty 0
	assert_success
	run --separate-stderr cule-bench trace --rom "$ROM" --frames 5 --mode x
	[ "$status" -eq 2 ]
	run --separate-stderr cule-bench trace --rom "$ROM" --frames 5 --mode 65536
	[ "$status" -eq 2 ]
	[ "${stderr_lines[0]}" = "cule-bench: error: bad mode '65536' (0 to 65535)" ]
}

@test "--mode: the valid modes and difficulties are ALE's" {
	skip_unless_python ale_py
	roms=$(ale_roms)
	[ -f "$roms/pooyan.bin" ] || skip "ale-py has no ROM pooyan.bin"
	run --separate-stderr cule-bench trace --rom "$roms/pooyan.bin" --frames 5 --mode 20
	[ "$status" -eq 2 ]
	[ "${stderr_lines[0]}" = "cule-bench: error: game 'pooyan' has no mode 20 (valid: 10, 30, 50 or 70)" ]
	run --separate-stderr cule-bench trace --rom "$roms/video_cube.bin" --frames 5 --mode 3
	[ "$status" -eq 2 ]
	[ "${stderr_lines[0]}" = "cule-bench: error: game 'video_cube' has no mode 3 (valid: 0, 1, 2, 100, 101, 102, ..., 5000, 5001 or 5002; 153 in all)" ]
	run --separate-stderr cule-bench trace --rom "$roms/ms_pacman.bin" --frames 5 --mode 4
	[ "$status" -eq 2 ]
	[ "${stderr_lines[0]}" = "cule-bench: error: game 'ms_pacman' has no mode 4 (valid: 0, 1, 2 or 3)" ]
	run --separate-stderr cule-bench trace --rom "$roms/entombed.bin" --frames 5 --difficulty 1
	[ "$status" -eq 2 ]
	[ "${stderr_lines[0]}" = "cule-bench: error: game 'entombed' has no difficulty 1 (valid: 0 or 2)" ]
	for g in pooyan galaxian frogger entombed trondead pong boxing lost_luggage breakout \
		asteroids backgammon casino video_checkers tic_tac_toe_3d adventure klax \
		double_dunk ms_pacman alien gravitar video_cube; do
		want=$(python3 -c '
import ale_py, sys
ale_py.ALEInterface.setLoggerMode(ale_py.LoggerMode.Error)
a = ale_py.ALEInterface(); a.loadROM(sys.argv[1])
print(" ".join(map(str, a.getAvailableModes())), "/", " ".join(map(str, a.getAvailableDifficulties())))' "$roms/$g.bin")
		got=$(cule-bench games -f csv | awk -F, -v g="$g" '$1 == g { print $7 " / " $8 }')
		[ "$got" = "$want" ] || fail "$g: ours '$got', ALE '$want'"
	done
}
