/*
 * The games' logic, ALE's RomSettings: reset, mode selection, starting
 * actions, and the reward, the end and the lives read from RAM after each
 * frame.  HOSTDEV: the CUDA kernels run it too.
 */
#include <string.h>

#include "atari/game.h"
#include "atari/game_int.h"

HOSTDEV int atari_game_sticky_draws(const struct atari_game *g, int mode)
{
	int i = 0;

	if (g->reference != ATARI_REF_MULTI_AGENT)
		return 2;
	while (i < g->n_modes && g->modes[i] != mode)
		i++;
	return i < g->mode_players[0] ? 1 : i < g->mode_players[0] + g->mode_players[1] ? 2 : 4;
}

HOSTDEV void atari_game_reset(const struct atari_game *g, struct atari_game_state *s)
{
	memset(s, 0, sizeof(*s));
	s->lives = g->lives_at_reset;
	s->score = g->score_at_reset;
	s->last_lives = g->last_lives_at_reset;
	s->keep_lives = g->reference == ATARI_REF_MULTI_AGENT;
}

HOSTDEV void atari_game_mode_selected(const struct atari_game *g, int mode,
				      struct atari_game_state *s)
{
	if (g->started_modes)
		s->started = mode >= 0 && mode < 32 && ((g->started_modes >> mode) & 1);
}

/* The index of `mode` in the game's list, -1 when it is not there. */
static HOSTDEV int mode_index(const struct atari_game *g, int mode)
{
	for (int i = 0; i < g->n_modes; i++)
		if (g->modes[i] == mode)
			return i;
	return -1;
}

HOSTDEV int atari_game_mode_value(const struct atari_game *g, int mode)
{
	int i = g->mode_values ? mode_index(g, mode) : -1;

	if (i >= 0)
		return g->mode_values[i];
	if (g->mode_mul < 0)
		return (mode / 10) << 4 | mode % 10;
	return g->mode_value + (mode - atari_game_default_mode(g)) * g->mode_mul;
}

HOSTDEV int atari_game_mode_ok(const struct atari_game *g, int mode, const uint8_t *ram,
			       const uint8_t *cart_ram)
{
	int v = g->mode_addr > 0xff ? cart_ram[g->mode_addr & 0x7f] : ram[g->mode_addr & 0x7f];
	int want = atari_game_mode_value(g, mode), want2 = g->mode_value2;
	int i = g->mode_values2 ? mode_index(g, mode) : -1;

	v = (v >> g->mode_shift) & g->mode_mask;
	if (g->mode_addr2 == g->mode_addr)	/* either value */
		return v == want || v == want - g->mode_value + g->mode_value2;
	if (i >= 0)
		want2 = g->mode_values2[i];
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
	int want = mode >= 100 ? mode / 100 : 1, v;

	if (!g->mode_step_addr)
		return -1;
	v = ram[g->mode_step_addr & 0x7f];
	return 10 * (v >> 4) + (v & 15) == want ? -1 : g->mode_step_action;
}

HOSTDEV int atari_game_start_action(const struct atari_game *g, int i)
{
	if (i < g->n_start_actions)
		return g->start_action;
	i -= g->n_start_actions;
	if (i < g->n_start_actions2)
		return g->start_action2;
	i -= g->n_start_actions2;
	return i < g->start_noops ? ATARI_NOOP : -1;
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
