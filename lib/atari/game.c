#include <string.h>

#include "atari/game.h"

enum {
	G_UNKNOWN, G_PONG, G_BREAKOUT, G_SPACE_INVADERS, G_SEAQUEST, G_QBERT,
	G_BEAM_RIDER, G_ENDURO, G_MS_PACMAN, G_ASTERIX, G_BOXING, G_FREEWAY,
	G_ASTEROIDS, G_ATLANTIS, G_FROSTBITE, G_MONTEZUMA, G_HOMEBREW,
	G_AMIDAR, G_ASSAULT, G_KRULL, G_KUNG_FU_MASTER, G_PHOENIX, G_RIVERRAID,
	G_ROAD_RUNNER, G_ROBOTANK, G_FISHING_DERBY, G_PITFALL, G_SKIING, G_SOLARIS,
	G_TIME_PILOT, G_UP_N_DOWN, G_VENTURE, G_WIZARD_OF_WOR,
	G_ALIEN, G_BANK_HEIST, G_CENTIPEDE, G_CHOPPER_COMMAND, G_DEMON_ATTACK, G_GOPHER,
	G_HERO, G_JAMESBOND, G_KANGAROO, G_GRAVITAR, G_CRAZY_CLIMBER, G_STAR_GUNNER,
	G_BATTLE_ZONE, G_BOWLING, G_PRIVATE_EYE, G_TUTANKHAM, G_ZAXXON, G_VIDEO_PINBALL,
	G_BERZERK, G_DEFENDER, G_ICE_HOCKEY, G_NAME_THIS_GAME, G_YARS_REVENGE, G_TENNIS,
	G_ATLANTIS2, G_BLACKJACK, G_CARNIVAL, G_DARKCHAMBERS, G_DONKEY_KONG, G_EARTHWORLD,
	G_ELEVATOR_ACTION, G_ENTOMBED, G_JOURNEY_ESCAPE, G_KABOOM, G_KEYSTONE_KAPERS,
	G_KOOLAID, G_LASER_GATES, G_SIR_LANCELOT, G_SUPERMAN, G_TETRIS, G_TRONDEAD,
	G_AIR_RAID, G_CROSSBOW, G_FROGGER, G_GALAXIAN, G_KING_KONG, G_MR_DO, G_POOYAN,
	G_TURMOIL, G_MARIO_BROS, G_HAUNTED_HOUSE, G_OTHELLO, G_SURROUND, G_ET, G_PACMAN,
	G_BASIC_MATH, G_FLAG_CAPTURE, G_HUMAN_CANNONBALL, G_LOST_LUGGAGE, G_SPACE_WAR,
	G_HANGMAN, G_TIC_TAC_TOE_3D, G_VIDEO_CHESS, G_CASINO, G_BACKGAMMON, G_VIDEO_CHECKERS,
	G_ADVENTURE, G_WORD_ZAPPER, G_VIDEO_CUBE, G_KLAX, G_DOUBLE_DUNK,
	G_PITFALL2, G_MINIATURE_GOLF, G_COMBAT, G_JOUST, G_MAZE_CRAZE, G_WARLORDS,
};

#define A(x) (1u << ATARI_##x)
#define ALL_ACTIONS ((1u << ATARI_ACTIONS) - 1)
#define FIRE_ACTIONS (A(FIRE) | A(UPFIRE) | A(RIGHTFIRE) | A(LEFTFIRE) | A(DOWNFIRE) | \
		      A(UPRIGHTFIRE) | A(UPLEFTFIRE) | A(DOWNRIGHTFIRE) | A(DOWNLEFTFIRE))
/* A joystick game with the default display, no mode selection. */
#define SIMPLE(name, title, md5, id, minimal, start, nstart, lives) \
	{ name, title, md5, id, 0, ATARI_JOYSTICK, 0, 60, 34, 210, minimal, start, nstart, \
	  NO_MODE, lives, 1, 0, 0, 0, 0, NO_EXTRA }
#define NO_MODE -1, 0, -1, 0, 0
/* ... with difficulties (bit d for difficulty d). */
#define SIMPLE_D(diffs, name, title, md5, id, minimal, start, nstart, lives) \
	{ name, title, md5, id, 0, ATARI_JOYSTICK, 0, 60, 34, 210, minimal, start, nstart, \
	  NO_MODE, lives, 1, 0, 0, 0, 0, 0, 0, 0, NULL, 0, 0, 0, diffs, 0, REF_ALE }
/* A joystick game with the default display whose mode ALE selects, with
 * difficulties and modes: mode m is selected when RAM[addr] == value + m -
 * the default mode (SELECT held `frames` frames a press). */
#define MODED_M(diffs, modes, name, title, md5, id, minimal, start, nstart, addr, value, \
		frames, lives, first) \
	{ name, title, md5, id, 0, ATARI_JOYSTICK, 0, 60, 34, 210, minimal, start, nstart, \
	  addr, value, -1, 0, frames, lives, 1, 0, 0, 0, first, 0, 0, 0, MODES(modes), 1, \
	  diffs, 0, REF_ALE }
/* The reference is ale-py's ALE (the last fields, game.h). */
#define REF_ALE ATARI_REF_ALE, { 0, 0, 0 }, 0
/* The later fields, unused: default mode 0 only, difficulty 0 only. */
#define NO_EXTRA 0, 0, 0, NULL, 0, 0, 0, 0, 0, REF_ALE
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
#define MODES(n) modes_##n, (int)(sizeof(modes_##n) / sizeof(modes_##n[0])), 0	/* default: modes_##n[0] */
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
/* Difficulty sets: bit d for difficulty d. */
#define D0 1u
#define D01 3u
#define D02 5u
#define D0123 15u
#define D023 13u
#define D3 8u
/* NOOP to DOWNLEFT: the joystick without the button. */
#define MOVE_ACTIONS ((1u << ATARI_UPFIRE) - 1)
/*
 * A game with every field: controller, display window, minimal set,
 * starting actions (two runs), lives at reset, mode selection (RAM byte,
 * value of the default mode, second byte and value, SELECT frames per
 * press, SELECT frames pressed once first), modes (list, count, default),
 * RAM step per mode, difficulties, HMOVE blanks off, swapped ports,
 * paddle maximum, verified.
 */
#define XG(...) XG_(__VA_ARGS__)
#define XG_(name, title, md5, id, ctrl, ystart, height, minimal, s1, n1, s2, n2, lives, \
	    addr, value, addr2, value2, sel, first, modes, nmodes, nolist, mul, diffs, \
	    nohmove, swap, pmax, verified) \
	{ name, title, md5, id, 0, ctrl, 0, 60, ystart, height, minimal, s1, n1, \
	  addr, value, addr2, value2, sel, lives, verified, nohmove, 0, swap, 0, s2, n2, \
	  first, modes, nmodes, nolist, mul, diffs, pmax, REF_ALE }
/* The same, with actions ALE turns into NOOP (bit a for action a). */
#define XGI(illegal, ...) XGI_(illegal, __VA_ARGS__)
#define XGI_(illegal, name, title, md5, id, ctrl, ystart, height, minimal, s1, n1, s2, n2, \
	     lives, addr, value, addr2, value2, sel, first, modes, nmodes, nolist, mul, diffs, \
	     nohmove, swap, pmax, verified) \
	{ name, title, md5, id, 0, ctrl, 0, 60, ystart, height, minimal, s1, n1, \
	  addr, value, addr2, value2, sel, lives, verified, nohmove, illegal, swap, 0, s2, n2, \
	  first, modes, nmodes, nolist, mul, diffs, pmax, REF_ALE }
#define NO_MODES NULL, 0, 0
/*
 * A game whose reference is multi-agent ALE (game.h): controller, display
 * window, minimal set, lives at reset, mode selection (RAM byte, value of
 * the default mode, SELECT frames per press), modes (the one-player modes,
 * then the two-player, then the four-player: n1, n2 and n4 of them),
 * difficulties, and a PAL game by its properties (no TV format detection).
 * No starting actions: multi-agent ALE's player B repeats them.
 */
#define MA(name, title, md5, id, ctrl, ystart, height, minimal, lives, addr, value, sel, \
	   modes, n1, n2, n4, diffs, pal) \
	{ name, title, md5, id, 0, ctrl, (ctrl) != ATARI_JOYSTICK, (pal) ? 0 : 60, ystart, \
	  height, minimal, 0, 0, addr, value, -1, 0, sel, lives, 1, 0, 0, 0, 0, 0, 0, 0, \
	  MODES(modes), 1, diffs, 0, ATARI_REF_MULTI_AGENT, { n1, n2, n4 }, pal }
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
/* MD5 of share/roms/catch.bin as the build assembles it (a test checks it). */
#define CATCH_MD5 "0d86d32974ce16f76406c387ec5b95e1"

/* name, title, md5, id, cart, controller, right paddles, power-on frames,
 * ystart, height, minimal set, start actions, count, mode selection,
 * lives at reset, verified, HMOVE blanks off */
const struct atari_game atari_games[] = {
	{ "unknown", "Unknown ROM", "", G_UNKNOWN, 0, ATARI_JOYSTICK, 0, 60, 34, 210,
	  ALL_ACTIONS, 0, 0, NO_MODE, 0, 0, 0, 0, 0, 0, NO_EXTRA },
	{ "pong", "Video Olympics (Pong)", "60e0ea3cbe0913d39803477945e9e5ec", G_PONG, 0,
	  ATARI_PADDLES_SWAPPED, 1, 60, 34, 210,
	  A(NOOP) | A(FIRE) | A(RIGHT) | A(LEFT) | A(RIGHTFIRE) | A(LEFTFIRE), 0, 0,
	  0x96, 0, -1, 0, 2, 0, 1, 0, 0, 0, 0, 0, 0, 0, MODES(pong), 1, 15u, 0, REF_ALE },
	{ "breakout", "Breakout", "f34f08e5eb96e500e851a80be3277a56", G_BREAKOUT, 0,
	  ATARI_PADDLES, 1, 60, 34, 210,
	  A(NOOP) | A(FIRE) | A(RIGHT) | A(LEFT), 0, 0, 0xb2, 0, -1, 0, 1, 5, 1, 0, 0, 0, 0, 0, 0, 0, MODES(breakout), 1, 3u, 0, REF_ALE },
	{ "space_invaders", "Space Invaders", "72ffbef6504b75e69ee1045af9075f66",
	  G_SPACE_INVADERS, 0, ATARI_JOYSTICK, 0, 60, 34, 210,
	  A(NOOP) | A(FIRE) | A(RIGHT) | A(LEFT) | A(RIGHTFIRE) | A(LEFTFIRE), 0, 0,
	  0xdc, 0, -1, 0, 2, 3, 1, 0, 0, 0, 0, 0, 0, 0, MODES(space_invaders), 1, 3u, 0, REF_ALE },
	{ "seaquest", "Seaquest", "240bfbac5163af4df5ae713985386f92", G_SEAQUEST, 0,
	  ATARI_JOYSTICK, 0, 60, 34, 210, ALL_ACTIONS, 0, 0, NO_MODE, 4, 1, 0, 0, 0, 0, 0, 0, 0, NULL, 0, 0, 0, 3u, 0, REF_ALE },
	{ "qbert", "Q*bert", "484b0076816a104875e00467d431c2d2", G_QBERT, 0,
	  ATARI_JOYSTICK, 0, 60, 40, 210,
	  A(NOOP) | A(FIRE) | A(UP) | A(RIGHT) | A(LEFT) | A(DOWN), 0, 0, NO_MODE, 4, 1, 0, 0, 0, 0, 0, 0, 0, NULL, 0, 0, 0, 3u, 0, REF_ALE },
	{ "beam_rider", "Beamrider", "79ab4123a83dc11d468fb2108ea09e2e", G_BEAM_RIDER, 0,
	  ATARI_JOYSTICK, 0, 60, 34, 210,
	  A(NOOP) | A(FIRE) | A(UP) | A(RIGHT) | A(LEFT) | A(UPRIGHT) | A(UPLEFT) |
	  A(RIGHTFIRE) | A(LEFTFIRE), ATARI_RIGHT, 1, NO_MODE, 3, 1, 0, 0, 0, 0, 0, 0, 0, NULL, 0, 0, 0, 3u, 0, REF_ALE },
	{ "enduro", "Enduro", "94b92a882f6dbaa6993a46e2dcc58402", G_ENDURO, 0,
	  ATARI_JOYSTICK, 0, 60, 34, 210,
	  A(NOOP) | A(FIRE) | A(RIGHT) | A(LEFT) | A(DOWN) | A(DOWNRIGHT) | A(DOWNLEFT) |
	  A(RIGHTFIRE) | A(LEFTFIRE), ATARI_FIRE, 1, NO_MODE, 0, 1, 0, 0, 0, 0, NO_EXTRA },
	{ "ms_pacman", "Ms. Pac-Man", "87e79cd41ce136fd4f72cc6e2c161bee", G_MS_PACMAN, 0,
	  ATARI_JOYSTICK, 0, 60, 34, 210,
	  A(NOOP) | A(UP) | A(RIGHT) | A(LEFT) | A(DOWN) | A(UPRIGHT) | A(UPLEFT) |
	  A(DOWNRIGHT) | A(DOWNLEFT), 0, 0, 0x99, 1, 0xa1, 1, 10, 3, 1, 1, 0, 0, 0, 0, 0, 0,
	  MODES(m0123), 0, 0u, 0, REF_ALE },
	{ "asterix", "Asterix", "89a68746eff7f266bbf08de2483abe55", G_ASTERIX, 0,
	  ATARI_JOYSTICK, 0, 60, 34, 210,
	  A(NOOP) | A(UP) | A(RIGHT) | A(LEFT) | A(DOWN) | A(UPRIGHT) | A(UPLEFT) |
	  A(DOWNRIGHT) | A(DOWNLEFT), ATARI_FIRE, 1, NO_MODE, 3, 1, 0, 0, 0, 0, NO_EXTRA },
	{ "boxing", "Boxing", "c3ef5c4653212088eda54dc91d787870", G_BOXING, 0,
	  ATARI_JOYSTICK, 0, 60, 34, 210, ALL_ACTIONS, 0, 0, NO_MODE, 0, 1, 0, 0, 0, 0, 0, 0, 0, NULL, 0, 0, 0, 15u, 0, REF_ALE },
	{ "freeway", "Freeway", "8e0ab801b1705a740b476b7f588c6d16", G_FREEWAY, 0,
	  ATARI_JOYSTICK, 0, 60, 34, 210, A(NOOP) | A(UP) | A(DOWN), 0, 0,
	  0x80, 0, -1, 0, 1, 0, 1, 0, 0, 0, 0, 0, 0, 0, MODES(freeway), 1, 3u, 0, REF_ALE },
	{ "asteroids", "Asteroids", "ccbd36746ed4525821a8083b0d6d2c2c", G_ASTEROIDS, 0,
	  ATARI_JOYSTICK, 0, 60, 34, 210,
	  A(NOOP) | A(FIRE) | A(UP) | A(RIGHT) | A(LEFT) | A(DOWN) | A(UPRIGHT) |
	  A(UPLEFT) | A(UPFIRE) | A(RIGHTFIRE) | A(LEFTFIRE) | A(DOWNFIRE) |
	  A(UPRIGHTFIRE) | A(UPLEFTFIRE), 0, 0, 0x80, 0, -1, 0, 2, 4, 1, 1, 0, 0, 0, 0, 0, 0, MODES(asteroids), 1, 9u, 0, REF_ALE },
	{ "atlantis", "Atlantis", "9ad36e699ef6f45d9eb6c4cf90475c9f", G_ATLANTIS, 0,
	  ATARI_JOYSTICK, 0, 60, 34, 210,
	  A(NOOP) | A(FIRE) | A(RIGHTFIRE) | A(LEFTFIRE), 0, 0, 0x8d, 0, -1, 0, 2, 6, 1, 0, 0, 0, 0, 0, 0, 0, MODES(atlantis), 1, 1u, 0, REF_ALE },
	{ "frostbite", "Frostbite", "4ca73eb959299471788f0b685c3ba0b5", G_FROSTBITE, 0,
	  ATARI_JOYSTICK, 0, 60, 34, 210, ALL_ACTIONS, 0, 0, 0x80, 0, -1, 0, 1, 4, 1, 0, 0, 0, 0, 0, 0, 0, MODES(frostbite), 1, 1u, 0, REF_ALE },
	{ "montezuma_revenge", "Montezuma's Revenge", "3347a6dd59049b15a38394aa2dafa585",
	  G_MONTEZUMA, 0, ATARI_JOYSTICK, 0, 60, 34, 210, ALL_ACTIONS, 0, 0, NO_MODE,
	  6, 1, 0, 0, 0, 0, NO_EXTRA },
	/* The project's own game (share/roms/catch.asm): no ALE reference. */
	{ "catch", "Catch (rlkit homebrew)", CATCH_MD5, G_HOMEBREW, 0,
	  ATARI_JOYSTICK, 0, 60, 34, 210, A(NOOP) | A(RIGHT) | A(LEFT), 0, 0, NO_MODE,
	  3, -1, 0, 0, 0, 0, NO_EXTRA },
	SIMPLE_D(9u, "amidar", "Amidar", "acb7750b4d0c4bd34969802a7deb2990", G_AMIDAR,
	       A(NOOP) | A(FIRE) | A(UP) | A(RIGHT) | A(LEFT) | A(DOWN) | A(UPFIRE) |
	       A(RIGHTFIRE) | A(LEFTFIRE) | A(DOWNFIRE), 0, 0, 3),
	SIMPLE("assault", "Assault", "de78b3a064d374390ac0710f95edde92", G_ASSAULT,
	       A(NOOP) | A(FIRE) | A(UP) | A(RIGHT) | A(LEFT) | A(RIGHTFIRE) | A(LEFTFIRE),
	       0, 0, 4),
	SIMPLE("krull", "Krull", "4baada22435320d185c95b7dd2bcdb24", G_KRULL, ALL_ACTIONS, 0, 0, 3),
	SIMPLE("kung_fu_master", "Kung-Fu Master", "5b92a93b23523ff16e2789b820e2a4c5",
	       G_KUNG_FU_MASTER, A(NOOP) | A(UP) | A(RIGHT) | A(LEFT) | A(DOWN) | A(DOWNRIGHT) |
	       A(DOWNLEFT) | A(RIGHTFIRE) | A(LEFTFIRE) | A(DOWNFIRE) | A(UPRIGHTFIRE) |
	       A(UPLEFTFIRE) | A(DOWNRIGHTFIRE) | A(DOWNLEFTFIRE), 0, 0, 4),
	SIMPLE("phoenix", "Phoenix", "7e52a95074a66640fcfde124fffd491a", G_PHOENIX,
	       A(NOOP) | A(FIRE) | A(RIGHT) | A(LEFT) | A(DOWN) | A(RIGHTFIRE) | A(LEFTFIRE) |
	       A(DOWNFIRE), 0, 0, 5),
	SIMPLE_D(3u, "riverraid", "River Raid", "393948436d1f4cc3192410bb918f9724", G_RIVERRAID,
	       ALL_ACTIONS, 0, 0, 4),
	SIMPLE("road_runner", "Road Runner", "ce5cc62608be2cd3ed8abd844efb8919", G_ROAD_RUNNER,
	       ALL_ACTIONS, 0, 0, 3),
	SIMPLE("robotank", "Robot Tank", "4f618c2429138e0280969193ed6c107e", G_ROBOTANK,
	       ALL_ACTIONS, 0, 0, 4),
	SIMPLE_D(15u, "fishing_derby", "Fishing Derby", "b8865f05676e64f3bec72b9defdacfa7",
	       G_FISHING_DERBY, ALL_ACTIONS, 0, 0, 0),
	SIMPLE("pitfall", "Pitfall!", "3e90cf23106f2e08b2781e41299de556", G_PITFALL,
	       ALL_ACTIONS, ATARI_UP, 1, 3),
	{ "skiing", "Skiing", "b76fbadc8ffb1f83e2ca08b6fb4d6c9f", G_SKIING, 0, ATARI_JOYSTICK, 0,
	  60, 34, 210, A(NOOP) | A(RIGHT) | A(LEFT), ATARI_DOWN, 16, NO_MODE, 0, 1, 0,
	  FIRE_ACTIONS, 0, 0, NO_EXTRA },
	SIMPLE("solaris", "Solaris", "e72eb8d4410152bdcb69e7fba327b420", G_SOLARIS,
	       ALL_ACTIONS, 0, 0, 3),
	SIMPLE_D(7u, "time_pilot", "Time Pilot", "fc2104dd2dadf9a6176c1c1c8f87ced9", G_TIME_PILOT,
	       A(NOOP) | A(FIRE) | A(UP) | A(RIGHT) | A(LEFT) | A(DOWN) | A(UPFIRE) |
	       A(RIGHTFIRE) | A(LEFTFIRE) | A(DOWNFIRE), 0, 0, 5),
	{ "up_n_down", "Up'n Down", "a499d720e7ee35c62424de882a3351b6", G_UP_N_DOWN, 0,
	  ATARI_JOYSTICK, 0, 60, 30, 210,
	  A(NOOP) | A(FIRE) | A(UP) | A(DOWN) | A(UPFIRE) | A(DOWNFIRE), ATARI_FIRE, 1,
	  NO_MODE, 5, 1, 0, 0, 0, 0, 0, 0, 0, NULL, 0, 0, 0, 15u, 0, REF_ALE },
	SIMPLE_D(15u, "venture", "Venture", "3e899eba0ca8cd2972da1ae5479b4f0d", G_VENTURE,
	       ALL_ACTIONS, 0, 0, 4),
	{ "wizard_of_wor", "Wizard of Wor", "7e8aa18bc9502eb57daaf5e7c1e94da7",
	  G_WIZARD_OF_WOR, 0, ATARI_JOYSTICK, 0, 60, 34, 210,
	  A(NOOP) | A(FIRE) | A(UP) | A(RIGHT) | A(LEFT) | A(DOWN) | A(UPFIRE) |
	  A(RIGHTFIRE) | A(LEFTFIRE) | A(DOWNFIRE), 0, 0, NO_MODE, 3, 1, 0, 0, 1, 0, 0, 0, 0, NULL, 0, 0, 0, 3u, 0, REF_ALE },
	MODED_M(15u, m0123, "alien", "Alien", "f1a0a23e6464d954e3a9579c4ccd01c8", G_ALIEN,
	      ALL_ACTIONS, 0, 0, 0x81, 0, 1, 3, 0),
	MODED_M(15u, bank_heist, "bank_heist", "Bank Heist", "00ce0bdd43aed84a983bef38fe7f5ee3", G_BANK_HEIST,
	      ALL_ACTIONS, 0, 0, 0x80, 0, 1, 5, 0),
	MODED_M(1u, centipede, "centipede", "Centipede", "91c2098e88a6b13f977af8c003e0bca5", G_CENTIPEDE,
	      ALL_ACTIONS, 0, 0, 0xa7, 0x16, 2, 3, 0),
	MODED_M(3u, chopper_command, "chopper_command", "Chopper Command", "c1cb228470a87beb5f36e90ac745da26",
	      G_CHOPPER_COMMAND, ALL_ACTIONS, 0, 0, 0xe0, 0, 2, 3, 0),
	MODED_M(3u, demon_attack, "demon_attack", "Demon Attack", "f0e0addc07971561ab80d9abe1b8d333", G_DEMON_ATTACK,
	      A(NOOP) | A(FIRE) | A(RIGHT) | A(LEFT) | A(RIGHTFIRE) | A(LEFTFIRE), 0, 0,
	      0xea, 1, 1, 4, 0),
	MODED_M(3u, gopher, "gopher", "Gopher", "c16c79aad6272baffb8aae9a7fff0864", G_GOPHER,
	      A(NOOP) | A(FIRE) | A(UP) | A(RIGHT) | A(LEFT) | A(UPFIRE) | A(RIGHTFIRE) |
	      A(LEFTFIRE), ATARI_FIRE, 1, 0xd3, 0, 5, 3, 1),
	MODED_M(1u, hero, "hero", "H.E.R.O.", "fca4a5be1251927027f2c24774a02160", G_HERO, ALL_ACTIONS,
	      0, 0, 0x80, 0, 1, 4, 0),
	/* James Bond and Kangaroo show their mode with an offset on the title screen. */
	{ "jamesbond", "James Bond 007", "e51030251e440cffaab1ac63438b44ae", G_JAMESBOND, 0,
	  ATARI_JOYSTICK, 0, 60, 34, 210, ALL_ACTIONS, 0, 0, 0x8c, 0, 0x8c, 0x48, 20, 6, 1,
	  0, 0, 0, 0, 0, 0, 0, MODES(m01), 1, 1u, 0, REF_ALE },
	{ "kangaroo", "Kangaroo", "4326edb70ff20d0ee5ba58fa5cb09d60", G_KANGAROO, 0,
	  ATARI_JOYSTICK, 0, 60, 34, 210, ALL_ACTIONS, 0, 0, 0xba, 0, 0xba, 0x80, 2, 3, 1,
	  0, 0, 0, 0, 0, 0, 0, MODES(m01), 1, 1u, 0, REF_ALE },
	MODED_M(1u, m0to4, "gravitar", "Gravitar", "8ac18076d01a6b63acf6e2cab4968940", G_GRAVITAR,
	      ALL_ACTIONS, ATARI_FIRE, 16, 0x80, 0, 10, 6, 0),
	MODED_M(3u, crazy_climber, "crazy_climber", "Crazy Climber", "55ef7b65066428367844342ed59f956c",
	      G_CRAZY_CLIMBER, A(NOOP) | A(UP) | A(RIGHT) | A(LEFT) | A(DOWN) | A(UPRIGHT) |
	      A(UPLEFT) | A(DOWNRIGHT) | A(DOWNLEFT), 0, 0, 0x80, 0, 2, 5, 0),
	MODED_M(1u, star_gunner, "star_gunner", "Star Gunner", "a3c1c70024d7aabb41381adbfb6d3b25", G_STAR_GUNNER,
	      ALL_ACTIONS, 0, 0, 0xf4, 0, 15, 5, 0),
	{ "battle_zone", "Battle Zone", "41f252a66c6301f1e8ab3612c19bc5d4", G_BATTLE_ZONE, 0,
	  ATARI_JOYSTICK, 0, 60, 34, 210, ALL_ACTIONS, 0, 0, 0xa1, 1, -1, 0, 2, 5, 1, 1, 0, 0,
	  0, 0, 0, 0, MODES(battle_zone), 1, 1u, 0, REF_ALE },
	MODED_M(3u, bowling, "bowling", "Bowling", "c9b7afad3bfd922e006a6bfc1d4f3fe7", G_BOWLING,
	      A(NOOP) | A(FIRE) | A(UP) | A(DOWN) | A(UPFIRE) | A(DOWNFIRE), 0, 0, 0x02, 0, 2,
	      0, 0),
	MODED_M(15u, private_eye, "private_eye", "Private Eye", "ef3a4f64b6494ba770862768caf04b86", G_PRIVATE_EYE,
	      ALL_ACTIONS, ATARI_UP, 1, 0x80, 0, 2, 0, 0),
	MODED_M(1u, tutankham, "tutankham", "Tutankham", "085322bae40d904f53bdcc56df0593fc", G_TUTANKHAM,
	      A(NOOP) | A(UP) | A(RIGHT) | A(LEFT) | A(DOWN) | A(UPFIRE) | A(RIGHTFIRE) |
	      A(LEFTFIRE), 0, 0, 0xab, 0, 2, 3, 0),
	MODED_M(1u, zaxxon, "zaxxon", "Zaxxon", "eea0da9b987d661264cce69a7c13c3bd", G_ZAXXON, ALL_ACTIONS,
	      0, 0, 0x82, 0, 10, 5, 0),
	MODED_M(3u, video_pinball, "video_pinball", "Video Pinball", "107cc025334211e6d29da0b6be46aec7",
	      G_VIDEO_PINBALL, A(NOOP) | A(FIRE) | A(UP) | A(RIGHT) | A(LEFT) | A(DOWN) |
	      A(UPFIRE) | A(RIGHTFIRE) | A(LEFTFIRE), 0, 0, 0xc1, 0, 2, 3, 0),
	MODED_M(1u, berzerk, "berzerk", "Berzerk", "136f75c4dd02c29283752b7e5799f978", G_BERZERK,
	      ALL_ACTIONS, 0, 0, 0x80, 1, 2, 3, 20 << 8),
	MODED_M(3u, defender, "defender", "Defender", "0f643c34e40e3f1daafd9c524d3ffe64", G_DEFENDER,
	      ALL_ACTIONS, 0, 0, 0x9b, 1, 2, 3, 0),
	MODED_M(15u, ice_hockey, "ice_hockey", "Ice Hockey", "a4c08c4994eb9d24fb78be1793e82e26", G_ICE_HOCKEY,
	      ALL_ACTIONS, 0, 0, 0x80, 0, 2, 0, 0),
	MODED_M(3u, name_this_game, "name_this_game", "Name This Game", "36306070f0c90a72461551a7a4f3a209",
	      G_NAME_THIS_GAME, A(NOOP) | A(FIRE) | A(RIGHT) | A(LEFT) | A(RIGHTFIRE) |
	      A(LEFTFIRE), 0, 0, 0xde, 0x08, 2, 3, 0),
	MODED_M(3u, yars_revenge, "yars_revenge", "Yars' Revenge", "c5930d0e8cdae3e037349bfa08e871be",
	      G_YARS_REVENGE, ALL_ACTIONS, ATARI_FIRE, 1, 0xe3, 0, 1, 4, 2),
	MODED_M(15u, tennis, "tennis", "Tennis", "42cdd6a9e42a3639e190722b8ea3fc51", G_TENNIS, ALL_ACTIONS,
	      0, 0, 0x80, 0, 2, 0, 0),
	/* The games below use the later fields: a second run of starting actions,
	 * the mode list and the difficulties. */
	XG("atlantis2", "Atlantis II", "826481f6fc53ea47c9f272f7050eedf7", G_ATLANTIS2,
	   ATARI_JOYSTICK, 34, 210, A(NOOP) | A(FIRE) | A(RIGHTFIRE) | A(LEFTFIRE),
	   0, 0, 0, 0, 0, NO_MODE, 0, NO_MODES, 0, D0, 0, 0, 0, 1),
	XG("blackjack", "Blackjack", "0a981c03204ac2b278ba392674682560", G_BLACKJACK,
	   ATARI_PADDLES, 34, 210, A(NOOP) | A(FIRE) | A(UP) | A(DOWN),
	   0, 0, 0, 0, 1, NO_MODE, 0, NO_MODES, 0, D0123, 0, 0, 795000, 1),
	XG("carnival", "Carnival", "028024fb8e5e5f18ea586652f9799c96", G_CARNIVAL,
	   ATARI_JOYSTICK, 26, 214, A(NOOP) | A(FIRE) | A(RIGHT) | A(LEFT) | A(RIGHTFIRE) |
	   A(LEFTFIRE), 0, 0, 0, 0, 0, NO_MODE, 0, NO_MODES, 0, D0, 0, 0, 0, 1),
	XG("darkchambers", "Dark Chambers", "106855474c69d08c8ffa308d47337269", G_DARKCHAMBERS,
	   ATARI_JOYSTICK, 34, 210, ALL_ACTIONS, ATARI_NOOP, 486, 0, 0, 1, NO_MODE, 0,
	   NULL, 0, 0, 0, D0, 1, 0, 0, 1),
	XG("donkey_kong", "Donkey Kong", "36b20c427975760cb9cf4a47e41369e4", G_DONKEY_KONG,
	   ATARI_JOYSTICK, 34, 210, ALL_ACTIONS, 0, 0, 0, 0, 2, NO_MODE, 0, NO_MODES, 0,
	   D0, 0, 0, 0, 1),
	XG("earthworld", "SwordQuest: EarthWorld", "5aea9974b975a6a844e6df10d2b861c4",
	   G_EARTHWORLD, ATARI_JOYSTICK, 34, 210, ALL_ACTIONS, 0, 0, 0, 0, 1, NO_MODE, 0,
	   NULL, 0, 0, 0, D0, 0, 0, 0, 1),
	XG("elevator_action", "Elevator Action", "71f8bacfbdca019113f3f0801849057e",
	   G_ELEVATOR_ACTION, ATARI_JOYSTICK, 34, 210, ALL_ACTIONS, ATARI_FIRE, 16, 0, 0, 4,
	   NO_MODE, 0, NO_MODES, 0, D0, 0, 0, 0, 1),
	XG("entombed", "Entombed", "6b683be69f92958abe0e2a9945157ad5", G_ENTOMBED,
	   ATARI_JOYSTICK, 34, 210, ALL_ACTIONS, ATARI_FIRE, 1, ATARI_NOOP, 5, 1, NO_MODE, 0,
	   NULL, 0, 0, 0, D02, 0, 0, 0, 1),
	XG("journey_escape", "Journey Escape", "718ae62c70af4e5fd8e932fee216948a",
	   G_JOURNEY_ESCAPE, ATARI_JOYSTICK, 34, 230,
	   A(NOOP) | A(UP) | A(RIGHT) | A(LEFT) | A(DOWN) | A(UPRIGHT) | A(UPLEFT) |
	   A(DOWNRIGHT) | A(DOWNLEFT) | A(RIGHTFIRE) | A(LEFTFIRE) | A(DOWNFIRE) |
	   A(UPRIGHTFIRE) | A(UPLEFTFIRE) | A(DOWNRIGHTFIRE) | A(DOWNLEFTFIRE),
	   ATARI_FIRE, 1, 0, 0, 0, NO_MODE, 0, NO_MODES, 0, D01, 0, 0, 0, 1),
	XG("kaboom", "Kaboom!", "5428cdfada281c569c74c7308c7f2c26", G_KABOOM, ATARI_PADDLES,
	   34, 210, A(NOOP) | A(FIRE) | A(RIGHT) | A(LEFT), ATARI_FIRE, 1, 0, 0, 1, NO_MODE,
	   0, NULL, 0, 0, 0, D0, 0, 0, 0, 1),
	XG("keystone_kapers", "Keystone Kapers", "6c1f3f2e359dbf55df462ccbcdd2f6bf",
	   G_KEYSTONE_KAPERS, ATARI_JOYSTICK, 34, 210, ALL_ACTIONS & ~(A(UPRIGHTFIRE) |
	   A(UPLEFTFIRE) | A(DOWNRIGHTFIRE) | A(DOWNLEFTFIRE)), ATARI_RESET, 1, 0, 0, 3,
	   NO_MODE, 0, NO_MODES, 0, D0, 0, 0, 0, 1),
	XG("koolaid", "Kool-Aid Man", "534e23210dd1993c828d944c6ac4d9fb", G_KOOLAID,
	   ATARI_JOYSTICK, 34, 210, A(NOOP) | A(UP) | A(RIGHT) | A(LEFT) | A(DOWN) |
	   A(UPRIGHT) | A(UPLEFT) | A(DOWNRIGHT) | A(DOWNLEFT), 0, 0, 0, 0, 0, NO_MODE, 0,
	   NULL, 0, 0, 0, D0, 0, 0, 0, 1),
	XG("laser_gates", "Laser Gates", "8e4cd60d93fcde8065c1a2b972a26377", G_LASER_GATES,
	   ATARI_JOYSTICK, 34, 210, ALL_ACTIONS, ATARI_RESET, 1, 0, 0, 0, NO_MODE, 0, NULL,
	   0, 0, 0, D0, 0, 0, 0, 1),
	XG("sir_lancelot", "Sir Lancelot", "dd0cbe5351551a538414fb9e37fc56e8", G_SIR_LANCELOT,
	   ATARI_JOYSTICK, 34, 210, A(NOOP) | A(FIRE) | A(RIGHT) | A(LEFT) | A(RIGHTFIRE) |
	   A(LEFTFIRE), ATARI_RESET, 1, ATARI_LEFT, 1, 3, NO_MODE, 0, NO_MODES, 0, D0, 0,
	   0, 0, 1),
	XG("superman", "Superman", "a9531c763077464307086ec9a1fd057d", G_SUPERMAN,
	   ATARI_JOYSTICK, 34, 210, ALL_ACTIONS, 0, 0, 0, 0, 1, NO_MODE, 0, NO_MODES, 0,
	   D0123, 0, 0, 0, 1),
	XG("tetris", "Tetris 2600", "b0e1ee07fbc73493eac5651a52f90f00", G_TETRIS,
	   ATARI_JOYSTICK, 34, 210, A(NOOP) | A(FIRE) | A(RIGHT) | A(LEFT) | A(DOWN),
	   0, 0, 0, 0, 0, NO_MODE, 0, NO_MODES, 0, D0, 0, 0, 0, 1),
	XG("trondead", "TRON: Deadly Discs", "fb27afe896e7c928089307b32e5642ee", G_TRONDEAD,
	   ATARI_JOYSTICK, 34, 210, ALL_ACTIONS, 0, 0, 0, 0, 5, NO_MODE, 0, NO_MODES, 0,
	   D01, 0, 0, 0, 1),
	XG("air_raid", "Air Raid", "35be55426c1fec32dfb503b4f0651572", G_AIR_RAID,
	   ATARI_JOYSTICK, 34, 210, A(NOOP) | A(FIRE) | A(RIGHT) | A(LEFT) | A(RIGHTFIRE) |
	   A(LEFTFIRE), ATARI_FIRE, 1, 0, 0, 1, 0xaa, 1, -1, 0, 10, 20, MODES(air_raid), 1,
	   D0, 0, 0, 0, 1),
	XG("crossbow", "Crossbow", "8cd26dcf249456fe4aeb8db42d49df74", G_CROSSBOW,
	   ATARI_JOYSTICK, 34, 210, ALL_ACTIONS, 0, 0, 0, 0, 1, 0x8d, 1, -1, 0, 2, 0,
	   MODES(crossbow), 1, D01, 0, 0, 0, 1),
	XG("frogger", "Frogger", "081e2c114c9c20b61acf25fc95c71bf4", G_FROGGER,
	   ATARI_JOYSTICK, 34, 210, A(NOOP) | A(UP) | A(RIGHT) | A(LEFT) | A(DOWN),
	   0, 0, 0, 0, 4, 0xdd, 1, -1, 0, 2, 0, MODES(m012), 2, D01, 0, 0, 0, 1),
	XG("galaxian", "Galaxian", "211774f4c5739042618be8ff67351177", G_GALAXIAN,
	   ATARI_JOYSTICK, 34, 210, A(NOOP) | A(FIRE) | A(RIGHT) | A(LEFT) | A(RIGHTFIRE) |
	   A(LEFTFIRE), 0, 0, 0, 0, 3, 0xb3, 1, -1, 0, 1, 0, MODES(galaxian), 1, D01, 0, 0, 0, 1),
	XG("king_kong", "King Kong", "0dd4c69b5f9a7ae96a7a08329496779a", G_KING_KONG,
	   ATARI_JOYSTICK, 34, 210, A(NOOP) | A(FIRE) | A(UP) | A(RIGHT) | A(LEFT) | A(DOWN),
	   0, 0, 0, 0, 3, 0xec, 0, -1, 0, 2, 0, MODES(m0123), 2, D0, 0, 0, 0, 1),
	XG("mr_do", "Mr. Do!", "aa7bb54d2c189a31bb1fa20099e42859", G_MR_DO, ATARI_JOYSTICK,
	   34, 210, A(NOOP) | A(FIRE) | A(UP) | A(RIGHT) | A(LEFT) | A(DOWN) | A(UPFIRE) |
	   A(RIGHTFIRE) | A(LEFTFIRE) | A(DOWNFIRE), ATARI_FIRE, 1, 0, 0, 4, 0x80, 0, -1, 0,
	   5, 0, MODES(m0123), 1, D0, 0, 0, 0, 1),
	XG("pooyan", "Pooyan", "4799a40b6e889370b7ee55c17ba65141", G_POOYAN, ATARI_JOYSTICK,
	   26, 220, A(NOOP) | A(FIRE) | A(UP) | A(DOWN) | A(UPFIRE) | A(DOWNFIRE),
	   0, 0, 0, 0, 3, 0xbd, 10, -1, 0, 2, 2, MODES(pooyan), 1, D0, 0, 0, 0, 1),
	XG("turmoil", "Turmoil", "7a5463545dfb2dcfdafa6074b2f2c15e", G_TURMOIL,
	   ATARI_JOYSTICK, 34, 210, A(NOOP) | A(FIRE) | A(UP) | A(RIGHT) | A(LEFT) | A(DOWN) |
	   A(UPRIGHT) | A(UPLEFT) | A(DOWNRIGHT) | A(DOWNLEFT) | A(RIGHTFIRE) | A(LEFTFIRE),
	   ATARI_FIRE, 1, 0, 0, 4, 0xea, 0, -1, 0, 2, 0, MODES(m0to8), 1, D0, 0, 0, 0, 1),
	XG("mario_bros", "Mario Bros.", "e908611d99890733be31733a979c62d8", G_MARIO_BROS,
	   ATARI_JOYSTICK, 34, 210, ALL_ACTIONS, ATARI_NOOP, 10, ATARI_FIRE, 7, 0, 0x80, 0,
	   -1, 0, 5, 0, MODES(m0246), 1, D0, 0, 0, 0, 1),
	XG("haunted_house", "Haunted House", "f0a6e99f5875891246c3dbecbf2d2cea",
	   G_HAUNTED_HOUSE, ATARI_JOYSTICK, 34, 210, ALL_ACTIONS, 0, 0, 0, 0, 9, 0xcc, 0, -1,
	   0, 2, 0, MODES(m0to8), 1, D01, 0, 0, 0, 1),
	XG("othello", "Othello", "113cd09c9771ac278544b7e90efe7df2", G_OTHELLO,
	   ATARI_JOYSTICK, 34, 210, A(NOOP) | A(FIRE) | A(UP) | A(RIGHT) | A(LEFT) | A(DOWN) |
	   A(UPRIGHT) | A(UPLEFT) | A(DOWNRIGHT) | A(DOWNLEFT), 0, 0, 0, 0, 1, 0xde, 1, -1, 0,
	   2, 0, MODES(m012), 1, D02, 0, 0, 0, 1),
	XG("surround", "Surround", "4d7517ae69f95cfbc053be01312b7dba", G_SURROUND,
	   ATARI_JOYSTICK, 34, 210, A(NOOP) | A(UP) | A(RIGHT) | A(LEFT) | A(DOWN),
	   0, 0, 0, 0, 1, 0xf9, 1, -1, 0, 2, 0, MODES(m02), 1, D0123, 0, 1, 0, 1),
	XG("et", "E.T. The Extra-Terrestrial", "615a3bf251a38eb6638cdc7ffbde5480", G_ET,
	   ATARI_JOYSTICK, 34, 210, ALL_ACTIONS, 0, 0, 0, 0, 0, 0xea, 1, -1, 0, 25, 0,
	   MODES(m012), 1, D0123, 0, 0, 0, 1),
	XG("pacman", "Pac-Man", "fc2233fc116faef0d3c31541717ca2db", G_PACMAN,
	   ATARI_JOYSTICK, 34, 210, A(NOOP) | A(UP) | A(RIGHT) | A(LEFT) | A(DOWN),
	   0, 0, 0, 0, 4, 0xcc, 1, 0xe6, 0, 2, 0, MODES(m0to7), 1, D01, 0, 0, 0, 1),
	XG("basic_math", "Basic Math", "819aeeb9a2e11deb54e6de334f843894", G_BASIC_MATH,
	   ATARI_JOYSTICK, 34, 210, A(NOOP) | A(FIRE) | A(UP) | A(RIGHT) | A(LEFT) | A(DOWN),
	   0, 0, 0, 0, 1, 0xc5, 5, -1, 0, 2, 0, MODES(basic_math), 1, D023, 0, 0, 0, 1),
	XG("flag_capture", "Flag Capture", "30512e0e83903fc05541d2f6a6a62654", G_FLAG_CAPTURE,
	   ATARI_JOYSTICK, 34, 210, ALL_ACTIONS, 0, 0, 0, 0, 1, 0xd6, 8, -1, 0, 2, 0,
	   MODES(flag_capture), 1, D0, 0, 0, 0, 1),
	XG("human_cannonball", "Human Cannonball", "7972e5101fa548b952d852db24ad6060",
	   G_HUMAN_CANNONBALL, ATARI_JOYSTICK, 34, 210, ALL_ACTIONS, 0, 0, 0, 0, 1, 0xb6, 1,
	   0xb7, 1, 2, 0, MODES(m0to7), 1, D01, 0, 0, 0, 1),
	XGI(FIRE_ACTIONS, "lost_luggage", "Lost Luggage", "2d76c5d1aad506442b9e9fb67765e051",
	    G_LOST_LUGGAGE, ATARI_JOYSTICK, 34, 210, A(NOOP) | A(UP) | A(RIGHT) | A(LEFT) |
	    A(DOWN) | A(UPRIGHT) | A(UPLEFT) | A(DOWNRIGHT) | A(DOWNLEFT), ATARI_FIRE, 1, 0, 0,
	    3, 0x94, 1, -1, 0, 2, 0, MODES(m01), 3, D01, 0, 0, 0, 1),
	XG("space_war", "Space War", "b702641d698c60bcdc922dbd8c9dd49c", G_SPACE_WAR,
	   ATARI_JOYSTICK, 34, 210, ALL_ACTIONS, 0, 0, 0, 0, 1, 0xa7, 6, -1, 0, 2, 0,
	   MODES(space_war), -1, D0, 0, 0, 0, 1),
	XG("hangman", "Hangman", "f16c709df0a6c52f47ff52b9d95b7d8d", G_HANGMAN, ATARI_JOYSTICK,
	   34, 210, ALL_ACTIONS, 0, 0, 0, 0, 1, 0xee, 0, -1, 0, 2, 0, MODES(m0123), 1, D01,
	   0, 0, 0, 1),
	XG("tic_tac_toe_3d", "3-D Tic-Tac-Toe", "0db4f4150fecf77e4ce72ca4d04c052f",
	   G_TIC_TAC_TOE_3D, ATARI_JOYSTICK, 34, 210, MOVE_ACTIONS, 0, 0, 0, 0, 1, 0x88, 0, -1,
	   0, 2, 0, MODES(m0to8), 1, D02, 0, 0, 0, 1),
	XG("video_chess", "Video Chess", "f0b7db930ca0e548c41a97160b9f6275", G_VIDEO_CHESS,
	   ATARI_JOYSTICK, 34, 210, MOVE_ACTIONS, 0, 0, 0, 0, 1, 0xea, 0, -1, 0, 1, 0,
	   MODES(m0to4), 1, D0, 0, 0, 0, 1),
	XG("casino", "Casino", "b816296311019ab69a21cb9e9e235d12", G_CASINO, ATARI_PADDLES,
	   34, 210, A(NOOP) | A(FIRE) | A(UP) | A(DOWN), ATARI_NOOP, 60, ATARI_FIRE, 2, 1, 0xd4,
	   0, -1, 0, 2, 0, MODES(casino), 1, D0123, 0, 0, 0, 1),
	/* ALE widens the paddle's range so that the cursor reaches the whole board. */
	XG("backgammon", "Backgammon", "8556b42aa05f94bc29ff39c39b11bff4", G_BACKGAMMON,
	   ATARI_PADDLES, 34, 210, A(FIRE) | A(RIGHT) | A(LEFT), 0, 0, 0, 0, 1, 0xdc, 3, -1, 0,
	   1, 0, MODES(m0), 1, D3, 0, 0, 1000000, 1),
	/* Modes 11-19 (reverse checkers) show as 17-25 in RAM: atari_game_mode_value(). */
	XG("video_checkers", "Video Checkers", "539d26b6e9df0da8e7465f0f5ad863b7",
	   G_VIDEO_CHECKERS, ATARI_JOYSTICK, 34, 210, A(FIRE) | A(UPRIGHT) | A(UPLEFT) |
	   A(DOWNRIGHT) | A(DOWNLEFT), 0, 0, 0, 0, 1, 0xf6, 1, -1, 0, 1, 0,
	   MODES(video_checkers), 1, D0, 0, 0, 0, 1),
	/* The level is bits 1-2 of $DD; SELECT is held a random time (-1). */
	XG("adventure", "Adventure", "4b27f5397c442d25f0c418ccdacf1926", G_ADVENTURE,
	   ATARI_JOYSTICK, 34, 210, ALL_ACTIONS, 0, 0, 0, 0, 1, 0xdd, 0, -1, 0, -1, 0,
	   MODES(m012), 1, D0123, 0, 0, 0, 1),
	XG("word_zapper", "Word Zapper", "ec3beb6d8b5689e867bafb5d5f507491", G_WORD_ZAPPER,
	   ATARI_JOYSTICK, 34, 210, ALL_ACTIONS, ATARI_NOOP, 486, ATARI_FIRE, 1, 1, 0xdb, 0, -1,
	   0, 2, 0, MODES(m0to23), 1, D0123, 0, 0, 0, 1),
	/* ALE's mode c * 100 + v is game variation 1, 3 or 9 (v 0-2, RAM 0, 2, 8)
	 * of cube c (1 for modes 0-2): atari_game_mode_action() picks the cube. */
	XG("video_cube", "Atari Video Cube", "3f540a30fdee0b20aed7288e4a5ea528", G_VIDEO_CUBE,
	   ATARI_JOYSTICK, 34, 210, ALL_ACTIONS, ATARI_NOOP, 61, ATARI_FIRE, 1, 1, 0xfb, 0, -1,
	   0, 2, 0, MODES(video_cube), 0, D01, 0, 0, 0, 1),
	/* The score, the misses and the mode are in the cartridge's RAM. */
	XG("klax", "Klax", "eed9eaf1a0b6a2b9bc4c8032cb43e3fb", G_KLAX, ATARI_JOYSTICK, 34, 210,
	   ALL_ACTIONS, ATARI_FIRE, 1, ATARI_NOOP, 1, 1, 0xf0ea, 0, -1, 0, 2, 0, MODES(m012), 1,
	   D0, 0, 0, 0, 1),
	/* Modes: bits 0-3 turn on four options of the game's menu (-2: a menu). */
	XG("double_dunk", "Double Dunk", "368d88a6c071caba60b4f778615aae94", G_DOUBLE_DUNK,
	   ATARI_JOYSTICK, 34, 210, ALL_ACTIONS, ATARI_UPFIRE, 1, 0, 0, 0, 0x80, 0, -1, 0, -2, 0,
	   MODES(m0to15), 1, D0, 0, 0, 0, 1),
	/* DPC: the CPU's dummy reads are not made (machine.c, bus_dummy). */
	XG("pitfall2", "Pitfall II: Lost Caverns", "6d842c96d5a01967be9680080dd5be54", G_PITFALL2,
	   ATARI_JOYSTICK, 34, 210, ALL_ACTIONS, ATARI_UP, 1, 0, 0, 1, NO_MODE, 0, NO_MODES, 0,
	   D0, 0, 0, 0, 1),
	/* Scored per hole: par less the hits, when the hole is done. */
	XG("miniature_golf", "Miniature Golf", "df62a658496ac98a3aa4a6ee5719c251",
	   G_MINIATURE_GOLF, ATARI_JOYSTICK, 34, 210, ALL_ACTIONS, 0, 0, 0, 0, 1, NO_MODE, 0,
	   NO_MODES, 0, D01, 0, 0, 0, 1),
	/*
	 * Two-player games, as multi-agent ALE defines them, seen by player A
	 * with the other players idle.  Combat: the score difference, the game
	 * over when a player reaches 99 or the timer ends ($88); its modes are
	 * all two-player games (RAM $80 is the mode less 1).
	 */
	MA("combat", "Combat", "0ef64cdbecccb7049752a3de0b7ade14", G_COMBAT, ATARI_JOYSTICK, 39,
	   256, ALL_ACTIONS, 0, 0x80, 0, 1, combat, 0, 27, 0, D0123, 0),
	/* Joust: player A's score and lives; modes 0 and 2 one player, 1 and 3
	 * two (the mode is $F8 mod 4). */
	MA("joust", "Joust", "3276c777cbe97cdd2b4a63ffc16b7151", G_JOUST, ATARI_JOYSTICK, 34, 210,
	   ALL_ACTIONS, 5, 0xf8, 0, 1, joust, 2, 2, 0, D0, 0),
	/* Maze Craze: -1 when player A is caught, 1 or -1 for the maze's end;
	 * lives 0, or -1 once caught.  A PAL cartridge by its properties. */
	MA("maze_craze", "Maze Craze", "ed2218b3075d15eaa34e3356025ccca3", G_MAZE_CRAZE,
	   ATARI_JOYSTICK, 34, 250, ALL_ACTIONS, 0, 0xbd, 0, 2, maze_craze, 0, 64, 0, D0, 1),
	/* Warlords: -1 when player A's castle falls, 1 for the last lord
	 * standing; lives 0, or -1 once fallen.  Four paddles. */
	MA("warlords", "Warlords", "cbe5a166550a8129a5e6d374901dffad", G_WARLORDS, ATARI_PADDLES,
	   34, 210, A(NOOP) | A(FIRE) | A(RIGHT) | A(LEFT) | A(RIGHTFIRE) | A(LEFTFIRE), 0, 0xd9,
	   3, 1, warlords, 4, 9, 5, D0, 0),
};
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

HOSTDEV int atari_game_sticky_draws(const struct atari_game *g, int mode)
{
	int i = 0;

	if (g->reference != ATARI_REF_MULTI_AGENT)
		return 2;
	while (i < g->n_modes && g->modes[i] != mode)
		i++;
	return i < g->mode_players[0] ? 1 : i < g->mode_players[0] + g->mode_players[1] ? 2 : 4;
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

HOSTDEV void atari_game_reset(const struct atari_game *g, struct atari_game_state *s)
{
	memset(s, 0, sizeof(*s));
	s->lives = g->lives_at_reset;
	s->last_lives = g->id == G_RIVERRAID ? 0x58 :
			(g->id == G_TENNIS || g->id == G_DARKCHAMBERS || g->id == G_HAUNTED_HOUSE ||
			 g->id == G_OTHELLO) ? 0 : 2;
	if (g->id == G_PITFALL)
		s->score = 2000;
	if (g->id == G_HANGMAN || g->id == G_VIDEO_CUBE)
		s->last_lives = -1;
	if (g->id == G_PRIVATE_EYE)
		s->score = 1000;
	if (g->id == G_PITFALL2)
		s->score = 4000;
	if (g->id == G_MAZE_CRAZE)
		s->last_lives = 0;
	s->keep_lives = g->reference == ATARI_REF_MULTI_AGENT;
}

HOSTDEV void atari_game_mode_selected(const struct atari_game *g, int mode,
				      struct atari_game_state *s)
{
	if (g->id == G_DEMON_ATTACK)
		s->started = 1;
	if (g->id == G_VIDEO_CHECKERS)
		s->started = mode >= 11;
	if (g->id == G_JOUST)		/* a two-player game */
		s->started = mode & 1;
}

HOSTDEV int atari_game_mode_value(const struct atari_game *g, int mode)
{
	if (g->mode_mul < 0)
		return (mode / 10) << 4 | mode % 10;
	if (g->id == G_VIDEO_CHECKERS && mode >= 11)
		return mode + 6;
	if (g->id == G_MS_PACMAN)	/* game 1 (variation 1 in mode_addr2), or game m */
		return mode ? mode : 1;
	if (g->id == G_VIDEO_CUBE)	/* variations 1, 3 and 9 */
		return mode % 100 == 0 ? 0 : mode % 100 == 1 ? 2 : 8;
	return g->mode_value + (mode - atari_game_default_mode(g)) * g->mode_mul;
}

HOSTDEV int atari_game_mode_ok(const struct atari_game *g, int mode, const uint8_t *ram,
			       const uint8_t *cart_ram)
{
	int v = g->mode_addr > 0xff ? cart_ram[g->mode_addr & 0x7f] : ram[g->mode_addr & 0x7f];
	int want = atari_game_mode_value(g, mode), want2 = g->mode_value2;

	if (g->id == G_VIDEO_CUBE)	/* the top bits hold something else */
		v &= 0x1f;
	if (g->id == G_ADVENTURE)
		v = (v >> 1) & 3;
	if (g->id == G_JOUST)
		v &= 3;
	if (g->mode_addr2 == g->mode_addr)	/* either value */
		return v == want || v == want - g->mode_value + g->mode_value2;
	if (g->id == G_MS_PACMAN && mode != 0)	/* games 1-3 in variation 0 */
		want2 = 0;
	return v == want && (g->mode_addr2 < 0 || ram[g->mode_addr2 & 0x7f] == want2);
}

/* Double Dunk's menu, 9 steps: the option bit (in $80) each step sets,
 * 0 for a step down to the next line of the menu (which $B0 shows). */
#define DUNK_STEPS 9
static HOSTDEV int dunk_bit(int op)
{
	switch (op) {
	case 2: return 0x08;	/* 3-point shots */
	case 4: return 0x10;	/* 10-second rule */
	case 6: return 0x04;	/* 3-second rule */
	case 8: return 0x20;	/* fouls */
	default: return 0;
	}
}

HOSTDEV int atari_game_menu_action(const struct atari_game *g, int mode, const uint8_t *ram,
				   int st[3])
{
	for (;;) {
		int op = st[0], bit, on;

		if (st[1]) {		/* each move is followed by a NOOP step */
			st[1] = 0;
			return ATARI_NOOP;
		}
		if (op == DUNK_STEPS)
			break;
		if (op > DUNK_STEPS)
			return op == DUNK_STEPS + 1 ? (st[0]++, ATARI_UPFIRE) :
			       op == DUNK_STEPS + 2 ? (st[0]++, ATARI_NOOP) : -1;
		bit = dunk_bit(op);
		if (bit == 0) {		/* down until the line changes */
			if (st[2] >= 0 && (int)ram[0xb0 & 0x7f] != st[2]) {
				st[0]++;
				st[2] = -1;
				continue;
			}
			if (st[2] < 0)
				st[2] = ram[0xb0 & 0x7f];
			st[1] = 1;
			return ATARI_DOWN;
		}
		on = (mode >> ((op - 2) / 2)) & 1;	/* ops 2, 4, 6, 8: mode bits 0-3 */
		if (((ram[0x80 & 0x7f] & bit) == bit) == on) {
			st[0]++;
			continue;
		}
		st[1] = 1;
		return on ? ATARI_RIGHT : ATARI_LEFT;
	}
	st[0]++;
	return -2;		/* the console's reset, then UPFIRE and NOOP steps */
}

HOSTDEV int atari_game_mode_action(const struct atari_game *g, int mode, const uint8_t *ram)
{
	int cube = mode >= 100 ? mode / 100 : 1;

	if (g->id != G_VIDEO_CUBE)
		return -1;
	/* RIGHT steps the cube number, BCD in $9F, on while it is held. */
	return 10 * (ram[0x9f & 0x7f] >> 4) + (ram[0x9f & 0x7f] & 15) == cube ? -1 : ATARI_RIGHT;
}

HOSTDEV int atari_game_start_action(const struct atari_game *g, int i)
{
	if (i < g->n_start_actions)
		return g->start_action;
	i -= g->n_start_actions;
	if (i < g->n_start_actions2)
		return g->start_action2;
	i -= g->n_start_actions2;
	/* Word Zapper and Video Cube wait two frames after pressing FIRE */
	if ((g->id == G_WORD_ZAPPER || g->id == G_VIDEO_CUBE) && i < 2)
		return ATARI_NOOP;
	return -1;
}

/* ALE's getDecimalScore with one, two or three BCD bytes. */
static HOSTDEV int bcd1(const uint8_t *ram, int i)
{
	int v = ram[i & 0x7f];

	return 10 * (v >> 4) + (v & 15);
}

static HOSTDEV int bcd2(const uint8_t *ram, int lo, int mid)
{
	int v = ram[mid & 0x7f];

	return bcd1(ram, lo) + 1000 * (v >> 4) + 100 * (v & 15);
}

static HOSTDEV int bcd3(const uint8_t *ram, int lo, int mid, int hi)
{
	int v = ram[hi & 0x7f];

	return bcd2(ram, lo, mid) + 100000 * (v >> 4) + 10000 * (v & 15);
}

#define RAM(i) ((int)ram[(i) & 0x7f])

static HOSTDEV void set_score(struct atari_game_state *s, int score)
{
	s->reward = score - s->score;
	s->score = score;
}

HOSTDEV void atari_game_step(const struct atari_game *g, const uint8_t *ram,
			     const uint8_t *cart_ram, struct atari_game_state *s)
{
	int score, v;

	switch (g->id) {
	case G_PONG:
		set_score(s, RAM(14) - RAM(13));
		s->terminal = RAM(13) == 21 || RAM(14) == 21;
		break;
	case G_BREAKOUT:
		set_score(s, (RAM(77) & 15) + 10 * (RAM(77) >> 4) + 100 * (RAM(76) & 15));
		v = RAM(57);
		if (!s->started && v == 5)
			s->started = 1;
		s->terminal = s->started && v == 0;
		s->lives = v;
		break;
	case G_SPACE_INVADERS:
		score = bcd2(ram, 0xe8, 0xe6);
		s->reward = score - s->score;
		if (s->reward < 0)
			s->reward = (10000 - s->score) + score;
		s->score = score;
		s->lives = RAM(0xc9);
		s->terminal = (RAM(0x98) & 0x80) || s->lives == 0;
		break;
	case G_SEAQUEST:
		set_score(s, bcd3(ram, 0xba, 0xb9, 0xb8));
		s->terminal = RAM(0xa3) != 0;
		s->lives = RAM(0xbb) + 1;
		break;
	case G_QBERT:
		v = RAM(0x88);
		s->terminal = v == 0xfe || (v == 0x02 && s->last_lives == -1);
		if (s->last_lives - 1 == (int8_t)v)
			s->lives--;
		s->last_lives = (int8_t)v;
		if (!s->terminal)
			set_score(s, bcd3(ram, 0xdb, 0xda, 0xd9));
		else
			s->reward = 0;
		break;
	case G_BEAM_RIDER:
		set_score(s, bcd3(ram, 9, 10, 11));
		v = RAM(0x85) + 1;
		if (v == s->lives - 1) {
			if (RAM(0x8c) == 0x01)
				s->lives = v;
		} else {
			s->lives = v;
		}
		s->terminal = RAM(5) == 255;
		break;
	case G_ENDURO:
		score = 0;
		v = RAM(0xad);
		if (v != 0) {
			int cars = bcd2(ram, 0xab, 0xac);

			cars = (v == 1 ? 200 : 300) - cars;
			if (v >= 2)
				score = 200 + (v - 2) * 300;
			score += cars;
		}
		set_score(s, score);
		s->terminal = RAM(0xaf) == 0xff;
		break;
	case G_MS_PACMAN:
		set_score(s, bcd3(ram, 0xf8, 0xf9, 0xfa));
		v = RAM(0xfb) & 15;
		s->terminal = v == 0 && RAM(0xa7) == 0x53;
		s->lives = (v & 7) + 1;
		break;
	case G_ASTERIX:
		set_score(s, bcd3(ram, 0xe0, 0xdf, 0xde));
		s->lives = RAM(0xd3) & 15;
		s->terminal = RAM(0xc7) == 0x01 && s->lives == 1;
		break;
	case G_BOXING: {
		int me = bcd1(ram, 0x92), them = bcd1(ram, 0x93);

		if (RAM(0x92) == 0xc0)
			me = 100;
		if (RAM(0x93) == 0xc0)
			them = 100;
		set_score(s, me - them);
		if (me == 100 || them == 100)
			s->terminal = 1;
		else
			s->terminal = (RAM(0x90) >> 4) == 0 &&
				      (RAM(0x91) & 15) + (RAM(0x91) >> 4) * 10 == 0;
		break;
	}
	case G_FREEWAY:
		score = bcd1(ram, 103);
		s->reward = score - s->score;
		if (s->reward < 0)
			s->reward = 0;
		if (s->reward > 1)
			s->reward = 1;
		s->score = score;
		s->terminal = RAM(22) == 1;
		break;
	case G_ASTEROIDS:
		score = bcd2(ram, 0xbe, 0xbd) * 10;
		s->reward = score - s->score;
		if (s->reward < 0)
			s->reward += 100000;
		s->score = score;
		v = RAM(0xbc);
		s->lives = (v - (v & 15)) >> 4;
		s->terminal = s->lives == 0;
		break;
	case G_ATLANTIS: {
		int old = s->score;

		set_score(s, bcd3(ram, 0xa2, 0xa3, 0xa1) * 100);
		s->lives = RAM(0xf1);
		s->terminal = s->lives == 0xff;
		if (s->terminal) {
			s->reward = 0;
			s->score = old;
		}
		break;
	}
	case G_FROSTBITE:
		set_score(s, bcd3(ram, 0xca, 0xc9, 0xc8));
		v = RAM(0xcc) & 15;
		s->terminal = v == 0 && (RAM(0xf1) & 0x80) != 0;
		s->lives = v + 1;
		break;
	case G_MONTEZUMA:
		set_score(s, bcd3(ram, 0x95, 0x94, 0x93));
		v = RAM(0xba);
		s->terminal = v == 0 && RAM(0xfe) == 0x60;
		s->lives = (v & 7) + 1;
		break;
	case G_AMIDAR:
		set_score(s, bcd3(ram, 0xd9, 0xda, 0xdb));
		v = RAM(0xd6);
		s->terminal = v == 0x80;
		s->lives = v & 15;
		break;
	case G_ASSAULT:
		set_score(s, bcd3(ram, 0x82, 0x81, 0x80));
		s->lives = RAM(0xe5);
		s->terminal = s->lives == 0;
		break;
	case G_KRULL:
		set_score(s, bcd3(ram, 0x9e, 0x9d, 0x9c));
		v = RAM(0x9f);
		s->terminal = v == 0 && RAM(0xa2) == 0x03 && RAM(0x80) == 0x80;
		s->lives = (v & 7) + 1;
		break;
	case G_KUNG_FU_MASTER:
		set_score(s, bcd3(ram, 0x9a, 0x99, 0x98));
		v = RAM(0x9d);
		s->terminal = v == 0xff;
		s->lives = (v & 7) + 1;
		break;
	case G_PHOENIX:
		set_score(s, (bcd2(ram, 0xc8, 0xc9) * 10 + (RAM(0xc7) >> 4)) * 10);
		s->terminal = RAM(0xcc) == 0x80;
		s->lives = RAM(0xcb) & 7;
		break;
	case G_RIVERRAID: {
		int mult = 1;

		score = 0;
		for (int i = 0; i < 6; i++, mult *= 10) {
			v = RAM(87 - 2 * i);	/* digits at 87, 85, ... 77 */
			score += (v % 8 == 0 && v <= 72 ? v / 8 : 0) * mult;
		}
		set_score(s, score);
		v = RAM(0xc0);
		s->terminal = v == 0x58 && s->last_lives == 0x59;
		s->last_lives = v;
		s->lives = v == 0x58 ? 4 : v == 0x59 ? 1 : v / 8 + 1;
		break;
	}
	case G_ROAD_RUNNER: {
		int mult = 1;

		score = 0;
		for (int i = 0; i < 4; i++, mult *= 10) {
			v = RAM(0xc9 + i) & 15;
			score += (v == 10 ? 0 : v) * mult;
		}
		set_score(s, score * 100);
		v = RAM(0xc4) & 7;
		s->terminal = v == 0 && (RAM(0xb9) != 0 || RAM(0xbd) != 0);
		s->lives = v + 1;
		break;
	}
	case G_ROBOTANK:
		set_score(s, RAM(0xb6) * 12 + RAM(0xb5));
		v = RAM(0xa8);
		s->terminal = v == 0 && RAM(0xb4) == 0xff;
		s->lives = (v & 15) + 1;
		break;
	case G_FISHING_DERBY: {
		int me = bcd1(ram, 0xbd), them = bcd1(ram, 0xbe);

		set_score(s, (me > 0 ? me : 0) - (them > 0 ? them : 0));
		s->terminal = RAM(0xbd) == 0x99 || RAM(0xbe) == 0x99;
		break;
	}
	case G_PITFALL:
		set_score(s, bcd3(ram, 0xd7, 0xd6, 0xd5));
		v = RAM(0x80) >> 4;
		s->terminal = v == 0 && RAM(0x9e) != 0;
		s->lives = v == 0xa ? 3 : v == 0x8 ? 2 : 1;
		break;
	case G_SKIING:
		score = RAM(0xe8) * 6000 + bcd2(ram, 0xea, 0xe9);
		s->reward = s->score - score;
		s->score = score;
		s->terminal = RAM(0x91) == 0xff;
		break;
	case G_SOLARIS:
		set_score(s, bcd3(ram, 0xdc, 0xdd, 0xde) * 10);
		v = RAM(0xd9);
		s->terminal = v == 0;
		s->lives = v & 15;
		break;
	case G_TIME_PILOT:
		set_score(s, bcd2(ram, 0x8d, 0x8f) * 100);
		s->terminal = RAM(0xa0) != 0;
		if ((RAM(0x80) & 15) == 2)
			s->lives = (RAM(0x8b) & 7) + 1;
		break;
	case G_UP_N_DOWN:
		set_score(s, bcd3(ram, 0x82, 0x81, 0x80));
		v = RAM(0x86) & 15;
		s->terminal = RAM(0x94) > 0x40 && v == 0;
		s->lives = v + 1;
		break;
	case G_VENTURE:
		set_score(s, bcd2(ram, 0xc8, 0xc7) * 100);
		v = RAM(0xc6);
		s->terminal = v == 0 && RAM(0xcd) == 0xff && (RAM(0xbf) & 0x80);
		s->lives = (v & 7) + 1;
		break;
	case G_WIZARD_OF_WOR:
		score = bcd2(ram, 0x86, 0x88);
		if (score >= 8000)
			score -= 8000;
		set_score(s, score * 100);
		v = RAM(0x8d) & 15;
		s->terminal = v == 0 && RAM(0xf4) == 0xf8;
		if ((RAM(0xd7) & 1) == 0)
			s->lives = v;
		break;
	case G_ALIEN:
		score = 0;
		for (int i = 0, mult = 1; i < 5; i++, mult *= 10) {
			v = RAM(0x8b - 2 * i);	/* digits at $8B, $89, ... $83 */
			score += (v == 0x80 ? 0 : v >> 3) * mult;
		}
		set_score(s, score * 10);
		s->lives = RAM(0xc0) & 15;
		s->terminal = s->lives <= 0;
		break;
	case G_BANK_HEIST:
		set_score(s, bcd3(ram, 0xda, 0xd9, 0xd8));
		s->lives = RAM(0xd5);
		s->terminal = RAM(0xce) == 0x01 && s->lives == 0;
		break;
	case G_CENTIPEDE:
		set_score(s, bcd3(ram, 118, 117, 116));
		if (s->reward < 0)
			s->reward = 0;
		s->lives = ((RAM(0xed) >> 4) & 7) + 1;
		s->terminal = (RAM(0xa6) & 0x40) != 0;
		break;
	case G_CHOPPER_COMMAND:
		set_score(s, bcd2(ram, 0xee, 0xec) * 100);
		s->lives = RAM(0xe4) & 15;
		s->started |= RAM(0xc2) & 1;
		s->terminal = s->started && s->lives == 0;
		break;
	case G_DEMON_ATTACK:
		score = bcd3(ram, 0x85, 0x83, 0x81);
		if (RAM(0x81) == 0xab && RAM(0x83) == 0xcd && RAM(0x85) == 0xea)
			score = 0;
		set_score(s, score);
		v = RAM(0xf2);
		s->terminal = v == 0 && RAM(0xf1) == 0xbd && !s->started;
		s->lives = v + 1;
		s->started = 0;		/* the level change noted by mode selection */
		break;
	case G_GOPHER:
		set_score(s, bcd3(ram, 0xb2, 0xb1, 0xb0));
		v = RAM(0xb4) & 7;
		s->terminal = v == 0;
		s->lives = (v & 1) + ((v >> 1) & 1) + ((v >> 2) & 1);
		break;
	case G_HERO:
		set_score(s, bcd3(ram, 0xb9, 0xb8, 0xb7));
		s->lives = RAM(0xb3);
		s->terminal = s->lives == 0;
		break;
	case G_JAMESBOND:
		set_score(s, bcd3(ram, 0xdc, 0xdd, 0xde));
		v = RAM(0x86) & 15;
		s->terminal = v == 0 && RAM(0x8c) == 0x68;
		s->lives = v + 1;
		break;
	case G_KANGAROO:
		set_score(s, bcd2(ram, 0xa8, 0xa7) * 100);
		v = RAM(0xad);
		s->terminal = v == 0xff;
		s->lives = (v & 7) + 1;
		break;
	case G_GRAVITAR:
		set_score(s, bcd3(ram, 9, 8, 7));
		v = RAM(0x81);
		s->terminal = v == 0x01;
		s->lives = v == 0 ? 6 : RAM(0x84) + 1;
		break;
	case G_CRAZY_CLIMBER:
		score = (RAM(0x82) + 10 * RAM(0x83) + 100 * RAM(0x84) + 1000 * RAM(0x85)) * 100;
		s->reward = score - s->score;
		if (s->reward < 0)
			s->reward = 0;
		s->score = score;
		s->lives = RAM(0xaa);
		s->terminal = s->lives == 0;
		break;
	case G_STAR_GUNNER:
		score = 0;
		for (int i = 0, mult = 1; i < 4; i++, mult *= 10) {
			v = RAM(0x83 + i) & 15;
			score += (v == 10 ? 0 : v) * mult;
		}
		set_score(s, score * 100);
		v = RAM(0x87);
		s->terminal = v == 0;
		s->started |= v == 0x05;
		s->lives = s->started ? (v & 15) : 5;
		break;
	case G_BATTLE_ZONE: {
		int lo = RAM(0x9d) >> 4, d1 = RAM(0x9e) & 15, d2 = RAM(0x9e) >> 4;

		set_score(s, ((lo == 10 ? 0 : lo) + 10 * (d1 == 10 ? 0 : d1) +
			      100 * (d2 == 10 ? 0 : d2)) * 1000);
		s->lives = RAM(0xba) & 15;
		s->terminal = s->lives == 0;
		break;
	}
	case G_BOWLING:
		set_score(s, bcd2(ram, 0xa1, 0xa6));
		s->terminal = RAM(0xa4) > 0x10;
		break;
	case G_PRIVATE_EYE:
		set_score(s, bcd3(ram, 0xca, 0xc9, 0xc8));
		v = RAM(0xc2);
		s->terminal = v != 0x00 && v != 0x01;
		break;
	case G_TUTANKHAM:
		set_score(s, bcd2(ram, 0x9c, 0x9a));
		v = RAM(0x9e);
		s->terminal = v == 0 && RAM(0x81) != 0x84;
		s->lives = v & 3;
		break;
	case G_ZAXXON:
		set_score(s, bcd2(ram, 0xe9, 0xe8) * 100);
		s->lives = RAM(0xea) & 7;
		s->terminal = s->lives == 0;
		break;
	case G_VIDEO_PINBALL:
		set_score(s, bcd3(ram, 0xb0, 0xb2, 0xb4));
		s->terminal = (RAM(0xaf) & 1) != 0;
		s->lives = 4 + (RAM(0xa8) & 1) - (RAM(0x99) & 7);
		break;
	case G_BERZERK:
		set_score(s, bcd3(ram, 95, 94, 93));
		v = RAM(0xda);
		s->terminal = v == 0xff;
		s->lives = v + 1;
		break;
	case G_DEFENDER:
		score = 0;
		for (int i = 0, mult = 1; i < 6; i++, mult *= 10) {
			v = RAM(0x9c + i) & 15;
			score += (v == 10 ? 0 : v) * mult;
		}
		set_score(s, score);
		s->lives = RAM(0xc2);
		s->terminal = s->lives == 0;
		break;
	case G_ICE_HOCKEY: {
		int me = bcd1(ram, 0x8a), them = bcd1(ram, 0x8b);

		score = (me > 0 ? me : 0) - (them > 0 ? them : 0);
		s->reward = score - s->score < 1 ? score - s->score : 1;
		s->score = score;
		s->terminal = RAM(0x87) == 0 && RAM(0x86) == 0;
		break;
	}
	case G_NAME_THIS_GAME:
		set_score(s, bcd3(ram, 0xc6, 0xc5, 0xc4));
		s->lives = RAM(0xc7) & 7;
		s->terminal = s->lives == 0;
		break;
	case G_YARS_REVENGE:
		set_score(s, bcd3(ram, 0xe2, 0xe1, 0xe0));
		s->lives = RAM(0x9e) >> 4;
		s->terminal = s->lives == 0;
		break;
	case G_TENNIS: {
		/* score holds the previous difference of games, last_lives of points */
		int dpoints = RAM(0xc7) - RAM(0xc8), dscore = RAM(0xc5) - RAM(0xc6);

		if (s->score != dpoints)
			s->reward = dpoints - s->score;
		else if (s->last_lives != dscore)
			s->reward = dscore - s->last_lives;
		else
			s->reward = 0;
		s->score = dpoints;
		s->last_lives = dscore;
		s->terminal = (RAM(0xc7) >= 6 && dpoints >= 2) || (RAM(0xc8) >= 6 && -dpoints >= 2) ||
			      RAM(0xc7) == 7 || RAM(0xc8) == 7;
		break;
	}
	case G_ATLANTIS2:
		s->lives = RAM(0xf1);
		s->terminal = s->lives == 0xff;
		if (s->terminal)
			s->reward = 0;
		else
			set_score(s, bcd3(ram, 0xa1, 0xa2, 0xa3));
		break;
	case G_BLACKJACK: {
		int bust = RAM(0x86) == 0x0b && RAM(0x89) == 0xbb;

		score = bust ? 0 : bcd2(ram, 0x89, 0x86);
		set_score(s, score);
		s->terminal = bust || score >= 1000;
		break;
	}
	case G_CARNIVAL:
		set_score(s, 10 * bcd2(ram, 0xae, 0xad));
		s->terminal = RAM(0x83) < 1;
		break;
	case G_DARKCHAMBERS:
		/* last_lives holds the level */
		s->reward = 0;
		v = RAM(0xd5);
		if (v < s->last_lives) {
			s->terminal = 1;
			break;
		}
		s->last_lives = v;
		score = 10 * bcd2(ram, 0xcc, 0xcf);
		if (score < s->score)
			s->terminal = 1;
		else
			set_score(s, score);
		if ((RAM(0xca) & 0x1f) == 0)
			s->terminal = 1;
		break;
	case G_DONKEY_KONG:
		set_score(s, 100 * bcd2(ram, 0x88, 0x87));
		s->lives = RAM(0xa3);
		s->terminal = s->lives == 0 && RAM(0x8f) == 0x03 && RAM(0x8b) == 0x1f;
		break;
	case G_EARTHWORLD:
		set_score(s, bcd1(ram, 0xa7));
		s->terminal = s->score == 10;
		break;
	case G_ELEVATOR_ACTION:
		set_score(s, bcd3(ram, 0x89, 0x88, 0x87));
		s->lives = RAM(0x83);
		s->terminal = s->lives == 0 && RAM(0x81) != 0;
		break;
	case G_ENTOMBED:
		set_score(s, RAM(0xe3));
		s->terminal = (RAM(0xc7) & 3) == 0;
		break;
	case G_JOURNEY_ESCAPE:
		score = bcd3(ram, 0x92, 0x91, 0x90);
		s->reward = score - s->score;
		if (s->reward == 50000)		/* the starting cash */
			s->reward = 0;
		s->score = score;
		s->terminal = RAM(0x95) == 0 && RAM(0x96) == 0;
		break;
	case G_KABOOM:
		set_score(s, bcd3(ram, 0xa5, 0xa4, 0xa3));
		s->terminal = RAM(0xa1) == 0 || s->score == 999999;
		break;
	case G_KEYSTONE_KAPERS:
		set_score(s, bcd2(ram, 0x9c, 0x9b));
		s->lives = RAM(0x96);
		s->terminal = s->lives == 0 && RAM(0x88) == 0;
		break;
	case G_KOOLAID:
		set_score(s, 100 * bcd2(ram, 0x81, 0x80));
		s->terminal = RAM(0xd1) == 0x80;
		break;
	case G_LASER_GATES:
		set_score(s, bcd3(ram, 0x82, 0x81, 0x80));
		s->terminal = RAM(0x83) == 0;
		break;
	case G_SIR_LANCELOT:
		set_score(s, bcd3(ram, 0xa0, 0x9f, 0x9e));
		s->lives = RAM(0xa9);
		s->terminal = s->lives == 0 && RAM(0xa7) == 0xa0;
		break;
	case G_SUPERMAN: {
		int t = 60 * bcd1(ram, 0xe3) + bcd1(ram, 0xe2);
		int room = RAM(0x80) | RAM(0x81) << 8;

		s->terminal = (RAM(0x9f) & 0x40) && room == 0xf2ac;
		s->reward = s->terminal ? 99 * 60 + 59 - t : 0;
		break;
	}
	case G_TETRIS:
		score = bcd2(ram, 0x71, 0x72);
		s->reward = score > s->score ? score - s->score : 0;
		s->score = score;
		s->terminal = (RAM(0x73) & 0x80) != 0;
		if (s->terminal)
			s->score = 0;
		break;
	case G_TRONDEAD:
		set_score(s, bcd3(ram, 0xbf, 0xbe, 0xbd));
		s->terminal = RAM(0xc8) == 5;
		s->lives = 5 - RAM(0xc8);
		break;
	case G_AIR_RAID:
		set_score(s, bcd3(ram, 0xaa, 0xa9, 0xa8));
		s->terminal = RAM(0xa7) == 0xff;
		break;
	case G_CROSSBOW:
		set_score(s, bcd3(ram, 0x8d, 0x8c, 0x8b));
		s->terminal = RAM(0xe7) == 0x82;
		break;
	case G_FROGGER:
		set_score(s, bcd2(ram, 0xce, 0xcc));
		s->lives = RAM(0xd0);
		s->terminal = s->lives == 0xff;
		break;
	case G_GALAXIAN:
		score = bcd3(ram, 0xae, 0xad, 0xac);
		s->reward = score - s->score;
		if (s->reward < 0)
			s->reward = 1000000 - s->score + score;
		s->score = score;
		s->terminal = (RAM(0xbf) & 0x80) != 0;
		s->lives = s->terminal ? 0 : RAM(0xb9) + 1;
		break;
	case G_KING_KONG:
		set_score(s, bcd2(ram, 0x83, 0x82));
		s->lives = RAM(0xee);
		s->terminal = s->lives == 0;
		break;
	case G_MR_DO:
		set_score(s, 10 * bcd2(ram, 0x82, 0x83));
		s->lives = RAM(0xdb);
		s->terminal = RAM(0xda) == 0x40;
		break;
	case G_POOYAN:
		set_score(s, bcd3(ram, 0x8a, 0x89, 0x88));
		s->terminal = RAM(0x96) == 0 && RAM(0x98) == 0x05;
		s->lives = (RAM(0x96) & 7) + 1;
		break;
	case G_TURMOIL:
		set_score(s, 10 * (bcd2(ram, 0x89, 0x8a) + RAM(0xd3)));
		s->lives = RAM(0xb9);
		s->terminal = s->lives == 0 && RAM(0xc5) == 0x01;
		break;
	case G_MARIO_BROS:
		set_score(s, 100 * bcd2(ram, 0x8a, 0x89));
		s->lives = RAM(0x87);
		s->terminal = s->lives == 0;
		break;
	case G_HAUNTED_HOUSE:
		/* last_lives holds the matches used */
		s->reward = 0;
		v = bcd1(ram, 0x82);
		if (v != s->last_lives) {
			s->reward--;
			s->last_lives = v;
		}
		s->lives = RAM(0x96);
		if (RAM(0x99) == 0x44)		/* escaped with the urn */
			s->reward += 100;
		s->terminal = s->lives == 0 || RAM(0x99) == 0x44;
		break;
	case G_OTHELLO:
		/* last_lives counts the frames without input */
		set_score(s, bcd1(ram, 0xce) - bcd1(ram, 0xd0));
		s->last_lives = RAM(0xc0) == 0 ? s->last_lives + 1 : 0;
		s->terminal = s->last_lives > 50;
		break;
	case G_SURROUND:
		set_score(s, bcd1(ram, 0xf7) - bcd1(ram, 0xf6));
		s->terminal = bcd1(ram, 0xf6) == 10 || bcd1(ram, 0xf7) == 10;
		break;
	case G_ET:
		set_score(s, bcd3(ram, 0xe1, 0xe0, 0xdf));
		s->lives = (int8_t)(RAM(0xe5) + 1);
		s->terminal = s->lives == 0 && RAM(0x80) == 8;
		break;
	case G_PACMAN:
		set_score(s, bcd3(ram, 0xcc, 0xce, 0xd0));
		s->lives = RAM(0x98) + 1;
		s->terminal = s->lives == 1 && RAM(0xe4) == 0x3f;
		break;
	case G_BASIC_MATH:
		set_score(s, bcd1(ram, 0x84));
		s->terminal = bcd1(ram, 0x86) != 0;
		break;
	case G_FLAG_CAPTURE:
		set_score(s, bcd1(ram, 0xea));
		s->terminal = bcd1(ram, 0xeb) == 0;
		break;
	case G_HUMAN_CANNONBALL:
		set_score(s, bcd1(ram, 0xb6));
		s->terminal = s->score == 7 || bcd1(ram, 0xb7) == 7;
		break;
	case G_LOST_LUGGAGE:
		set_score(s, bcd3(ram, 0x96, 0x95, 0x94));
		s->lives = RAM(0xca);
		s->terminal = s->lives == 0 && RAM(0xc8) == 0x0a && RAM(0xa5) == 0 && RAM(0xa9) == 0;
		break;
	case G_SPACE_WAR:
		set_score(s, bcd1(ram, 0xa7));
		s->terminal = s->score == 10 || RAM(0x80) == 0;
		break;
	case G_HANGMAN: {
		/* score: the player's words less the computer's; last_lives: the timer */
		int timer = RAM(0xf1), timed_out = timer == 0 && s->last_lives == 255;

		set_score(s, bcd1(ram, 0xeb) - bcd1(ram, 0xec));
		s->last_lives = timer;
		s->terminal = s->reward != 0 || timed_out;
		break;
	}
	case G_TIC_TAC_TOE_3D:
		s->reward = 0;
		if (RAM(0xff) == 0xf3 && RAM(0xfe) == 0x10) {	/* the end-of-game return address */
			s->reward = RAM(0xe1) == 0x08 ? 1 : -1;
			s->terminal = 1;
		}
		for (v = 0x9a; v <= 0xd9 && RAM(v) != 0; v++)
			;
		if (v > 0xd9)			/* a full board: a draw */
			s->terminal = 1;
		break;
	case G_VIDEO_CHESS:
		s->reward = 0;
		if (RAM(0xe1) == 0x82) {	/* white's turn: the board is settled */
			v = RAM(0xee);
			if (v == 0 || v == 1) {
				s->reward = v == 0 ? 1 : -1;
				s->terminal = 1;
			}
		}
		break;
	case G_CASINO:
		score = bcd2(ram, 0x95, 0x8c);
		if (RAM(0xd4) == 3) {		/* poker solitaire */
			s->reward = score - s->score;
			s->terminal = score > 0 && RAM(0x9e) == 0xaa;
		} else {
			int disabled = (RAM(0xd3) & 0x80) != 0;

			/* the reward of the last frame with input stays */
			if (!disabled)
				s->reward = score - s->score;
			s->terminal = score == 0 || (bcd1(ram, 0x9e) > 0 && disabled);
		}
		s->score = score;
		break;
	case G_BACKGAMMON: {
		/* pieces: the player's negative, the computer's positive */
		int out_me = -(int8_t)RAM(0x80), out_cpu = (int8_t)RAM(0x8e), in_me = 0, in_cpu = 0;

		for (int a = 0x81; a <= 0x9b; a++) {
			int p = (int8_t)RAM(a);

			if (a == 0x8e)
				continue;
			if (p > 0)
				in_cpu += p;
			else
				in_me -= p;
		}
		/* the computer uses the board as scratch: count only a whole board */
		if ((int8_t)(in_cpu + out_cpu) == 15 && (int8_t)(in_me + out_me) == 15) {
			if ((int8_t)out_me == 15) {
				s->terminal = 1;
				s->reward = 1;
			} else if ((int8_t)out_cpu == 15) {
				s->terminal = 1;
				s->reward = -1;
			}
		}
		break;
	}
	case G_VIDEO_CHECKERS: {
		int black = 0, white = 0;

		for (int a = 0x80; a <= 0xa2; a++) {
			v = RAM(a);
			if (a == 0x88 || a == 0x91 || a == 0x9a)
				continue;
			black += v == 0x10 || v == 0x20;
			white += v == 0x90 || v == 0xa0;
		}
		/* started: reverse checkers, where losing every piece wins */
		if (black == 0 || white == 0) {
			s->reward = (black == 0 ? -1 : 1) * (s->started ? -1 : 1);
			s->terminal = 1;
		}
		break;
	}
	case G_ADVENTURE:
		if (RAM(0xb9) == 0x12)		/* the chalice in the yellow castle */
			s->reward = 1;
		s->terminal = RAM(0xe0) == 2 || RAM(0xb9) == 0x12;
		break;
	case G_WORD_ZAPPER:
		if (bcd1(ram, 0xcf) > 0) {	/* the clock runs: the state is valid */
			score = 2 - (int8_t)RAM(0xdc);	/* rounds won */
			set_score(s, score);
			s->terminal = score == 3 || bcd1(ram, 0xde) == 0;
		}
		break;
	case G_VIDEO_CUBE: {
		/* score: the faces of one colour; last_lives: the timer */
		int faces = 0, timer = RAM(0xdb), timed_out;

		for (int f = 0; f < 6; f++) {
			int a = 0xa0 + 9 * f, b = 1;

			while (b < 9 && RAM(a + b) == RAM(a))
				b++;
			faces += b == 9;
		}
		timed_out = timer == 0 && s->last_lives == 255;
		s->last_lives = timer;
		s->reward = timed_out ? -1 : faces - s->score;
		s->score = faces;
		s->terminal = timed_out || faces == 6;
		break;
	}
	case G_KLAX: {
		int blocks = 0;

		set_score(s, bcd3(cart_ram, 0x34, 0x35, 0x36));	/* $F0B4-6 */
		for (int a = 0xb3; a < 0xb3 + 25; a++) {
			v = RAM(a);
			/* the grey bonus blocks of a finished level are even, below 16 */
			blocks += v != 0 && v != 2 && v != 6 && v != 10 && v != 14;
		}
		v = cart_ram[0x69];				/* $F0E9: misses allowed */
		s->terminal = (v > 0 && cart_ram[0x6e] == v) ||	/* $F0EE: missed */
			      (RAM(0xa8) == 4 && blocks == 25) || cart_ram[0x1d] == 0x99;
		break;
	}
	case G_DOUBLE_DUNK: {
		int me = bcd1(ram, 0xf6), them = bcd1(ram, 0xf7);

		set_score(s, me - them);
		s->terminal = (me >= 24 || them >= 24) && RAM(0xfe) == 0xe7;
		break;
	}
	case G_PITFALL2:
		/* no lives, no end but the highest score */
		set_score(s, bcd3(ram, 0xc9, 0xc8, 0xc7));
		s->terminal = s->score == 199000;
		break;
	case G_MINIATURE_GOLF: {
		/* $87: hits so far (or the hole, between holes), $88: the par
		 * between holes (0 in play), $AF: the hole (0 when over) */
		int shown = bcd1(ram, 0x87), par = bcd1(ram, 0x88), hole = bcd1(ram, 0xaf);

		s->reward = 0;
		if (hole != s->hole) {
			int hits = s->shown + s->hits - s->hits_at_hole;

			if (hits > 0)
				s->reward = s->par - hits;
			if (hole == 0)
				s->terminal = 1;
			s->hole = hole;
			s->hits = 0;
			s->hits_at_hole = s->shown;
		}
		if (par != 0) {
			s->par = par;
		} else {
			if (shown < s->shown)	/* the count wraps after 99 */
				s->hits += s->shown;
			s->shown = shown;
		}
		break;
	}
	case G_COMBAT: {
		int me = bcd1(ram, 0xa1), them = bcd1(ram, 0xa2);

		set_score(s, me - them);
		s->terminal = me == 99 || them == 99 || RAM(0x88) == 0;
		break;
	}
	case G_JOUST: {
		/* started: a two-player mode, over when both players are */
		int me = bcd3(ram, 0x87, 0x85, 0x83), them = bcd3(ram, 0x88, 0x86, 0x84);

		set_score(s, me);
		s->lives = (int8_t)RAM(0x81);
		if (s->started)
			s->terminal = me >= 990000 || them >= 990000 ||
				      (s->lives == -1 && (int8_t)RAM(0x82) == -1);
		else
			s->terminal = me >= 990000 || s->lives == -1;
		break;
	}
	case G_MAZE_CRAZE: {
		/* last_lives: bit 0 player A is caught, bit 1 player B; $EC and
		 * $ED are $FF once a player has reached the maze's end */
		int won = (RAM(0xec) == 0xff) - (RAM(0xed) == 0xff);

		s->reward = 0;
		if (!(s->last_lives & 1) && (RAM(0xea) & 0x40)) {
			s->last_lives |= 1;
			s->reward = -1;
		}
		if (!(s->last_lives & 2) && (RAM(0xeb) & 0x40))
			s->last_lives |= 2;
		if (won != 0 && !(s->last_lives & 1))
			s->reward = (s->last_lives & 2) ? 1 : won;
		s->terminal = won != 0 || s->last_lives == 3;
		s->lives = (s->last_lives & 1) ? -1 : 0;
		break;
	}
	case G_WARLORDS: {
		/* bits 7-4 of $EE: the castles of players A to D have fallen */
		int fallen = RAM(0xee) >> 4, me = (fallen & 8) ? -1 : 0, standing = 4;

		for (v = fallen; v; v >>= 1)
			standing -= v & 1;
		s->reward = me < s->lives ? -1 : 0;
		s->lives = me;
		s->terminal = standing <= 1;
		if (s->terminal && me == 0)
			s->reward = 1;
		break;
	}
	case G_HOMEBREW:
		set_score(s, bcd1(ram, 0x80));
		s->lives = RAM(0x81);
		s->terminal = RAM(0x82) == 0xff;
		break;
	default:
		s->reward = 0;
		break;
	}
}
