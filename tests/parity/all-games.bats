#!/usr/bin/env bats
# Parity with ALE for every supported game, one test each (make
# check-parity; make check runs a slice: tests/31-cule-bench-parity.bats),
# and with multi-agent ALE for the four games that are its (make check
# replays its committed traces: tests/35-cule-bench-multi-agent.bats).
# A game whose ROM ale-py lacks is skipped, saying so.

load ../helpers
load ../parity

export RLKIT_PARITY=all

setup_file() {
	parity_setup_file
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
@test "trace --game hangman: identical to ALE for 3,000 frames" { compare_with_ale hangman; }
@test "trace --game tic_tac_toe_3d: identical to ALE for 3,000 frames" { compare_with_ale tic_tac_toe_3d; }
@test "trace --game video_chess: identical to ALE for 3,000 frames" { compare_with_ale video_chess; }
@test "trace --game casino: identical to ALE for 3,000 frames" { compare_with_ale casino; }
@test "trace --game backgammon: identical to ALE for 3,000 frames" { compare_with_ale backgammon; }
@test "trace --game video_checkers: identical to ALE for 3,000 frames" { compare_with_ale video_checkers; }
@test "trace --game adventure: identical to ALE for 3,000 frames" { compare_with_ale adventure; }
@test "trace --game word_zapper: identical to ALE for 3,000 frames" { compare_with_ale word_zapper; }
@test "trace --game video_cube: identical to ALE for 3,000 frames" { compare_with_ale video_cube; }
@test "trace --game klax: identical to ALE for 3,000 frames" { compare_with_ale klax; }
@test "trace --game double_dunk: identical to ALE for 3,000 frames" { compare_with_ale double_dunk; }
@test "trace --game pitfall2: identical to ALE for 3,000 frames" { compare_with_ale pitfall2; }
@test "trace --game miniature_golf: identical to ALE for 3,000 frames" { compare_with_ale miniature_golf; }

# The games whose reference is multi-agent ALE: traced live (when
# multi-agent-ale-py is installed), compared with cule-bench and with the
# committed traces that make check replays (tests/35-cule-bench-multi-agent.bats).
@test "trace --game combat: identical to multi-agent ALE, live" { compare_with_multi_agent combat; }
@test "trace --game joust: identical to multi-agent ALE, live" { compare_with_multi_agent joust; }
@test "trace --game maze_craze: identical to multi-agent ALE, live" { compare_with_multi_agent maze_craze; }
@test "trace --game warlords: identical to multi-agent ALE, live" { compare_with_multi_agent warlords; }

@test "trace: the parity table of the man page lists exactly the games that claim parity" {
	want=$(cule-bench games -f csv | awk -F, 'NR > 1 && $6 == "yes" { print $1 }' | sort)
	got=$(awk '/^\.Sh SUPPORTED GAMES/ { on = 1 } /^\.El/ { on = 0 }
		on && /^\.It [a-z0-9_]+ Ta / { print $2 }' "$TOP/man/man1/cule-bench.1" | sort)
	[ "$got" = "$want" ] || fail "man page: $got
games: $want"
	for g in $want; do
		grep -q "compare_with_ale $g;\|compare_with_multi_agent $g;" "$BATS_TEST_FILENAME" ||
			fail "no parity test for $g"
	done
}
