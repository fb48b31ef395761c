/*
 * Per-game settings, as the Arcade Learning Environment defines them: how
 * to read the reward, the end of the game and the lives from RAM, the
 * minimal action set, the actions that start a game, the default mode and
 * how ALE selects it, and the console properties that change emulation
 * (paddle controllers, cartridge type, display window).
 *
 * A game is identified by the MD5 of its ROM image.  A ROM no game matches
 * still runs as plain emulation: reward 0, never terminal, 0 lives, every
 * action legal (atari_game_unknown).
 *
 * The table (game_table.c) holds what differs between games as data; the
 * logic (game.c) reads it.  The reward, terminal and lives logic runs
 * after every emulated frame, on the CPU or on a CUDA device:
 * atari_game_step() switches on the game's id and reads only the 128 bytes
 * of RAM (a device copy of the game entry may be passed, its arrays copied
 * too: the strings are never read there).
 */
#ifndef ATARI_GAME_H
#define ATARI_GAME_H

#include <stdint.h>

#include "core/hostdev.h"

/* ALE's actions (player A); player B's are these + 18. */
enum atari_action {
	ATARI_NOOP, ATARI_FIRE, ATARI_UP, ATARI_RIGHT, ATARI_LEFT, ATARI_DOWN,
	ATARI_UPRIGHT, ATARI_UPLEFT, ATARI_DOWNRIGHT, ATARI_DOWNLEFT,
	ATARI_UPFIRE, ATARI_RIGHTFIRE, ATARI_LEFTFIRE, ATARI_DOWNFIRE,
	ATARI_UPRIGHTFIRE, ATARI_UPLEFTFIRE, ATARI_DOWNRIGHTFIRE,
	ATARI_DOWNLEFTFIRE,
	ATARI_ACTIONS,
	ATARI_RESET = 40	/* the console's reset switch (reset sequence only) */
};

/* "NOOP", "FIRE", ... "DOWNLEFTFIRE"; NULL out of range. */
const char *atari_action_name(int action);

/* Controllers. */
#define ATARI_JOYSTICK 0
#define ATARI_PADDLES 1		/* paddle 0 on INPT0 */
#define ATARI_PADDLES_SWAPPED 2	/* paddle 0 on INPT1 */

struct atari_game {
	const char *name;	/* ROM file name without .bin, as ale-py ships it */
	const char *title;
	const char *md5;	/* of the ROM image ALE supports */
	int id;			/* index in the table, 0 = unknown ROM */
	int cart;		/* forced cartridge type, 0 = detect */
	int controller;		/* ATARI_JOYSTICK, ATARI_PADDLES... */
	int right_paddles;	/* the right port holds paddles too */
	int power_on_frames;	/* frames run at power-on to guess the TV format (60) */
	int ystart, height;	/* display window (scan lines) */
	uint32_t minimal;	/* minimal action set: bit a for action a */
	int start_action;	/* action the game starts with, ... */
	int n_start_actions;	/* ... repeated this many frames */
	/*
	 * Mode selection for the default mode (ALE's setMode): when mode_addr
	 * is >= 0, SELECT is pressed (select_frames frames, then one NOOP
	 * frame) until RAM[mode_addr] == mode_value (and RAM[mode_addr2] ==
	 * mode_value2 when mode_addr2 >= 0; when mode_addr2 == mode_addr, either
	 * value will do), then the console is reset again.  select_frames -1:
	 * SELECT is held 2 + (a draw of the environment's random stream) % 256
	 * frames, then a NOOP step is taken (ALE's Adventure); -2: the mode is
	 * set in a menu (atari_game_menu_action).
	 */
	int mode_addr, mode_value, mode_addr2, mode_value2, select_frames;
	int lives_at_reset;	/* lives before the first frame of an episode */
	int score_at_reset;	/* the score ALE's reset starts from (Pitfall!: 2000) */
	int last_lives_at_reset; /* the game's step scratch value at reset (2 unless set) */
	int verified;		/* 1 passes the parity test with its reference, 0 not yet, -1 no reference */
	int no_hmove_blanks;	/* HMOVE does not blank the line start (Stella property) */
	uint32_t illegal;	/* actions ALE turns into NOOP: bit a for action a */
	int swap_ports;		/* player A's joystick is in the right port */
	/* Before selecting the mode: bit 0, ALE resets the console; bit 1,
	 * it presses SELECT once (2 frames); bits 8 and up, it first waits
	 * this many NOOP acts (one frame each, whatever the frameskip). */
	int mode_soft_first;
	/* A second run of starting actions, after the first (RESET allowed),
	 * then start_noops NOOP frames. */
	int start_action2, n_start_actions2;
	int start_noops;
	/* Frames SELECT is held once before the mode's RAM byte is first read. */
	int first_select;
	/*
	 * Modes and difficulties as ALE lists them.  modes[0] is the default
	 * mode (n_modes 0: only no_list_mode, 0); atari_game_default_mode()
	 * says which.  Mode m is selected when RAM[mode_addr] == mode_value +
	 * (m - default mode) * mode_mul, or, when
	 * mode_mul is -1, when RAM[mode_addr] holds m in BCD.
	 * difficulties: bit d set for each valid difficulty d (0: only 0).
	 */
	const uint16_t *modes;
	int n_modes;
	int no_list_mode;	/* the mode of a game without a list */
	int mode_mul;
	/*
	 * Where the formula above does not hold: the value of RAM[mode_addr]
	 * for each mode of modes[] (in its order), and of RAM[mode_addr2]
	 * (NULL: mode_value2 for every mode).  The RAM byte is read as
	 * (RAM[mode_addr] >> mode_shift) & mode_mask.
	 */
	const uint8_t *mode_values, *mode_values2;
	uint8_t mode_shift, mode_mask;
	/* Selecting mode m sets the game's started flag to bit m of this
	 * (modes below 32), when it is not 0 (ALE's Joust: the two-player modes). */
	uint32_t started_modes;
	/*
	 * A number chosen after the mode's SELECT presses and reset: the
	 * mode's hundreds (1 below 100), which RAM[mode_step_addr] shows in
	 * BCD; mode_step_action is held a frame at a time until it does
	 * (ALE's Video Cube: the cube).  0: none.
	 */
	int mode_step_addr, mode_step_action;
	unsigned difficulties;
	int paddle_max;		/* paddle range maximum in ohms (0: ATARI_PADDLE_MAX) */
	int reference;		/* the emulator `verified` compares with: ATARI_REF_* */
	/*
	 * Multi-agent ALE's games: how many of modes[] (in that order) are its
	 * one-, two- and four-player modes.  Player A is the agent; the other
	 * players' controllers are left idle (NOOP).
	 */
	uint8_t mode_players[3];
	uint8_t pal;		/* a PAL game by its properties (no TV format detection) */
};

/*
 * References.  ale-py's ALE (0.12) is the reference of every game it
 * supports.  It refuses the four two-player games among the ROMs it ships
 * (Combat, Joust, Maze Craze, Warlords); their reference is the
 * multi-agent ALE of PettingZoo's Atari environments (multi-agent-ale-py
 * 0.1.11), whose environment differs from ale-py's (atari/env.h).
 */
#define ATARI_REF_ALE 0
#define ATARI_REF_MULTI_AGENT 1

/* The reference's name: "ale-py", "multi-agent-ale-py", or "none" for a
 * game with no reference (verified -1) and for an unknown ROM. */
const char *atari_game_reference_name(const struct atari_game *g);

/*
 * The sticky-action decisions ALE's act() draws every frame in `mode`:
 * ale-py draws two (players A and B) in every game; multi-agent ALE one
 * per player of the mode (1, 2 or 4).
 */
HOSTDEV int atari_game_sticky_draws(const struct atari_game *g, int mode);

/* The game's default mode: the first ALE lists (a constant table entry
 * cannot hold modes[0] itself: not a compile-time constant in C). */
static inline HOSTDEV int atari_game_default_mode(const struct atari_game *g)
{
	return g->n_modes ? g->modes[0] : g->no_list_mode;
}

/* The default mode in struct atari_env_config (the game's default). */
#define ATARI_MODE_DEFAULT (-1)

/*
 * The game's valid modes (ALE's getAvailableModes), in ALE's order, into
 * out[0..max-1]; returns how many there are (the first is the default).
 */
int atari_game_modes(const struct atari_game *g, int *out, int max);

/* The game's valid difficulties (ALE's getAvailableDifficulties); as above. */
int atari_game_difficulties(const struct atari_game *g, int *out, int max);

/* 1 when mode m (ATARI_MODE_DEFAULT: always) / difficulty d is valid for g.
 * Difficulty 0 is always valid: ALE starts every game with both switches
 * at B, even one whose list lacks 0 (Backgammon lists only 3). */
int atari_game_mode_valid(const struct atari_game *g, int m);
int atari_game_difficulty_valid(const struct atari_game *g, int d);

/*
 * 0 when mode m and difficulty d are the game's; else -EINVAL with a
 * message that names the valid values ("game 'pooyan' has no mode 20
 * (valid: 10, 30, 50 or 70)").  In game_check.c (host code).
 */
struct core_error;
int atari_game_check(const struct atari_game *g, int m, int d, struct core_error *err);

/* Reward bookkeeping between frames (ALE's RomSettings members). */
struct atari_game_state {
	int32_t score;
	int32_t reward;		/* of the last frame */
	int32_t lives;
	int32_t last_lives;
	uint8_t terminal;
	uint8_t started;
	uint8_t keep_lives;	/* lives() is the game's count even once over (multi-agent ALE) */
	uint8_t pad_;
	/* Miniature Golf: the hole, its par, the hits before the shown count
	 * last wrapped, the count shown, and the count when the hole began. */
	int32_t hole, par, hits, shown, hits_at_hole;
};

/* The table: atari_games[0] is the unknown ROM; atari_games_count entries. */
extern const struct atari_game atari_games[];
extern const int atari_games_count;

/* The game whose ROM has this MD5 (lowercase hex), or NULL. */
const struct atari_game *atari_game_by_md5(const char *md5);

/* The game with this name ("pong"), or NULL. */
const struct atari_game *atari_game_by_name(const char *name);

/* ALE's RomSettings::reset(). */
HOSTDEV void atari_game_reset(const struct atari_game *g, struct atari_game_state *s);

/* ALE's setMode() has selected `mode` (some games note it). */
HOSTDEV void atari_game_mode_selected(const struct atari_game *g, int mode,
				      struct atari_game_state *s);

/* The value of RAM[g->mode_addr] that shows `mode` is selected. */
HOSTDEV int atari_game_mode_value(const struct atari_game *g, int mode);

/*
 * 1 when the RAM shows `mode` selected: RAM[mode_addr] (in the cartridge's
 * RAM, `cart_ram`, when mode_addr is above $FF: its read port, as Klax)
 * masked as the game needs, against atari_game_mode_value().
 */
HOSTDEV int atari_game_mode_ok(const struct atari_game *g, int mode, const uint8_t *ram,
			       const uint8_t *cart_ram);

/*
 * A mode chosen in a menu with the joystick (select_frames -2, ALE's
 * Double Dunk): after one SELECT press, the next ALE step to take (one
 * step of frameskip frames) for `mode` as the RAM shows the menu now, -2
 * for a reset of the console (soft reset) before the next, or -1 when the
 * mode is set.  st holds the progress: { 0, 0, -1 } to start.
 */
HOSTDEV int atari_game_menu_action(const struct atari_game *g, int mode, const uint8_t *ram,
				   int st[3]);

/*
 * After the mode's SELECT presses and the console's reset: the next ALE
 * act to take (one frame) for `mode` as the RAM shows the game now, or -1
 * when the mode is set (mode_step_addr).
 */
HOSTDEV int atari_game_mode_action(const struct atari_game *g, int mode, const uint8_t *ram);

/*
 * The action of frame i of the game's starting actions (ALE's
 * getStartingActions: the two runs of the table, then any NOOP frames the
 * game adds after them), or -1 after the last.
 */
HOSTDEV int atari_game_start_action(const struct atari_game *g, int i);

/* ALE's RomSettings::step(): update from RAM after a frame (and from the
 * cartridge's RAM, `cart_ram`, for a game that keeps its score there). */
HOSTDEV void atari_game_step(const struct atari_game *g, const uint8_t *ram,
			     const uint8_t *cart_ram, struct atari_game_state *s);

#endif
