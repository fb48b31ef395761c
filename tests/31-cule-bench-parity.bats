#!/usr/bin/env bats
# Parity with ALE: for every supported game, 3,000 frames of random actions
# from the minimal action set, traced by cule-bench and by ale-py
# (share/ale-trace.py), must agree on every column of every frame, with ALE
# driven two ways: as loadROM leaves it (no sticky actions), and as
# Gymnasium drives it (reset_game after loadROM, sticky actions with
# probability 0.25 from ALE's own generator and seed).  The ROMs come from
# ale-py; a game whose ROM is missing is skipped.
#
# Bounded time: by default a sample of the games runs, about one in
# PARITY_SLICES, a different slice for each commit (the slice is the commit
# hash modulo PARITY_SLICES, or RLKIT_PARITY_SLICE); the other games are
# skipped with that reason.  RLKIT_PARITY=all (make check-parity) runs all.

load helpers

FRAMES=3000
PARITY_SLICES=8

# The slice of games this run compares (all: -1).
parity_slice() {
	local head
	if [ "${RLKIT_PARITY:-}" = all ]; then
		echo -1
	elif [ -n "${RLKIT_PARITY_SLICE:-}" ]; then
		echo $((RLKIT_PARITY_SLICE % PARITY_SLICES))
	else
		head=$(git -C "$TOP" rev-parse --short=7 HEAD 2>/dev/null) || head=0
		echo $((16#$head % PARITY_SLICES))
	fi
}

# in_slice GAME: the game is compared in this run (its place in the sorted
# list of games, modulo PARITY_SLICES, is the slice).
in_slice() {
	local slice i
	slice=$(parity_slice)
	[ "$slice" -lt 0 ] && return 0
	i=$(sed -n 's/.*{ compare_with_ale \([a-z0-9_]*\); }.*/\1/p' "$BATS_TEST_FILENAME" | sort |
		grep -n -x "$1" | cut -d: -f1)
	[ $(((i - 1) % PARITY_SLICES)) -eq "$slice" ]
}

# All the games of this run, traced by cule-bench (one process per game and
# driving) and by ALE (one Python process per driving, to spare start-up).
setup_file() {
	local roms games g
	python3 -c 'import ale_py' 2>/dev/null || return 0
	roms=$(python3 -c 'import ale_py, os; print(os.path.join(os.path.dirname(ale_py.__file__), "roms"))')
	games=$(sed -n 's/.*{ compare_with_ale \([a-z0-9_]*\); }.*/\1/p' "$BATS_TEST_FILENAME")
	: > "$BATS_FILE_TMPDIR/batch.load"
	: > "$BATS_FILE_TMPDIR/batch.gym"
	for g in $games; do
		[ -f "$roms/$g.bin" ] || continue
		in_slice "$g" || continue
		# A failure here is reported by the game's own test.
		cule-bench trace --rom "$roms/$g.bin" --game "$g" --frames "$FRAMES" --seed 7 \
			> "$BATS_FILE_TMPDIR/$g.load.ours" 2> "$BATS_FILE_TMPDIR/$g.err" || continue
		cule-bench trace --rom "$roms/$g.bin" --game "$g" --frames "$FRAMES" --seed 7 \
			--reset --sticky 0.25 > "$BATS_FILE_TMPDIR/$g.gym.ours" 2>> "$BATS_FILE_TMPDIR/$g.err" ||
			continue
		tail -n +2 "$BATS_FILE_TMPDIR/$g.load.ours" | cut -d, -f2 > "$BATS_FILE_TMPDIR/$g.actions"
		printf '%s\t%s\t%s\n' "$roms/$g.bin" "$BATS_FILE_TMPDIR/$g.actions" \
			"$BATS_FILE_TMPDIR/$g.load.ale" >> "$BATS_FILE_TMPDIR/batch.load"
		printf '%s\t%s\t%s\n' "$roms/$g.bin" "$BATS_FILE_TMPDIR/$g.actions" \
			"$BATS_FILE_TMPDIR/$g.gym.ale" >> "$BATS_FILE_TMPDIR/batch.gym"
	done
	python3 "$TOP/share/ale-trace.py" --batch "$BATS_FILE_TMPDIR/batch.load" --seed 7 || true
	python3 "$TOP/share/ale-trace.py" --batch "$BATS_FILE_TMPDIR/batch.gym" --seed 7 \
		--reset --sticky 0.25 || true
}

# compare_traces OURS ALE WHAT: name the first differing frame and column.
compare_traces() {
	local ours=$1 ale=$2 what=$3
	[ -f "$ale" ] || fail "ale-trace.py wrote no trace ($what)"
	[ "$(wc -l < "$ale")" -eq $((FRAMES + 1)) ] || fail "ale-trace.py wrote $(wc -l < "$ale") lines ($what)"
	[ "$(wc -l < "$ours")" -eq $((FRAMES + 1)) ] || fail "cule-bench wrote $(wc -l < "$ours") lines ($what)"
	if ! cmp -s "$ours" "$ale"; then
		paste -d'\n' "$ours" "$ale" | awk -F, '
			NR % 2 == 1 { split($0, a, ","); next }
			{ n = split($0, b, ",")
			  split("frame,action,reward,terminal,lives,ram,screen_md5", col, ",")
			  for (i = 1; i <= n; i++) if (a[i] != b[i]) {
				print "first difference: frame " b[1] ", column " col[i] ": ours " a[i] ", ALE " b[i]
				exit } }'
		fail "differs from ALE ($what)"
	fi
}

# compare_with_ale GAME: both drivings of the game agree with ALE.
compare_with_ale() {
	local game=$1 t="$BATS_FILE_TMPDIR/$1"
	skip_unless_python ale_py
	in_slice "$game" || skip "not in this run's slice of games (make check-parity runs all)"
	[ -f "$t.load.ours" ] || [ -s "$t.err" ] || skip "ale-py has no ROM $game.bin"
	[ ! -s "$t.err" ] || fail "cule-bench: $(cat "$t.err")"
	compare_traces "$t.load.ours" "$t.load.ale" "as loadROM leaves ALE"
	compare_traces "$t.gym.ours" "$t.gym.ale" "reset after loading, sticky actions 0.25"
}

@test "trace --game pong: identical to ALE for 3,000 frames" { compare_with_ale pong; }
@test "trace --game breakout: identical to ALE for 3,000 frames" { compare_with_ale breakout; }
@test "trace --game space_invaders: identical to ALE for 3,000 frames" { compare_with_ale space_invaders; }
@test "trace --game seaquest: identical to ALE for 3,000 frames" { compare_with_ale seaquest; }
@test "trace --game qbert: identical to ALE for 3,000 frames" { compare_with_ale qbert; }
@test "trace --game beam_rider: identical to ALE for 3,000 frames" { compare_with_ale beam_rider; }
@test "trace --game enduro: identical to ALE for 3,000 frames" { compare_with_ale enduro; }
@test "trace --game ms_pacman: identical to ALE for 3,000 frames" { compare_with_ale ms_pacman; }
@test "trace --game asterix: identical to ALE for 3,000 frames" { compare_with_ale asterix; }
@test "trace --game boxing: identical to ALE for 3,000 frames" { compare_with_ale boxing; }
@test "trace --game freeway: identical to ALE for 3,000 frames" { compare_with_ale freeway; }
@test "trace --game asteroids: identical to ALE for 3,000 frames" { compare_with_ale asteroids; }
@test "trace --game atlantis: identical to ALE for 3,000 frames" { compare_with_ale atlantis; }
@test "trace --game frostbite: identical to ALE for 3,000 frames" { compare_with_ale frostbite; }
@test "trace --game montezuma_revenge: identical to ALE for 3,000 frames" { compare_with_ale montezuma_revenge; }
@test "trace --game amidar: identical to ALE for 3,000 frames" { compare_with_ale amidar; }
@test "trace --game assault: identical to ALE for 3,000 frames" { compare_with_ale assault; }
@test "trace --game krull: identical to ALE for 3,000 frames" { compare_with_ale krull; }
@test "trace --game kung_fu_master: identical to ALE for 3,000 frames" { compare_with_ale kung_fu_master; }
@test "trace --game phoenix: identical to ALE for 3,000 frames" { compare_with_ale phoenix; }
@test "trace --game riverraid: identical to ALE for 3,000 frames" { compare_with_ale riverraid; }
@test "trace --game road_runner: identical to ALE for 3,000 frames" { compare_with_ale road_runner; }
@test "trace --game robotank: identical to ALE for 3,000 frames" { compare_with_ale robotank; }
@test "trace --game fishing_derby: identical to ALE for 3,000 frames" { compare_with_ale fishing_derby; }
@test "trace --game pitfall: identical to ALE for 3,000 frames" { compare_with_ale pitfall; }
@test "trace --game skiing: identical to ALE for 3,000 frames" { compare_with_ale skiing; }
@test "trace --game solaris: identical to ALE for 3,000 frames" { compare_with_ale solaris; }
@test "trace --game time_pilot: identical to ALE for 3,000 frames" { compare_with_ale time_pilot; }
@test "trace --game up_n_down: identical to ALE for 3,000 frames" { compare_with_ale up_n_down; }
@test "trace --game venture: identical to ALE for 3,000 frames" { compare_with_ale venture; }
@test "trace --game wizard_of_wor: identical to ALE for 3,000 frames" { compare_with_ale wizard_of_wor; }
@test "trace --game alien: identical to ALE for 3,000 frames" { compare_with_ale alien; }
@test "trace --game bank_heist: identical to ALE for 3,000 frames" { compare_with_ale bank_heist; }
@test "trace --game centipede: identical to ALE for 3,000 frames" { compare_with_ale centipede; }
@test "trace --game chopper_command: identical to ALE for 3,000 frames" { compare_with_ale chopper_command; }
@test "trace --game demon_attack: identical to ALE for 3,000 frames" { compare_with_ale demon_attack; }
@test "trace --game gopher: identical to ALE for 3,000 frames" { compare_with_ale gopher; }
@test "trace --game hero: identical to ALE for 3,000 frames" { compare_with_ale hero; }
@test "trace --game jamesbond: identical to ALE for 3,000 frames" { compare_with_ale jamesbond; }
@test "trace --game kangaroo: identical to ALE for 3,000 frames" { compare_with_ale kangaroo; }
@test "trace --game gravitar: identical to ALE for 3,000 frames" { compare_with_ale gravitar; }
@test "trace --game crazy_climber: identical to ALE for 3,000 frames" { compare_with_ale crazy_climber; }
@test "trace --game star_gunner: identical to ALE for 3,000 frames" { compare_with_ale star_gunner; }
@test "trace --game battle_zone: identical to ALE for 3,000 frames" { compare_with_ale battle_zone; }
@test "trace --game bowling: identical to ALE for 3,000 frames" { compare_with_ale bowling; }
@test "trace --game private_eye: identical to ALE for 3,000 frames" { compare_with_ale private_eye; }
@test "trace --game tutankham: identical to ALE for 3,000 frames" { compare_with_ale tutankham; }
@test "trace --game zaxxon: identical to ALE for 3,000 frames" { compare_with_ale zaxxon; }
@test "trace --game video_pinball: identical to ALE for 3,000 frames" { compare_with_ale video_pinball; }
@test "trace --game berzerk: identical to ALE for 3,000 frames" { compare_with_ale berzerk; }
@test "trace --game defender: identical to ALE for 3,000 frames" { compare_with_ale defender; }
@test "trace --game ice_hockey: identical to ALE for 3,000 frames" { compare_with_ale ice_hockey; }
@test "trace --game name_this_game: identical to ALE for 3,000 frames" { compare_with_ale name_this_game; }
@test "trace --game yars_revenge: identical to ALE for 3,000 frames" { compare_with_ale yars_revenge; }
@test "trace --game tennis: identical to ALE for 3,000 frames" { compare_with_ale tennis; }
@test "trace --game atlantis2: identical to ALE for 3,000 frames" { compare_with_ale atlantis2; }
@test "trace --game blackjack: identical to ALE for 3,000 frames" { compare_with_ale blackjack; }
@test "trace --game carnival: identical to ALE for 3,000 frames" { compare_with_ale carnival; }
@test "trace --game darkchambers: identical to ALE for 3,000 frames" { compare_with_ale darkchambers; }
@test "trace --game donkey_kong: identical to ALE for 3,000 frames" { compare_with_ale donkey_kong; }
@test "trace --game earthworld: identical to ALE for 3,000 frames" { compare_with_ale earthworld; }
@test "trace --game elevator_action: identical to ALE for 3,000 frames" { compare_with_ale elevator_action; }
@test "trace --game entombed: identical to ALE for 3,000 frames" { compare_with_ale entombed; }
@test "trace --game journey_escape: identical to ALE for 3,000 frames" { compare_with_ale journey_escape; }
@test "trace --game kaboom: identical to ALE for 3,000 frames" { compare_with_ale kaboom; }
@test "trace --game koolaid: identical to ALE for 3,000 frames" { compare_with_ale koolaid; }
@test "trace --game superman: identical to ALE for 3,000 frames" { compare_with_ale superman; }
@test "trace --game tetris: identical to ALE for 3,000 frames" { compare_with_ale tetris; }
@test "trace --game trondead: identical to ALE for 3,000 frames" { compare_with_ale trondead; }
@test "trace --game crossbow: identical to ALE for 3,000 frames" { compare_with_ale crossbow; }
@test "trace --game frogger: identical to ALE for 3,000 frames" { compare_with_ale frogger; }
@test "trace --game galaxian: identical to ALE for 3,000 frames" { compare_with_ale galaxian; }
@test "trace --game pooyan: identical to ALE for 3,000 frames" { compare_with_ale pooyan; }
@test "trace --game turmoil: identical to ALE for 3,000 frames" { compare_with_ale turmoil; }
@test "trace --game mario_bros: identical to ALE for 3,000 frames" { compare_with_ale mario_bros; }
@test "trace --game haunted_house: identical to ALE for 3,000 frames" { compare_with_ale haunted_house; }
@test "trace --game othello: identical to ALE for 3,000 frames" { compare_with_ale othello; }
@test "trace --game surround: identical to ALE for 3,000 frames" { compare_with_ale surround; }
@test "trace --game et: identical to ALE for 3,000 frames" { compare_with_ale et; }
@test "trace --game keystone_kapers: identical to ALE for 3,000 frames" { compare_with_ale keystone_kapers; }
@test "trace --game laser_gates: identical to ALE for 3,000 frames" { compare_with_ale laser_gates; }
@test "trace --game sir_lancelot: identical to ALE for 3,000 frames" { compare_with_ale sir_lancelot; }
@test "trace --game air_raid: identical to ALE for 3,000 frames" { compare_with_ale air_raid; }
@test "trace --game king_kong: identical to ALE for 3,000 frames" { compare_with_ale king_kong; }
@test "trace --game mr_do: identical to ALE for 3,000 frames" { compare_with_ale mr_do; }
@test "trace --game pacman: identical to ALE for 3,000 frames" { compare_with_ale pacman; }
@test "trace --game basic_math: identical to ALE for 3,000 frames" { compare_with_ale basic_math; }
@test "trace --game flag_capture: identical to ALE for 3,000 frames" { compare_with_ale flag_capture; }
@test "trace --game human_cannonball: identical to ALE for 3,000 frames" { compare_with_ale human_cannonball; }
@test "trace --game lost_luggage: identical to ALE for 3,000 frames" { compare_with_ale lost_luggage; }
@test "trace --game space_war: identical to ALE for 3,000 frames" { compare_with_ale space_war; }

@test "trace: the parity table of the man page lists exactly the games that claim parity" {
	want=$(cule-bench games -f csv | awk -F, 'NR > 1 && $6 == "yes" { print $1 }' | sort)
	got=$(awk '/^\.Sh SUPPORTED GAMES/ { on = 1 } /^\.El/ { on = 0 }
		on && /^\.It [a-z0-9_]+ Ta / { print $2 }' "$TOP/man/man1/cule-bench.1" | sort)
	[ "$got" = "$want" ] || fail "man page: $got
games: $want"
	for g in $want; do
		grep -q "compare_with_ale $g;" "$BATS_TEST_FILENAME" || fail "no parity test for $g"
	done
}
