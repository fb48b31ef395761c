#!/usr/bin/env bats
# Parity with ALE: for every supported game, 3,000 frames of random actions
# from the minimal action set, traced by cule-bench and by ale-py
# (share/ale-trace.py), must agree on every column of every frame.  The
# ROMs come from ale-py; a game whose ROM is missing is skipped.

load helpers

FRAMES=3000

# All the games of this file, traced by cule-bench (here, one process per
# game) and by ALE (one Python process for all, to spare start-up time).
setup_file() {
	local roms games g
	python3 -c 'import ale_py' 2>/dev/null || return 0
	roms=$(python3 -c 'import ale_py, os; print(os.path.join(os.path.dirname(ale_py.__file__), "roms"))')
	games=$(sed -n 's/.*{ compare_with_ale \([a-z_]*\); }.*/\1/p' "$BATS_TEST_FILENAME")
	: > "$BATS_FILE_TMPDIR/batch"
	for g in $games; do
		[ -f "$roms/$g.bin" ] || continue
		# A failure here is reported by the game's own test.
		cule-bench trace --rom "$roms/$g.bin" --game "$g" --frames "$FRAMES" --seed 7 \
			> "$BATS_FILE_TMPDIR/$g.ours" 2> "$BATS_FILE_TMPDIR/$g.err" || continue
		tail -n +2 "$BATS_FILE_TMPDIR/$g.ours" | cut -d, -f2 > "$BATS_FILE_TMPDIR/$g.actions"
		printf '%s\t%s\t%s\n' "$roms/$g.bin" "$BATS_FILE_TMPDIR/$g.actions" \
			"$BATS_FILE_TMPDIR/$g.ale" >> "$BATS_FILE_TMPDIR/batch"
	done
	python3 "$TOP/share/ale-trace.py" --batch "$BATS_FILE_TMPDIR/batch" --seed 7 || true
}

# compare_with_ale GAME: name the first differing frame and column.
compare_with_ale() {
	local game=$1 ours="$BATS_FILE_TMPDIR/$1.ours" ale="$BATS_FILE_TMPDIR/$1.ale"
	skip_unless_python ale_py
	[ -f "$ours" ] || skip "ale-py has no ROM $game.bin"
	[ ! -s "$BATS_FILE_TMPDIR/$game.err" ] || fail "cule-bench: $(cat "$BATS_FILE_TMPDIR/$game.err")"
	[ -f "$ale" ] || fail "ale-trace.py wrote no trace for $game"
	[ "$(wc -l < "$ale")" -eq $((FRAMES + 1)) ] || fail "ale-trace.py wrote $(wc -l < "$ale") lines"
	[ "$(wc -l < "$ours")" -eq $((FRAMES + 1)) ] || fail "cule-bench wrote $(wc -l < "$ours") lines"
	if ! cmp -s "$ours" "$ale"; then
		paste -d'\n' "$ours" "$ale" | awk -F, '
			NR % 2 == 1 { split($0, a, ","); next }
			{ n = split($0, b, ",")
			  split("frame,action,reward,terminal,lives,ram,screen_md5", col, ",")
			  for (i = 1; i <= n; i++) if (a[i] != b[i]) {
				print "first difference: frame " b[1] ", column " col[i] ": ours " a[i] ", ALE " b[i]
				exit } }'
		fail "$game differs from ALE"
	fi
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

@test "trace: the parity table of the man page lists exactly the games that claim parity" {
	want=$(cule-bench games -f csv | awk -F, 'NR > 1 && $6 == "yes" { print $1 }' | sort)
	got=$(awk '/^\.Sh SUPPORTED GAMES/ { on = 1 } /^\.El/ { on = 0 }
		on && /^\.It [a-z_]+ Ta / { print $2 }' "$TOP/man/man1/cule-bench.1" | sort)
	[ "$got" = "$want" ] || fail "man page: $got
games: $want"
	for g in $want; do
		grep -q "compare_with_ale $g;" "$BATS_TEST_FILENAME" || fail "no parity test for $g"
	done
}
