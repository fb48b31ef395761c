/*
 * The games: ALE's settings for each ROM it supports (atari/game.h), one
 * entry each, named fields over the defaults of GAME(), and the host-side
 * queries on them (by name, by MD5, modes, difficulties).  Host code only:
 * device code gets a copy of one entry (atari/cuda/plugin.cu).
 */
#include <string.h>

#include "atari/game.h"
#include "atari/game_int.h"

#define A(x) (1u << ATARI_##x)
#define ALL_ACTIONS ((1u << ATARI_ACTIONS) - 1)
#define FIRE_ACTIONS (A(FIRE) | A(UPFIRE) | A(RIGHTFIRE) | A(LEFTFIRE) | A(DOWNFIRE) | \
		      A(UPRIGHTFIRE) | A(UPLEFTFIRE) | A(DOWNRIGHTFIRE) | A(DOWNLEFTFIRE))
/* NOOP to DOWNLEFT: the joystick without the button. */
#define MOVE_ACTIONS ((1u << ATARI_UPFIRE) - 1)
/* Difficulty sets: bit d for difficulty d. */
#define D0 1u
#define D01 3u
#define D02 5u
#define D0123 15u
#define D023 13u
#define D03 9u
#define D012 7u
#define D3 8u
/* Mode m in started_modes. */
#define M(m) (1u << (m))

/* Mode lists (ALE's getAvailableModes; the first is the default). */
static const uint16_t modes_air_raid[] = { 1, 2, 3, 4, 5, 6, 7, 8 };
static const uint16_t modes_crossbow[] = { 0, 2, 4, 6 };
static const uint16_t modes_galaxian[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9 };
static const uint16_t modes_pooyan[] = { 10, 30, 50, 70 };
static const uint16_t modes_m012[] = { 0, 1, 2 };
static const uint16_t modes_m02[] = { 0, 2 };
static const uint16_t modes_m0123[] = { 0, 1, 2, 3 };
static const uint16_t modes_m0246[] = { 0, 2, 4, 6 };
static const uint16_t modes_m0to7[] = { 0, 1, 2, 3, 4, 5, 6, 7 };
static const uint16_t modes_m0to8[] = { 0, 1, 2, 3, 4, 5, 6, 7, 8 };
static const uint16_t modes_basic_math[] = { 5, 6, 7, 8 };
static const uint16_t modes_flag_capture[] = { 8, 9, 10 };
static const uint16_t modes_m01[] = { 0, 1 };
static const uint16_t modes_m0[] = { 0 };
static const uint16_t modes_m0to4[] = { 0, 1, 2, 3, 4 };
static const uint16_t modes_casino[] = { 0, 2, 3 };
static const uint16_t modes_video_checkers[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 11, 12, 13, 14, 15, 16,
						17, 18, 19 };
static const uint16_t modes_m0to23[] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
					16, 17, 18, 19, 20, 21, 22, 23 };
static const uint16_t modes_m0to15[] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15 };
static const uint16_t modes_space_war[] = { 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17 };
/* Video Cube: variations 0-2 of cube 1, then of each cube c as c * 100 + variation. */
#define CUBE(c) (c) * 100, (c) * 100 + 1, (c) * 100 + 2
#define CUBES10(t) CUBE(t##0), CUBE(t##1), CUBE(t##2), CUBE(t##3), CUBE(t##4), \
		   CUBE(t##5), CUBE(t##6), CUBE(t##7), CUBE(t##8), CUBE(t##9)
static const uint16_t modes_video_cube[] = { 0, 1, 2, CUBE(1), CUBE(2), CUBE(3), CUBE(4),
	CUBE(5), CUBE(6), CUBE(7), CUBE(8), CUBE(9), CUBES10(1), CUBES10(2), CUBES10(3),
	CUBES10(4), CUBE(50) };
static const uint16_t modes_pong[] = { 0, 1 };
static const uint16_t modes_breakout[] = { 0, 4, 8, 12, 16, 20, 24, 28, 32, 36, 40, 44 };
static const uint16_t modes_space_invaders[] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15 };
static const uint16_t modes_freeway[] = { 0, 1, 2, 3, 4, 5, 6, 7 };
static const uint16_t modes_asteroids[] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 128 };
static const uint16_t modes_atlantis[] = { 0, 1, 2, 3 };
static const uint16_t modes_frostbite[] = { 0, 2 };
static const uint16_t modes_bank_heist[] = { 0, 4, 8, 12, 16, 20, 24, 28 };
static const uint16_t modes_centipede[] = { 22, 86 };
static const uint16_t modes_chopper_command[] = { 0, 2 };
static const uint16_t modes_gopher[] = { 0, 2 };
static const uint16_t modes_hero[] = { 0, 1, 2, 3, 4 };
static const uint16_t modes_crazy_climber[] = { 0, 1, 2, 3 };
static const uint16_t modes_star_gunner[] = { 0, 1, 2, 3 };
static const uint16_t modes_battle_zone[] = { 1, 2, 3 };
static const uint16_t modes_private_eye[] = { 0, 1, 2, 3, 4 };
static const uint16_t modes_tutankham[] = { 0, 4, 8, 12 };
static const uint16_t modes_video_pinball[] = { 0, 2 };
static const uint16_t modes_berzerk[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 16, 17, 18 };
static const uint16_t modes_defender[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 16 };
static const uint16_t modes_ice_hockey[] = { 0, 2 };
static const uint16_t modes_name_this_game[] = { 8, 24, 40 };
static const uint16_t modes_yars_revenge[] = { 0, 32, 64, 96 };
static const uint16_t modes_tennis[] = { 0, 2 };
static const uint16_t modes_demon_attack[] = { 1, 3, 5, 7 };
static const uint16_t modes_bowling[] = { 0, 2, 4 };
static const uint16_t modes_zaxxon[] = { 0, 8, 16, 24 };
static const uint16_t modes_combat[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16,
					 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27 };
static const uint16_t modes_joust[] = { 0, 2, 1, 3 };
static const uint16_t modes_maze_craze[] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14,
					     15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27,
					     28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40,
					     41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53,
					     54, 55, 56, 57, 58, 59, 60, 61, 62, 63 };
static const uint16_t modes_warlords[] = { 4, 9, 14, 19, 3, 5, 8, 10, 13, 15, 18, 20, 23,
					   1, 6, 11, 16, 21 };
/* The modes' RAM values where the formula does not hold, in modes[] order. */
static const uint8_t mode_values_ms_pacman[] = { 1, 1, 2, 3 };
static const uint8_t mode_values2_ms_pacman[] = { 1, 0, 0, 0 };
static const uint8_t mode_values_video_checkers[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 17, 18, 19, 20,
						      21, 22, 23, 24, 25 };
#define CUBE_V 0, 2, 8
#define CUBE_V10 CUBE_V, CUBE_V, CUBE_V, CUBE_V, CUBE_V, CUBE_V, CUBE_V, CUBE_V, CUBE_V, CUBE_V
static const uint8_t mode_values_video_cube[] = { CUBE_V, CUBE_V, CUBE_V, CUBE_V, CUBE_V,
	CUBE_V, CUBE_V, CUBE_V, CUBE_V, CUBE_V, CUBE_V10, CUBE_V10, CUBE_V10, CUBE_V10, CUBE_V };

#define COUNT(a) ((int)(sizeof(a) / sizeof((a)[0])))
/* A mode list (the default mode is its first), and its RAM values. */
#define MODES(n) .modes = modes_##n, .n_modes = COUNT(modes_##n)
#define MODE_VALUES(n) .mode_values = mode_values_##n
_Static_assert(COUNT(mode_values_ms_pacman) == COUNT(modes_m0123), "one value per mode");
_Static_assert(COUNT(mode_values2_ms_pacman) == COUNT(modes_m0123), "one value per mode");
_Static_assert(COUNT(mode_values_video_checkers) == COUNT(modes_video_checkers),
	       "one value per mode");
_Static_assert(COUNT(mode_values_video_cube) == COUNT(modes_video_cube), "one value per mode");

/* MD5 of share/roms/catch.bin as the build assembles it (a test checks it). */
#define CATCH_MD5 "0d86d32974ce16f76406c387ec5b95e1"

/*
 * An entry: its name, title, MD5 and id, then the fields that differ from
 * these defaults: a joystick, ALE's TV format detection (60 frames), the
 * display window of lines 34-243, no mode selection, verified against
 * ale-py, and the reset values most games have.  A field named again in
 * the entry replaces its default (hence the pragma: C allows it, the
 * warning is about mistakes).
 */
#define GAME(nm, ttl, hash, gid) \
	.name = nm, .title = ttl, .md5 = hash, .id = gid, .controller = ATARI_JOYSTICK, \
	.power_on_frames = 60, .ystart = 34, .height = 210, .mode_addr = -1, .mode_addr2 = -1, \
	.verified = 1, .reference = ATARI_REF_ALE, .last_lives_at_reset = 2, .mode_mask = 0xff

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Woverride-init"
const struct atari_game atari_games[] = {
	{ GAME("unknown", "Unknown ROM",
	       "", G_UNKNOWN), .minimal = ALL_ACTIONS, .verified = 0 },
	{ GAME("pong", "Video Olympics (Pong)", "60e0ea3cbe0913d39803477945e9e5ec", G_PONG),
	  .controller = ATARI_PADDLES_SWAPPED, .right_paddles = 1,
	  .minimal = A(NOOP) | A(FIRE) | A(RIGHT) | A(LEFT) | A(RIGHTFIRE) | A(LEFTFIRE),
	  .mode_addr = 0x96, .select_frames = 2, MODES(pong), .mode_mul = 1,
	  .difficulties = D0123 },
	{ GAME("breakout", "Breakout", "f34f08e5eb96e500e851a80be3277a56", G_BREAKOUT),
	  .controller = ATARI_PADDLES, .right_paddles = 1,
	  .minimal = A(NOOP) | A(FIRE) | A(RIGHT) | A(LEFT), .lives_at_reset = 5,
	  .mode_addr = 0xb2, .select_frames = 1, MODES(breakout), .mode_mul = 1,
	  .difficulties = D01 },
	{ GAME("space_invaders", "Space Invaders",
	       "72ffbef6504b75e69ee1045af9075f66", G_SPACE_INVADERS),
	  .minimal = A(NOOP) | A(FIRE) | A(RIGHT) | A(LEFT) | A(RIGHTFIRE) | A(LEFTFIRE),
	  .lives_at_reset = 3, .mode_addr = 0xdc, .select_frames = 2, MODES(space_invaders),
	  .mode_mul = 1, .difficulties = D01 },
	{ GAME("seaquest", "Seaquest", "240bfbac5163af4df5ae713985386f92", G_SEAQUEST),
	  .minimal = ALL_ACTIONS, .lives_at_reset = 4, .difficulties = D01 },
	{ GAME("qbert", "Q*bert", "484b0076816a104875e00467d431c2d2", G_QBERT),
	  .ystart = 40, .height = 210,
	  .minimal = A(NOOP) | A(FIRE) | A(UP) | A(RIGHT) | A(LEFT) | A(DOWN),
	  .lives_at_reset = 4, .difficulties = D01 },
	{ GAME("beam_rider", "Beamrider", "79ab4123a83dc11d468fb2108ea09e2e", G_BEAM_RIDER),
	  .minimal = A(NOOP) | A(FIRE) | A(UP) | A(RIGHT) | A(LEFT) | A(UPRIGHT) | A(UPLEFT) |
	    A(RIGHTFIRE) | A(LEFTFIRE), .start_action = ATARI_RIGHT, .n_start_actions = 1,
	  .lives_at_reset = 3, .difficulties = D01 },
	{ GAME("enduro", "Enduro", "94b92a882f6dbaa6993a46e2dcc58402", G_ENDURO),
	  .minimal = A(NOOP) | A(FIRE) | A(RIGHT) | A(LEFT) | A(DOWN) | A(DOWNRIGHT) |
	    A(DOWNLEFT) | A(RIGHTFIRE) | A(LEFTFIRE),
	  .start_action = ATARI_FIRE, .n_start_actions = 1 },
	/* Ms. Pac-Man: mode 0 is game 1 in variation 1 ($A1), modes 1-3 games
	 * 1-3 in variation 0. */
	{ GAME("ms_pacman", "Ms. Pac-Man", "87e79cd41ce136fd4f72cc6e2c161bee", G_MS_PACMAN),
	  .minimal = A(NOOP) | A(UP) | A(RIGHT) | A(LEFT) | A(DOWN) | A(UPRIGHT) | A(UPLEFT) |
	    A(DOWNRIGHT) | A(DOWNLEFT), .lives_at_reset = 3, .mode_addr = 0x99,
	  .mode_addr2 = 0xa1, .select_frames = 10, MODES(m0123),
	  MODE_VALUES(ms_pacman), .mode_values2 = mode_values2_ms_pacman, .no_hmove_blanks = 1 },
	{ GAME("asterix", "Asterix", "89a68746eff7f266bbf08de2483abe55", G_ASTERIX),
	  .minimal = A(NOOP) | A(UP) | A(RIGHT) | A(LEFT) | A(DOWN) | A(UPRIGHT) | A(UPLEFT) |
	    A(DOWNRIGHT) | A(DOWNLEFT), .start_action = ATARI_FIRE, .n_start_actions = 1,
	  .lives_at_reset = 3 },
	{ GAME("boxing", "Boxing", "c3ef5c4653212088eda54dc91d787870", G_BOXING),
	  .minimal = ALL_ACTIONS, .difficulties = D0123 },
	{ GAME("freeway", "Freeway", "8e0ab801b1705a740b476b7f588c6d16", G_FREEWAY),
	  .minimal = A(NOOP) | A(UP) | A(DOWN), .mode_addr = 0x80, .select_frames = 1,
	  MODES(freeway), .mode_mul = 1, .difficulties = D01 },
	{ GAME("asteroids", "Asteroids", "ccbd36746ed4525821a8083b0d6d2c2c", G_ASTEROIDS),
	  .minimal = ALL_ACTIONS & ~(A(DOWNRIGHT) | A(DOWNLEFT) | A(DOWNRIGHTFIRE) |
	    A(DOWNLEFTFIRE)), .lives_at_reset = 4, .mode_addr = 0x80, .select_frames = 2,
	  MODES(asteroids), .mode_mul = 1, .difficulties = D03, .no_hmove_blanks = 1 },
	{ GAME("atlantis", "Atlantis", "9ad36e699ef6f45d9eb6c4cf90475c9f", G_ATLANTIS),
	  .minimal = A(NOOP) | A(FIRE) | A(RIGHTFIRE) | A(LEFTFIRE), .lives_at_reset = 6,
	  .mode_addr = 0x8d, .select_frames = 2, MODES(atlantis), .mode_mul = 1,
	  .difficulties = D0 },
	{ GAME("frostbite", "Frostbite", "4ca73eb959299471788f0b685c3ba0b5", G_FROSTBITE),
	  .minimal = ALL_ACTIONS, .lives_at_reset = 4, .mode_addr = 0x80, .select_frames = 1,
	  MODES(frostbite), .mode_mul = 1, .difficulties = D0 },
	{ GAME("montezuma_revenge", "Montezuma's Revenge",
	       "3347a6dd59049b15a38394aa2dafa585", G_MONTEZUMA),
	  .minimal = ALL_ACTIONS, .lives_at_reset = 6 },
	/* The project's own game (share/roms/catch.asm): no ALE reference. */
	{ GAME("catch", "Catch (rlkit homebrew)", CATCH_MD5, G_HOMEBREW),
	  .minimal = A(NOOP) | A(RIGHT) | A(LEFT), .lives_at_reset = 3, .verified = -1 },
	{ GAME("amidar", "Amidar", "acb7750b4d0c4bd34969802a7deb2990", G_AMIDAR),
	  .minimal = A(NOOP) | A(FIRE) | A(UP) | A(RIGHT) | A(LEFT) | A(DOWN) | A(UPFIRE) |
	    A(RIGHTFIRE) | A(LEFTFIRE) | A(DOWNFIRE), .lives_at_reset = 3, .difficulties = D03 },
	{ GAME("assault", "Assault", "de78b3a064d374390ac0710f95edde92", G_ASSAULT),
	  .minimal = A(NOOP) | A(FIRE) | A(UP) | A(RIGHT) | A(LEFT) | A(RIGHTFIRE) |
	    A(LEFTFIRE), .lives_at_reset = 4 },
	{ GAME("krull", "Krull", "4baada22435320d185c95b7dd2bcdb24", G_KRULL),
	  .minimal = ALL_ACTIONS, .lives_at_reset = 3 },
	{ GAME("kung_fu_master", "Kung-Fu Master",
	       "5b92a93b23523ff16e2789b820e2a4c5", G_KUNG_FU_MASTER),
	  .minimal = ALL_ACTIONS & ~(A(FIRE) | A(UPRIGHT) | A(UPLEFT) | A(UPFIRE)),
	  .lives_at_reset = 4 },
	{ GAME("phoenix", "Phoenix", "7e52a95074a66640fcfde124fffd491a", G_PHOENIX),
	  .minimal = A(NOOP) | A(FIRE) | A(RIGHT) | A(LEFT) | A(DOWN) | A(RIGHTFIRE) |
	    A(LEFTFIRE) | A(DOWNFIRE), .lives_at_reset = 5 },
	{ GAME("riverraid", "River Raid", "393948436d1f4cc3192410bb918f9724", G_RIVERRAID),
	  .minimal = ALL_ACTIONS, .lives_at_reset = 4, .last_lives_at_reset = 0x58,
	  .difficulties = D01 },
	{ GAME("road_runner", "Road Runner", "ce5cc62608be2cd3ed8abd844efb8919", G_ROAD_RUNNER),
	  .minimal = ALL_ACTIONS, .lives_at_reset = 3 },
	{ GAME("robotank", "Robot Tank", "4f618c2429138e0280969193ed6c107e", G_ROBOTANK),
	  .minimal = ALL_ACTIONS, .lives_at_reset = 4 },
	{ GAME("fishing_derby", "Fishing Derby",
	       "b8865f05676e64f3bec72b9defdacfa7", G_FISHING_DERBY),
	  .minimal = ALL_ACTIONS, .difficulties = D0123 },
	{ GAME("pitfall", "Pitfall!", "3e90cf23106f2e08b2781e41299de556", G_PITFALL),
	  .minimal = ALL_ACTIONS, .start_action = ATARI_UP, .n_start_actions = 1,
	  .lives_at_reset = 3, .score_at_reset = 2000 },
	{ GAME("skiing", "Skiing", "b76fbadc8ffb1f83e2ca08b6fb4d6c9f", G_SKIING),
	  .minimal = A(NOOP) | A(RIGHT) | A(LEFT), .illegal = FIRE_ACTIONS,
	  .start_action = ATARI_DOWN, .n_start_actions = 16 },
	{ GAME("solaris", "Solaris", "e72eb8d4410152bdcb69e7fba327b420", G_SOLARIS),
	  .minimal = ALL_ACTIONS, .lives_at_reset = 3 },
	{ GAME("time_pilot", "Time Pilot", "fc2104dd2dadf9a6176c1c1c8f87ced9", G_TIME_PILOT),
	  .minimal = A(NOOP) | A(FIRE) | A(UP) | A(RIGHT) | A(LEFT) | A(DOWN) | A(UPFIRE) |
	    A(RIGHTFIRE) | A(LEFTFIRE) | A(DOWNFIRE), .lives_at_reset = 5, .difficulties = D012 },
	{ GAME("up_n_down", "Up'n Down", "a499d720e7ee35c62424de882a3351b6", G_UP_N_DOWN),
	  .ystart = 30, .height = 210,
	  .minimal = A(NOOP) | A(FIRE) | A(UP) | A(DOWN) | A(UPFIRE) | A(DOWNFIRE),
	  .start_action = ATARI_FIRE, .n_start_actions = 1, .lives_at_reset = 5,
	  .difficulties = D0123 },
	{ GAME("venture", "Venture", "3e899eba0ca8cd2972da1ae5479b4f0d", G_VENTURE),
	  .minimal = ALL_ACTIONS, .lives_at_reset = 4, .difficulties = D0123 },
	{ GAME("wizard_of_wor", "Wizard of Wor",
	       "7e8aa18bc9502eb57daaf5e7c1e94da7", G_WIZARD_OF_WOR),
	  .minimal = A(NOOP) | A(FIRE) | A(UP) | A(RIGHT) | A(LEFT) | A(DOWN) | A(UPFIRE) |
	    A(RIGHTFIRE) | A(LEFTFIRE) | A(DOWNFIRE), .lives_at_reset = 3, .difficulties = D01,
	  .swap_ports = 1 },
	{ GAME("alien", "Alien", "f1a0a23e6464d954e3a9579c4ccd01c8", G_ALIEN),
	  .minimal = ALL_ACTIONS, .lives_at_reset = 3, .mode_addr = 0x81, .select_frames = 1,
	  MODES(m0123), .mode_mul = 1, .difficulties = D0123 },
	{ GAME("bank_heist", "Bank Heist", "00ce0bdd43aed84a983bef38fe7f5ee3", G_BANK_HEIST),
	  .minimal = ALL_ACTIONS, .lives_at_reset = 5, .mode_addr = 0x80, .select_frames = 1,
	  MODES(bank_heist), .mode_mul = 1, .difficulties = D0123 },
	{ GAME("centipede", "Centipede", "91c2098e88a6b13f977af8c003e0bca5", G_CENTIPEDE),
	  .minimal = ALL_ACTIONS, .lives_at_reset = 3, .mode_addr = 0xa7, .mode_value = 22,
	  .select_frames = 2, MODES(centipede), .mode_mul = 1, .difficulties = D0 },
	{ GAME("chopper_command", "Chopper Command",
	       "c1cb228470a87beb5f36e90ac745da26", G_CHOPPER_COMMAND),
	  .minimal = ALL_ACTIONS, .lives_at_reset = 3, .mode_addr = 0xe0, .select_frames = 2,
	  MODES(chopper_command), .mode_mul = 1, .difficulties = D01 },
	{ GAME("demon_attack", "Demon Attack",
	       "f0e0addc07971561ab80d9abe1b8d333", G_DEMON_ATTACK),
	  .minimal = A(NOOP) | A(FIRE) | A(RIGHT) | A(LEFT) | A(RIGHTFIRE) | A(LEFTFIRE),
	  .lives_at_reset = 4, .mode_addr = 0xea, .mode_value = 1, .select_frames = 1,
	  MODES(demon_attack), .mode_mul = 1, .started_modes = M(1) | M(3) | M(5) | M(7),
	  .difficulties = D01 },
	{ GAME("gopher", "Gopher", "c16c79aad6272baffb8aae9a7fff0864", G_GOPHER),
	  .minimal = A(NOOP) | A(FIRE) | A(UP) | A(RIGHT) | A(LEFT) | A(UPFIRE) | A(RIGHTFIRE) |
	    A(LEFTFIRE), .start_action = ATARI_FIRE, .n_start_actions = 1, .lives_at_reset = 3,
	  .mode_addr = 0xd3, .select_frames = 5, .mode_soft_first = 1, MODES(gopher),
	  .mode_mul = 1, .difficulties = D01 },
	{ GAME("hero", "H.E.R.O.", "fca4a5be1251927027f2c24774a02160", G_HERO),
	  .minimal = ALL_ACTIONS, .lives_at_reset = 4, .mode_addr = 0x80, .select_frames = 1,
	  MODES(hero), .mode_mul = 1, .difficulties = D0 },
	/* James Bond and Kangaroo show their mode with an offset on the title screen:
	 * either value will do (mode_addr2 == mode_addr). */
	{ GAME("jamesbond", "James Bond 007", "e51030251e440cffaab1ac63438b44ae", G_JAMESBOND),
	  .minimal = ALL_ACTIONS, .lives_at_reset = 6, .mode_addr = 0x8c,
	  .mode_addr2 = 0x8c, .mode_value2 = 72, .select_frames = 20, MODES(m01), .mode_mul = 1,
	  .difficulties = D0 },
	{ GAME("kangaroo", "Kangaroo", "4326edb70ff20d0ee5ba58fa5cb09d60", G_KANGAROO),
	  .minimal = ALL_ACTIONS, .lives_at_reset = 3, .mode_addr = 0xba,
	  .mode_addr2 = 0xba, .mode_value2 = 0x80, .select_frames = 2, MODES(m01),
	  .mode_mul = 1, .difficulties = D0 },
	{ GAME("gravitar", "Gravitar", "8ac18076d01a6b63acf6e2cab4968940", G_GRAVITAR),
	  .minimal = ALL_ACTIONS, .start_action = ATARI_FIRE, .n_start_actions = 16,
	  .lives_at_reset = 6, .mode_addr = 0x80, .select_frames = 10, MODES(m0to4),
	  .mode_mul = 1, .difficulties = D0 },
	{ GAME("crazy_climber", "Crazy Climber",
	       "55ef7b65066428367844342ed59f956c", G_CRAZY_CLIMBER),
	  .minimal = A(NOOP) | A(UP) | A(RIGHT) | A(LEFT) | A(DOWN) | A(UPRIGHT) | A(UPLEFT) |
	    A(DOWNRIGHT) | A(DOWNLEFT), .lives_at_reset = 5, .mode_addr = 0x80,
	  .select_frames = 2, MODES(crazy_climber), .mode_mul = 1, .difficulties = D01 },
	{ GAME("star_gunner", "Star Gunner", "a3c1c70024d7aabb41381adbfb6d3b25", G_STAR_GUNNER),
	  .minimal = ALL_ACTIONS, .lives_at_reset = 5, .mode_addr = 0xf4, .select_frames = 15,
	  MODES(star_gunner), .mode_mul = 1, .difficulties = D0 },
	{ GAME("battle_zone", "Battle Zone", "41f252a66c6301f1e8ab3612c19bc5d4", G_BATTLE_ZONE),
	  .minimal = ALL_ACTIONS, .lives_at_reset = 5, .mode_addr = 0xa1, .mode_value = 1,
	  .select_frames = 2, MODES(battle_zone), .mode_mul = 1, .difficulties = D0,
	  .no_hmove_blanks = 1 },
	{ GAME("bowling", "Bowling", "c9b7afad3bfd922e006a6bfc1d4f3fe7", G_BOWLING),
	  .minimal = A(NOOP) | A(FIRE) | A(UP) | A(DOWN) | A(UPFIRE) | A(DOWNFIRE),
	  .mode_addr = 0x2, .select_frames = 2, MODES(bowling), .mode_mul = 1,
	  .difficulties = D01 },
	{ GAME("private_eye", "Private Eye", "ef3a4f64b6494ba770862768caf04b86", G_PRIVATE_EYE),
	  .minimal = ALL_ACTIONS, .start_action = ATARI_UP, .n_start_actions = 1,
	  .score_at_reset = 1000, .mode_addr = 0x80, .select_frames = 2, MODES(private_eye),
	  .mode_mul = 1, .difficulties = D0123 },
	{ GAME("tutankham", "Tutankham", "085322bae40d904f53bdcc56df0593fc", G_TUTANKHAM),
	  .minimal = A(NOOP) | A(UP) | A(RIGHT) | A(LEFT) | A(DOWN) | A(UPFIRE) | A(RIGHTFIRE) |
	    A(LEFTFIRE), .lives_at_reset = 3, .mode_addr = 0xab, .select_frames = 2,
	  MODES(tutankham), .mode_mul = 1, .difficulties = D0 },
	{ GAME("zaxxon", "Zaxxon", "eea0da9b987d661264cce69a7c13c3bd", G_ZAXXON),
	  .minimal = ALL_ACTIONS, .lives_at_reset = 5, .mode_addr = 0x82, .select_frames = 10,
	  MODES(zaxxon), .mode_mul = 1, .difficulties = D0 },
	{ GAME("video_pinball", "Video Pinball",
	       "107cc025334211e6d29da0b6be46aec7", G_VIDEO_PINBALL),
	  .minimal = A(NOOP) | A(FIRE) | A(UP) | A(RIGHT) | A(LEFT) | A(DOWN) | A(UPFIRE) |
	    A(RIGHTFIRE) | A(LEFTFIRE), .lives_at_reset = 3, .mode_addr = 0xc1,
	  .select_frames = 2, MODES(video_pinball), .mode_mul = 1, .difficulties = D01 },
	{ GAME("berzerk", "Berzerk", "136f75c4dd02c29283752b7e5799f978", G_BERZERK),
	  .minimal = ALL_ACTIONS, .lives_at_reset = 3, .mode_addr = 0x80, .mode_value = 1,
	  .select_frames = 2, .mode_soft_first = 20 << 8 | 0, MODES(berzerk), .mode_mul = 1,
	  .difficulties = D0 },
	{ GAME("defender", "Defender", "0f643c34e40e3f1daafd9c524d3ffe64", G_DEFENDER),
	  .minimal = ALL_ACTIONS, .lives_at_reset = 3, .mode_addr = 0x9b, .mode_value = 1,
	  .select_frames = 2, MODES(defender), .mode_mul = 1, .difficulties = D01 },
	{ GAME("ice_hockey", "Ice Hockey", "a4c08c4994eb9d24fb78be1793e82e26", G_ICE_HOCKEY),
	  .minimal = ALL_ACTIONS, .mode_addr = 0x80, .select_frames = 2, MODES(ice_hockey),
	  .mode_mul = 1, .difficulties = D0123 },
	{ GAME("name_this_game", "Name This Game",
	       "36306070f0c90a72461551a7a4f3a209", G_NAME_THIS_GAME),
	  .minimal = A(NOOP) | A(FIRE) | A(RIGHT) | A(LEFT) | A(RIGHTFIRE) | A(LEFTFIRE),
	  .lives_at_reset = 3, .mode_addr = 0xde, .mode_value = 8, .select_frames = 2,
	  MODES(name_this_game), .mode_mul = 1, .difficulties = D01 },
	{ GAME("yars_revenge", "Yars' Revenge",
	       "c5930d0e8cdae3e037349bfa08e871be", G_YARS_REVENGE),
	  .minimal = ALL_ACTIONS, .start_action = ATARI_FIRE, .n_start_actions = 1,
	  .lives_at_reset = 4, .mode_addr = 0xe3, .select_frames = 1, .mode_soft_first = 2,
	  MODES(yars_revenge), .mode_mul = 1, .difficulties = D01 },
	{ GAME("tennis", "Tennis", "42cdd6a9e42a3639e190722b8ea3fc51", G_TENNIS),
	  .minimal = ALL_ACTIONS, .last_lives_at_reset = 0, .mode_addr = 0x80,
	  .select_frames = 2, MODES(tennis), .mode_mul = 1, .difficulties = D0123 },
	{ GAME("atlantis2", "Atlantis II", "826481f6fc53ea47c9f272f7050eedf7", G_ATLANTIS2),
	  .minimal = A(NOOP) | A(FIRE) | A(RIGHTFIRE) | A(LEFTFIRE), .difficulties = D0 },
	{ GAME("blackjack", "Blackjack", "0a981c03204ac2b278ba392674682560", G_BLACKJACK),
	  .controller = ATARI_PADDLES, .minimal = A(NOOP) | A(FIRE) | A(UP) | A(DOWN),
	  .lives_at_reset = 1, .difficulties = D0123, .paddle_max = 795000 },
	{ GAME("carnival", "Carnival", "028024fb8e5e5f18ea586652f9799c96", G_CARNIVAL),
	  .ystart = 26, .height = 214,
	  .minimal = A(NOOP) | A(FIRE) | A(RIGHT) | A(LEFT) | A(RIGHTFIRE) | A(LEFTFIRE),
	  .difficulties = D0 },
	{ GAME("darkchambers", "Dark Chambers",
	       "106855474c69d08c8ffa308d47337269", G_DARKCHAMBERS),
	  .minimal = ALL_ACTIONS, .start_action = ATARI_NOOP, .n_start_actions = 486,
	  .lives_at_reset = 1, .last_lives_at_reset = 0, .difficulties = D0,
	  .no_hmove_blanks = 1 },
	{ GAME("donkey_kong", "Donkey Kong", "36b20c427975760cb9cf4a47e41369e4", G_DONKEY_KONG),
	  .minimal = ALL_ACTIONS, .lives_at_reset = 2, .difficulties = D0 },
	{ GAME("earthworld", "SwordQuest: EarthWorld",
	       "5aea9974b975a6a844e6df10d2b861c4", G_EARTHWORLD),
	  .minimal = ALL_ACTIONS, .lives_at_reset = 1, .difficulties = D0 },
	{ GAME("elevator_action", "Elevator Action",
	       "71f8bacfbdca019113f3f0801849057e", G_ELEVATOR_ACTION),
	  .minimal = ALL_ACTIONS, .start_action = ATARI_FIRE, .n_start_actions = 16,
	  .lives_at_reset = 4, .difficulties = D0 },
	{ GAME("entombed", "Entombed", "6b683be69f92958abe0e2a9945157ad5", G_ENTOMBED),
	  .minimal = ALL_ACTIONS, .start_action = ATARI_FIRE, .n_start_actions = 1,
	  .start_action2 = ATARI_NOOP, .n_start_actions2 = 5, .lives_at_reset = 1,
	  .difficulties = D02 },
	{ GAME("journey_escape", "Journey Escape",
	       "718ae62c70af4e5fd8e932fee216948a", G_JOURNEY_ESCAPE),
	  .ystart = 34, .height = 230, .minimal = ALL_ACTIONS & ~(A(FIRE) | A(UPFIRE)),
	  .start_action = ATARI_FIRE, .n_start_actions = 1, .difficulties = D01 },
	{ GAME("kaboom", "Kaboom!", "5428cdfada281c569c74c7308c7f2c26", G_KABOOM),
	  .controller = ATARI_PADDLES, .minimal = A(NOOP) | A(FIRE) | A(RIGHT) | A(LEFT),
	  .start_action = ATARI_FIRE, .n_start_actions = 1, .lives_at_reset = 1,
	  .difficulties = D0 },
	{ GAME("keystone_kapers", "Keystone Kapers",
	       "6c1f3f2e359dbf55df462ccbcdd2f6bf", G_KEYSTONE_KAPERS),
	  .minimal = ALL_ACTIONS & ~(A(UPRIGHTFIRE) | A(UPLEFTFIRE) | A(DOWNRIGHTFIRE) |
	    A(DOWNLEFTFIRE)), .start_action = ATARI_RESET, .n_start_actions = 1,
	  .lives_at_reset = 3, .difficulties = D0 },
	{ GAME("koolaid", "Kool-Aid Man", "534e23210dd1993c828d944c6ac4d9fb", G_KOOLAID),
	  .minimal = A(NOOP) | A(UP) | A(RIGHT) | A(LEFT) | A(DOWN) | A(UPRIGHT) | A(UPLEFT) |
	    A(DOWNRIGHT) | A(DOWNLEFT), .difficulties = D0 },
	{ GAME("laser_gates", "Laser Gates", "8e4cd60d93fcde8065c1a2b972a26377", G_LASER_GATES),
	  .minimal = ALL_ACTIONS, .start_action = ATARI_RESET, .n_start_actions = 1,
	  .difficulties = D0 },
	{ GAME("sir_lancelot", "Sir Lancelot",
	       "dd0cbe5351551a538414fb9e37fc56e8", G_SIR_LANCELOT),
	  .minimal = A(NOOP) | A(FIRE) | A(RIGHT) | A(LEFT) | A(RIGHTFIRE) | A(LEFTFIRE),
	  .start_action = ATARI_RESET, .n_start_actions = 1,
	  .start_action2 = ATARI_LEFT, .n_start_actions2 = 1, .lives_at_reset = 3,
	  .difficulties = D0 },
	{ GAME("superman", "Superman", "a9531c763077464307086ec9a1fd057d", G_SUPERMAN),
	  .minimal = ALL_ACTIONS, .lives_at_reset = 1, .difficulties = D0123 },
	{ GAME("tetris", "Tetris 2600", "b0e1ee07fbc73493eac5651a52f90f00", G_TETRIS),
	  .minimal = A(NOOP) | A(FIRE) | A(RIGHT) | A(LEFT) | A(DOWN), .difficulties = D0 },
	{ GAME("trondead", "TRON: Deadly Discs",
	       "fb27afe896e7c928089307b32e5642ee", G_TRONDEAD),
	  .minimal = ALL_ACTIONS, .lives_at_reset = 5, .difficulties = D01 },
	{ GAME("air_raid", "Air Raid", "35be55426c1fec32dfb503b4f0651572", G_AIR_RAID),
	  .minimal = A(NOOP) | A(FIRE) | A(RIGHT) | A(LEFT) | A(RIGHTFIRE) | A(LEFTFIRE),
	  .start_action = ATARI_FIRE, .n_start_actions = 1, .lives_at_reset = 1,
	  .mode_addr = 0xaa, .mode_value = 1, .select_frames = 10, .first_select = 20,
	  MODES(air_raid), .mode_mul = 1, .difficulties = D0 },
	{ GAME("crossbow", "Crossbow", "8cd26dcf249456fe4aeb8db42d49df74", G_CROSSBOW),
	  .minimal = ALL_ACTIONS, .lives_at_reset = 1, .mode_addr = 0x8d, .mode_value = 1,
	  .select_frames = 2, MODES(crossbow), .mode_mul = 1, .difficulties = D01 },
	{ GAME("frogger", "Frogger", "081e2c114c9c20b61acf25fc95c71bf4", G_FROGGER),
	  .minimal = A(NOOP) | A(UP) | A(RIGHT) | A(LEFT) | A(DOWN), .lives_at_reset = 4,
	  .mode_addr = 0xdd, .mode_value = 1, .select_frames = 2, MODES(m012), .mode_mul = 2,
	  .difficulties = D01 },
	{ GAME("galaxian", "Galaxian", "211774f4c5739042618be8ff67351177", G_GALAXIAN),
	  .minimal = A(NOOP) | A(FIRE) | A(RIGHT) | A(LEFT) | A(RIGHTFIRE) | A(LEFTFIRE),
	  .lives_at_reset = 3, .mode_addr = 0xb3, .mode_value = 1, .select_frames = 1,
	  MODES(galaxian), .mode_mul = 1, .difficulties = D01 },
	{ GAME("king_kong", "King Kong", "0dd4c69b5f9a7ae96a7a08329496779a", G_KING_KONG),
	  .minimal = A(NOOP) | A(FIRE) | A(UP) | A(RIGHT) | A(LEFT) | A(DOWN),
	  .lives_at_reset = 3, .mode_addr = 0xec, .select_frames = 2, MODES(m0123),
	  .mode_mul = 2, .difficulties = D0 },
	{ GAME("mr_do", "Mr. Do!", "aa7bb54d2c189a31bb1fa20099e42859", G_MR_DO),
	  .minimal = A(NOOP) | A(FIRE) | A(UP) | A(RIGHT) | A(LEFT) | A(DOWN) | A(UPFIRE) |
	    A(RIGHTFIRE) | A(LEFTFIRE) | A(DOWNFIRE),
	  .start_action = ATARI_FIRE, .n_start_actions = 1, .lives_at_reset = 4,
	  .mode_addr = 0x80, .select_frames = 5, MODES(m0123), .mode_mul = 1, .difficulties = D0 },
	{ GAME("pooyan", "Pooyan", "4799a40b6e889370b7ee55c17ba65141", G_POOYAN),
	  .ystart = 26, .height = 220,
	  .minimal = A(NOOP) | A(FIRE) | A(UP) | A(DOWN) | A(UPFIRE) | A(DOWNFIRE),
	  .lives_at_reset = 3, .mode_addr = 0xbd, .mode_value = 10, .select_frames = 2,
	  .first_select = 2, MODES(pooyan), .mode_mul = 1, .difficulties = D0 },
	{ GAME("turmoil", "Turmoil", "7a5463545dfb2dcfdafa6074b2f2c15e", G_TURMOIL),
	  .minimal = A(NOOP) | A(FIRE) | A(UP) | A(RIGHT) | A(LEFT) | A(DOWN) | A(UPRIGHT) |
	    A(UPLEFT) | A(DOWNRIGHT) | A(DOWNLEFT) | A(RIGHTFIRE) | A(LEFTFIRE),
	  .start_action = ATARI_FIRE, .n_start_actions = 1, .lives_at_reset = 4,
	  .mode_addr = 0xea, .select_frames = 2, MODES(m0to8), .mode_mul = 1, .difficulties = D0 },
	{ GAME("mario_bros", "Mario Bros.", "e908611d99890733be31733a979c62d8", G_MARIO_BROS),
	  .minimal = ALL_ACTIONS, .start_action = ATARI_NOOP, .n_start_actions = 10,
	  .start_action2 = ATARI_FIRE, .n_start_actions2 = 7, .mode_addr = 0x80,
	  .select_frames = 5, MODES(m0246), .mode_mul = 1, .difficulties = D0 },
	{ GAME("haunted_house", "Haunted House",
	       "f0a6e99f5875891246c3dbecbf2d2cea", G_HAUNTED_HOUSE),
	  .minimal = ALL_ACTIONS, .lives_at_reset = 9, .last_lives_at_reset = 0,
	  .mode_addr = 0xcc, .select_frames = 2, MODES(m0to8), .mode_mul = 1,
	  .difficulties = D01 },
	{ GAME("othello", "Othello", "113cd09c9771ac278544b7e90efe7df2", G_OTHELLO),
	  .minimal = MOVE_ACTIONS, .lives_at_reset = 1, .last_lives_at_reset = 0,
	  .mode_addr = 0xde, .mode_value = 1, .select_frames = 2, MODES(m012), .mode_mul = 1,
	  .difficulties = D02 },
	{ GAME("surround", "Surround", "4d7517ae69f95cfbc053be01312b7dba", G_SURROUND),
	  .minimal = A(NOOP) | A(UP) | A(RIGHT) | A(LEFT) | A(DOWN), .lives_at_reset = 1,
	  .mode_addr = 0xf9, .mode_value = 1, .select_frames = 2, MODES(m02), .mode_mul = 1,
	  .difficulties = D0123, .swap_ports = 1 },
	{ GAME("et", "E.T. The Extra-Terrestrial", "615a3bf251a38eb6638cdc7ffbde5480", G_ET),
	  .minimal = ALL_ACTIONS, .mode_addr = 0xea, .mode_value = 1, .select_frames = 25,
	  MODES(m012), .mode_mul = 1, .difficulties = D0123 },
	{ GAME("pacman", "Pac-Man", "fc2233fc116faef0d3c31541717ca2db", G_PACMAN),
	  .minimal = A(NOOP) | A(UP) | A(RIGHT) | A(LEFT) | A(DOWN), .lives_at_reset = 4,
	  .mode_addr = 0xcc, .mode_value = 1, .mode_addr2 = 0xe6, .mode_value2 = 0,
	  .select_frames = 2, MODES(m0to7), .mode_mul = 1, .difficulties = D01 },
	{ GAME("basic_math", "Basic Math", "819aeeb9a2e11deb54e6de334f843894", G_BASIC_MATH),
	  .minimal = A(NOOP) | A(FIRE) | A(UP) | A(RIGHT) | A(LEFT) | A(DOWN),
	  .lives_at_reset = 1, .mode_addr = 0xc5, .mode_value = 5, .select_frames = 2,
	  MODES(basic_math), .mode_mul = 1, .difficulties = D023 },
	{ GAME("flag_capture", "Flag Capture",
	       "30512e0e83903fc05541d2f6a6a62654", G_FLAG_CAPTURE),
	  .minimal = ALL_ACTIONS, .lives_at_reset = 1, .mode_addr = 0xd6, .mode_value = 8,
	  .select_frames = 2, MODES(flag_capture), .mode_mul = 1, .difficulties = D0 },
	{ GAME("human_cannonball", "Human Cannonball",
	       "7972e5101fa548b952d852db24ad6060", G_HUMAN_CANNONBALL),
	  .minimal = ALL_ACTIONS, .lives_at_reset = 1, .mode_addr = 0xb6, .mode_value = 1,
	  .mode_addr2 = 0xb7, .mode_value2 = 1, .select_frames = 2, MODES(m0to7), .mode_mul = 1,
	  .difficulties = D01 },
	{ GAME("lost_luggage", "Lost Luggage",
	       "2d76c5d1aad506442b9e9fb67765e051", G_LOST_LUGGAGE),
	  .minimal = A(NOOP) | A(UP) | A(RIGHT) | A(LEFT) | A(DOWN) | A(UPRIGHT) | A(UPLEFT) |
	    A(DOWNRIGHT) | A(DOWNLEFT), .illegal = FIRE_ACTIONS,
	  .start_action = ATARI_FIRE, .n_start_actions = 1, .lives_at_reset = 3,
	  .mode_addr = 0x94, .mode_value = 1, .select_frames = 2, MODES(m01), .mode_mul = 3,
	  .difficulties = D01 },
	{ GAME("space_war", "Space War", "b702641d698c60bcdc922dbd8c9dd49c", G_SPACE_WAR),
	  .minimal = ALL_ACTIONS, .lives_at_reset = 1, .mode_addr = 0xa7, .mode_value = 6,
	  .select_frames = 2, MODES(space_war), .mode_mul = -1, .difficulties = D0 },
	{ GAME("hangman", "Hangman", "f16c709df0a6c52f47ff52b9d95b7d8d", G_HANGMAN),
	  .minimal = ALL_ACTIONS, .lives_at_reset = 1, .last_lives_at_reset = -1,
	  .mode_addr = 0xee, .select_frames = 2, MODES(m0123), .mode_mul = 1,
	  .difficulties = D01 },
	{ GAME("tic_tac_toe_3d", "3-D Tic-Tac-Toe",
	       "0db4f4150fecf77e4ce72ca4d04c052f", G_TIC_TAC_TOE_3D),
	  .minimal = MOVE_ACTIONS, .lives_at_reset = 1, .mode_addr = 0x88, .select_frames = 2,
	  MODES(m0to8), .mode_mul = 1, .difficulties = D02 },
	{ GAME("video_chess", "Video Chess", "f0b7db930ca0e548c41a97160b9f6275", G_VIDEO_CHESS),
	  .minimal = MOVE_ACTIONS, .lives_at_reset = 1, .mode_addr = 0xea, .select_frames = 1,
	  MODES(m0to4), .mode_mul = 1, .difficulties = D0 },
	{ GAME("casino", "Casino", "b816296311019ab69a21cb9e9e235d12", G_CASINO),
	  .controller = ATARI_PADDLES, .minimal = A(NOOP) | A(FIRE) | A(UP) | A(DOWN),
	  .start_action = ATARI_NOOP, .n_start_actions = 60,
	  .start_action2 = ATARI_FIRE, .n_start_actions2 = 2, .lives_at_reset = 1,
	  .mode_addr = 0xd4, .select_frames = 2, MODES(casino), .mode_mul = 1,
	  .difficulties = D0123 },
	/* ALE widens the paddle's range so that the cursor reaches the whole board. */
	{ GAME("backgammon", "Backgammon", "8556b42aa05f94bc29ff39c39b11bff4", G_BACKGAMMON),
	  .controller = ATARI_PADDLES, .minimal = A(FIRE) | A(RIGHT) | A(LEFT),
	  .lives_at_reset = 1, .mode_addr = 0xdc, .mode_value = 3, .select_frames = 1,
	  MODES(m0), .mode_mul = 1, .difficulties = D3, .paddle_max = 1000000 },
	/* Modes 11-19 (reverse checkers) show as 17-25 in RAM. */
	{ GAME("video_checkers", "Video Checkers",
	       "539d26b6e9df0da8e7465f0f5ad863b7", G_VIDEO_CHECKERS),
	  .minimal = A(FIRE) | A(UPRIGHT) | A(UPLEFT) | A(DOWNRIGHT) | A(DOWNLEFT),
	  .lives_at_reset = 1, .mode_addr = 0xf6, .select_frames = 1,
	  MODES(video_checkers), .mode_mul = 1, MODE_VALUES(video_checkers),
	  .started_modes = M(11) | M(12) | M(13) | M(14) | M(15) | M(16) | M(17) | M(18) |
	    M(19), .difficulties = D0 },
	/* The level is bits 1-2 of $DD; SELECT is held a random time (-1). */
	{ GAME("adventure", "Adventure", "4b27f5397c442d25f0c418ccdacf1926", G_ADVENTURE),
	  .minimal = ALL_ACTIONS, .lives_at_reset = 1, .mode_addr = 0xdd, .select_frames = -1,
	  MODES(m012), .mode_mul = 1, .mode_shift = 1, .mode_mask = 3, .difficulties = D0123 },
	{ GAME("word_zapper", "Word Zapper", "ec3beb6d8b5689e867bafb5d5f507491", G_WORD_ZAPPER),
	  .minimal = ALL_ACTIONS, .start_action = ATARI_NOOP, .n_start_actions = 486,
	  .start_action2 = ATARI_FIRE, .n_start_actions2 = 1, .start_noops = 2,
	  .lives_at_reset = 1, .mode_addr = 0xdb, .select_frames = 2, MODES(m0to23),
	  .mode_mul = 1, .difficulties = D0123 },
	/* ALE's mode c * 100 + v is game variation 1, 3 or 9 (v 0-2, RAM 0, 2, 8)
	 * of cube c (1 for modes 0-2), the cube picked with RIGHT. */
	{ GAME("video_cube", "Atari Video Cube",
	       "3f540a30fdee0b20aed7288e4a5ea528", G_VIDEO_CUBE),
	  .minimal = ALL_ACTIONS, .start_action = ATARI_NOOP, .n_start_actions = 61,
	  .start_action2 = ATARI_FIRE, .n_start_actions2 = 1, .start_noops = 2,
	  .lives_at_reset = 1, .last_lives_at_reset = -1, .mode_addr = 0xfb, .select_frames = 2,
	  MODES(video_cube), .mode_mask = 0x1f, MODE_VALUES(video_cube),
	  .mode_step_addr = 0x9f, .mode_step_action = ATARI_RIGHT, .difficulties = D01 },
	/* The score, the misses and the mode are in the cartridge's RAM. */
	{ GAME("klax", "Klax", "eed9eaf1a0b6a2b9bc4c8032cb43e3fb", G_KLAX),
	  .minimal = ALL_ACTIONS, .start_action = ATARI_FIRE, .n_start_actions = 1,
	  .start_action2 = ATARI_NOOP, .n_start_actions2 = 1, .lives_at_reset = 1,
	  .mode_addr = 0xf0ea, .select_frames = 2, MODES(m012), .mode_mul = 1,
	  .difficulties = D0 },
	/* Modes: bits 0-3 turn on four options of the game's menu (-2: a menu). */
	{ GAME("double_dunk", "Double Dunk", "368d88a6c071caba60b4f778615aae94", G_DOUBLE_DUNK),
	  .minimal = ALL_ACTIONS, .start_action = ATARI_UPFIRE, .n_start_actions = 1,
	  .mode_addr = 0x80, .select_frames = -2, MODES(m0to15), .mode_mul = 1,
	  .difficulties = D0 },
	/* DPC: the CPU's dummy reads are not made (machine.c, bus_dummy). */
	{ GAME("pitfall2", "Pitfall II: Lost Caverns",
	       "6d842c96d5a01967be9680080dd5be54", G_PITFALL2),
	  .minimal = ALL_ACTIONS, .start_action = ATARI_UP, .n_start_actions = 1,
	  .lives_at_reset = 1, .score_at_reset = 4000, .difficulties = D0 },
	/* Scored per hole: par less the hits, when the hole is done. */
	{ GAME("miniature_golf", "Miniature Golf",
	       "df62a658496ac98a3aa4a6ee5719c251", G_MINIATURE_GOLF),
	  .minimal = ALL_ACTIONS, .lives_at_reset = 1, .difficulties = D01 },
	/*
	 * Two-player games, as multi-agent ALE defines them, seen by player A
	 * with the other players idle.  Combat: the score difference, the game
	 * over when a player reaches 99 or the timer ends ($88); its modes are
	 * all two-player games (RAM $80 is the mode less 1).
	 */
	{ GAME("combat", "Combat", "0ef64cdbecccb7049752a3de0b7ade14", G_COMBAT),
	  .ystart = 39, .height = 256, .minimal = ALL_ACTIONS, .mode_addr = 0x80,
	  .select_frames = 1, MODES(combat), .mode_mul = 1, .difficulties = D0123,
	  .reference = ATARI_REF_MULTI_AGENT, .mode_players = { 0, 27, 0 } },
	/* Joust: player A's score and lives; modes 0 and 2 one player, 1 and 3
	 * two (the mode is $F8 mod 4). */
	{ GAME("joust", "Joust", "3276c777cbe97cdd2b4a63ffc16b7151", G_JOUST),
	  .minimal = ALL_ACTIONS, .lives_at_reset = 5, .mode_addr = 0xf8, .select_frames = 1,
	  MODES(joust), .mode_mul = 1, .mode_mask = 3, .started_modes = M(1) | M(3),
	  .difficulties = D0, .reference = ATARI_REF_MULTI_AGENT, .mode_players = { 2, 2, 0 } },
	/* Maze Craze: -1 when player A is caught, 1 or -1 for the maze's end;
	 * lives 0, or -1 once caught.  A PAL cartridge by its properties. */
	{ GAME("maze_craze", "Maze Craze", "ed2218b3075d15eaa34e3356025ccca3", G_MAZE_CRAZE),
	  .power_on_frames = 0, .ystart = 34, .height = 250, .minimal = ALL_ACTIONS,
	  .last_lives_at_reset = 0, .mode_addr = 0xbd, .select_frames = 2, MODES(maze_craze),
	  .mode_mul = 1, .difficulties = D0,
	  .reference = ATARI_REF_MULTI_AGENT, .mode_players = { 0, 64, 0 }, .pal = 1 },
	/* Warlords: -1 when player A's castle falls, 1 for the last lord
	 * standing; lives 0, or -1 once fallen.  Four paddles. */
	{ GAME("warlords", "Warlords", "cbe5a166550a8129a5e6d374901dffad", G_WARLORDS),
	  .controller = ATARI_PADDLES, .right_paddles = 1,
	  .minimal = A(NOOP) | A(FIRE) | A(RIGHT) | A(LEFT) | A(RIGHTFIRE) | A(LEFTFIRE),
	  .mode_addr = 0xd9, .mode_value = 3, .select_frames = 1, MODES(warlords),
	  .mode_mul = 1, .difficulties = D0,
	  .reference = ATARI_REF_MULTI_AGENT, .mode_players = { 4, 9, 5 } },
};
#pragma GCC diagnostic pop
const int atari_games_count = (int)(sizeof(atari_games) / sizeof(atari_games[0]));

static const char *const action_names[ATARI_ACTIONS] = {
	"NOOP", "FIRE", "UP", "RIGHT", "LEFT", "DOWN", "UPRIGHT", "UPLEFT",
	"DOWNRIGHT", "DOWNLEFT", "UPFIRE", "RIGHTFIRE", "LEFTFIRE", "DOWNFIRE",
	"UPRIGHTFIRE", "UPLEFTFIRE", "DOWNRIGHTFIRE", "DOWNLEFTFIRE",
};

const char *atari_action_name(int action)
{
	return action >= 0 && action < ATARI_ACTIONS ? action_names[action] : NULL;
}

const struct atari_game *atari_game_by_md5(const char *md5)
{
	for (int i = 1; i < atari_games_count; i++)
		if (strcmp(atari_games[i].md5, md5) == 0)
			return &atari_games[i];
	return NULL;
}

const struct atari_game *atari_game_by_name(const char *name)
{
	for (int i = 1; i < atari_games_count; i++)
		if (strcmp(atari_games[i].name, name) == 0)
			return &atari_games[i];
	return NULL;
}

const char *atari_game_reference_name(const struct atari_game *g)
{
	if (!g->id || g->verified < 0)
		return "none";
	return g->reference == ATARI_REF_MULTI_AGENT ? "multi-agent-ale-py" : "ale-py";
}


int atari_game_modes(const struct atari_game *g, int *out, int max)
{
	int n = g->n_modes ? g->n_modes : 1;

	for (int i = 0; i < n && i < max; i++)
		out[i] = g->n_modes ? g->modes[i] : 0;
	return n;
}

int atari_game_difficulties(const struct atari_game *g, int *out, int max)
{
	unsigned set = g->difficulties ? g->difficulties : 1;
	int n = 0;

	for (int d = 0; d < 32; d++)
		if (set & (1u << d)) {
			if (n < max)
				out[n] = d;
			n++;
		}
	return n;
}

int atari_game_mode_valid(const struct atari_game *g, int m)
{
	if (m == ATARI_MODE_DEFAULT)
		return 1;
	if (!g->n_modes)
		return m == 0;
	for (int i = 0; i < g->n_modes; i++)
		if (g->modes[i] == m)
			return 1;
	return 0;
}

int atari_game_difficulty_valid(const struct atari_game *g, int d)
{
	unsigned set = g->difficulties ? g->difficulties : 1;

	return d == 0 || (d > 0 && d < 32 && (set & (1u << d)));
}

