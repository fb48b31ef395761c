#include <string.h>

#include "atari/game.h"

enum {
	G_UNKNOWN, G_PONG, G_BREAKOUT, G_SPACE_INVADERS, G_SEAQUEST, G_QBERT,
	G_BEAM_RIDER, G_ENDURO, G_MS_PACMAN, G_ASTERIX, G_BOXING, G_FREEWAY,
	G_ASTEROIDS, G_ATLANTIS, G_FROSTBITE, G_MONTEZUMA, G_HOMEBREW,
};

#define A(x) (1u << ATARI_##x)
#define ALL_ACTIONS ((1u << ATARI_ACTIONS) - 1)
#define NO_MODE -1, 0, -1, 0, 0
/* MD5 of share/roms/catch.bin as the build assembles it (a test checks it). */
#define CATCH_MD5 "0d86d32974ce16f76406c387ec5b95e1"

/* name, title, md5, id, cart, controller, right paddles, power-on frames,
 * ystart, height, minimal set, start actions, count, mode selection,
 * lives at reset, verified, HMOVE blanks off */
const struct atari_game atari_games[] = {
	{ "unknown", "Unknown ROM", "", G_UNKNOWN, 0, ATARI_JOYSTICK, 0, 60, 34, 210,
	  ALL_ACTIONS, { 0 }, 0, NO_MODE, 0, 0, 0 },
	{ "pong", "Video Olympics (Pong)", "60e0ea3cbe0913d39803477945e9e5ec", G_PONG, 0,
	  ATARI_PADDLES_SWAPPED, 1, 60, 34, 210,
	  A(NOOP) | A(FIRE) | A(RIGHT) | A(LEFT) | A(RIGHTFIRE) | A(LEFTFIRE), { 0 }, 0,
	  0x96, 0, -1, 0, 2, 0, 1, 0 },
	{ "breakout", "Breakout", "f34f08e5eb96e500e851a80be3277a56", G_BREAKOUT, 0,
	  ATARI_PADDLES, 1, 60, 34, 210,
	  A(NOOP) | A(FIRE) | A(RIGHT) | A(LEFT), { 0 }, 0, 0xb2, 0, -1, 0, 1, 5, 1, 0 },
	{ "space_invaders", "Space Invaders", "72ffbef6504b75e69ee1045af9075f66",
	  G_SPACE_INVADERS, 0, ATARI_JOYSTICK, 0, 60, 34, 210,
	  A(NOOP) | A(FIRE) | A(RIGHT) | A(LEFT) | A(RIGHTFIRE) | A(LEFTFIRE), { 0 }, 0,
	  0xdc, 0, -1, 0, 2, 3, 1, 0 },
	{ "seaquest", "Seaquest", "240bfbac5163af4df5ae713985386f92", G_SEAQUEST, 0,
	  ATARI_JOYSTICK, 0, 60, 34, 210, ALL_ACTIONS, { 0 }, 0, NO_MODE, 4, 1, 0 },
	{ "qbert", "Q*bert", "484b0076816a104875e00467d431c2d2", G_QBERT, 0,
	  ATARI_JOYSTICK, 0, 60, 40, 210,
	  A(NOOP) | A(FIRE) | A(UP) | A(RIGHT) | A(LEFT) | A(DOWN), { 0 }, 0, NO_MODE, 4, 1, 0 },
	{ "beam_rider", "Beamrider", "79ab4123a83dc11d468fb2108ea09e2e", G_BEAM_RIDER, 0,
	  ATARI_JOYSTICK, 0, 60, 34, 210,
	  A(NOOP) | A(FIRE) | A(UP) | A(RIGHT) | A(LEFT) | A(UPRIGHT) | A(UPLEFT) |
	  A(RIGHTFIRE) | A(LEFTFIRE), { ATARI_RIGHT }, 1, NO_MODE, 3, 1, 0 },
	{ "enduro", "Enduro", "94b92a882f6dbaa6993a46e2dcc58402", G_ENDURO, 0,
	  ATARI_JOYSTICK, 0, 60, 34, 210,
	  A(NOOP) | A(FIRE) | A(RIGHT) | A(LEFT) | A(DOWN) | A(DOWNRIGHT) | A(DOWNLEFT) |
	  A(RIGHTFIRE) | A(LEFTFIRE), { ATARI_FIRE }, 1, NO_MODE, 0, 1, 0 },
	{ "ms_pacman", "Ms. Pac-Man", "87e79cd41ce136fd4f72cc6e2c161bee", G_MS_PACMAN, 0,
	  ATARI_JOYSTICK, 0, 60, 34, 210,
	  A(NOOP) | A(UP) | A(RIGHT) | A(LEFT) | A(DOWN) | A(UPRIGHT) | A(UPLEFT) |
	  A(DOWNRIGHT) | A(DOWNLEFT), { 0 }, 0, 0x99, 1, 0xa1, 1, 10, 3, 1, 1 },
	{ "asterix", "Asterix", "89a68746eff7f266bbf08de2483abe55", G_ASTERIX, 0,
	  ATARI_JOYSTICK, 0, 60, 34, 210,
	  A(NOOP) | A(UP) | A(RIGHT) | A(LEFT) | A(DOWN) | A(UPRIGHT) | A(UPLEFT) |
	  A(DOWNRIGHT) | A(DOWNLEFT), { ATARI_FIRE }, 1, NO_MODE, 3, 1, 0 },
	{ "boxing", "Boxing", "c3ef5c4653212088eda54dc91d787870", G_BOXING, 0,
	  ATARI_JOYSTICK, 0, 60, 34, 210, ALL_ACTIONS, { 0 }, 0, NO_MODE, 0, 1, 0 },
	{ "freeway", "Freeway", "8e0ab801b1705a740b476b7f588c6d16", G_FREEWAY, 0,
	  ATARI_JOYSTICK, 0, 60, 34, 210, A(NOOP) | A(UP) | A(DOWN), { 0 }, 0,
	  0x80, 0, -1, 0, 1, 0, 1, 0 },
	{ "asteroids", "Asteroids", "ccbd36746ed4525821a8083b0d6d2c2c", G_ASTEROIDS, 0,
	  ATARI_JOYSTICK, 0, 60, 34, 210,
	  A(NOOP) | A(FIRE) | A(UP) | A(RIGHT) | A(LEFT) | A(DOWN) | A(UPRIGHT) |
	  A(UPLEFT) | A(UPFIRE) | A(RIGHTFIRE) | A(LEFTFIRE) | A(DOWNFIRE) |
	  A(UPRIGHTFIRE) | A(UPLEFTFIRE), { 0 }, 0, 0x80, 0, -1, 0, 2, 4, 1, 1 },
	{ "atlantis", "Atlantis", "9ad36e699ef6f45d9eb6c4cf90475c9f", G_ATLANTIS, 0,
	  ATARI_JOYSTICK, 0, 60, 34, 210,
	  A(NOOP) | A(FIRE) | A(RIGHTFIRE) | A(LEFTFIRE), { 0 }, 0, 0x8d, 0, -1, 0, 2, 6, 1, 0 },
	{ "frostbite", "Frostbite", "4ca73eb959299471788f0b685c3ba0b5", G_FROSTBITE, 0,
	  ATARI_JOYSTICK, 0, 60, 34, 210, ALL_ACTIONS, { 0 }, 0, 0x80, 0, -1, 0, 1, 4, 1, 0 },
	{ "montezuma_revenge", "Montezuma's Revenge", "3347a6dd59049b15a38394aa2dafa585",
	  G_MONTEZUMA, 0, ATARI_JOYSTICK, 0, 60, 34, 210, ALL_ACTIONS, { 0 }, 0, NO_MODE,
	  6, 1, 0 },
	/* The project's own game (share/roms/catch.asm): no ALE reference. */
	{ "catch", "Catch (rlkit homebrew)", CATCH_MD5, G_HOMEBREW, 0,
	  ATARI_JOYSTICK, 0, 60, 34, 210, A(NOOP) | A(RIGHT) | A(LEFT), { 0 }, 0, NO_MODE,
	  3, -1, 0 },
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

HOSTDEV void atari_game_reset(const struct atari_game *g, struct atari_game_state *s)
{
	memset(s, 0, sizeof(*s));
	s->lives = g->lives_at_reset;
	s->last_lives = 2;
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
			     struct atari_game_state *s)
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
