/*
 * The console around the CPU: cartridge detection and bank switching,
 * RIOT timer, MD5, the system random numbers, cloning by copy, the
 * environment conventions, and a fuzz run of the ROM loader and of random
 * ROM bytes (a few thousand frames, so the sanitizers see them).
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atari/batch.h"
#include "atari/env.h"
#include "atari/md5.h"
#include "test.h"

static void test_md5(void)
{
	char hex[33];

	atari_md5_hex("", 0, hex);
	TEST_EQ_STR(hex, "d41d8cd98f00b204e9800998ecf8427e", "md5: empty input");
	atari_md5_hex("The quick brown fox jumps over the lazy dog", 43, hex);
	TEST_EQ_STR(hex, "9e107d9d372bb6826bd81d3542a419d6", "md5: pangram");
}

static void test_rng(void)
{
	uint32_t v[2];

	atari_rng_fill(5489, v, 2);
	TEST_OK(v[0] == 3499211612u && v[1] == 581869302u, "rng: MT19937 reference outputs");
}

static uint8_t *image(size_t size, const void *code, size_t len);

/* The environment's generator is std::mt19937: its 10000th output from the
 * default seed is the C++ standard's check value; nextDouble is over 2^32. */
static void test_mt(void)
{
	struct atari_mt mt, copy;
	uint32_t x = 0;

	atari_mt_seed(&mt, 5489);
	for (int i = 0; i < 10000; i++)
		x = atari_mt_next(&mt);
	TEST_OK(x == 4123659995u, "mt: the 10000th output of std::mt19937 (C++ [rand.predef])");
	copy = mt;
	TEST_OK(atari_mt_next(&mt) == atari_mt_next(&copy), "mt: a copy draws the same numbers");
	atari_mt_seed(&mt, 0);
	TEST_OK(atari_mt_unit(&mt) == 2357136044u / 4294967296.0, "mt: unit is next / 2^32");
}

/*
 * Every entry of the table was made from GAME()'s defaults (an entry
 * written without them would read no mode at all: a mask of 0), its id is
 * its index, and what its per-game fields say is coherent: one RAM value
 * per mode, started_modes only over modes below 32.
 */
static void test_game_table(void)
{
	int bad = -1;

	for (int i = 0; i < atari_games_count && bad < 0; i++) {
		const struct atari_game *g = &atari_games[i];
		int ok = g->id == i && g->name && g->title && g->md5 && g->mode_mask &&
			 g->height > 0 && g->ystart > 0 && (g->mode_values || !g->mode_values2) &&
			 (!g->mode_values || g->n_modes) && (!g->started_modes || g->n_modes) &&
			 (g->mode_addr >= 0 || !g->mode_step_addr);

		for (int m = 0; ok && g->started_modes && m < g->n_modes; m++)
			ok = g->modes[m] < 32;
		if (!ok)
			bad = i;
	}
	TEST_OK(bad < 0, "games: every entry has GAME()'s defaults and coherent mode fields (bad: %d)",
		bad);
}

/* Modes and difficulties as ALE lists them; unknown ROMs have mode 0 only. */
static void test_modes(void)
{
	const struct atari_game *g = atari_game_by_name("pooyan");
	int v[16];

	TEST_OK(g && atari_game_modes(g, v, 16) == 4 && v[0] == 10 && v[3] == 70,
		"modes: Pooyan's are 10, 30, 50, 70, the first the default");
	TEST_OK(atari_game_mode_valid(g, 30) && !atari_game_mode_valid(g, 20) &&
		atari_game_mode_valid(g, ATARI_MODE_DEFAULT), "modes: valid and invalid modes");
	g = atari_game_by_name("entombed");
	TEST_OK(g && atari_game_difficulties(g, v, 16) == 2 && v[0] == 0 && v[1] == 2 &&
		!atari_game_difficulty_valid(g, 1), "difficulties: Entombed's are 0 and 2");
	TEST_OK(atari_game_modes(&atari_games[0], v, 16) == 1 && v[0] == 0 &&
		atari_game_difficulties(&atari_games[0], v, 16) == 1,
		"modes: an unknown ROM has mode 0 and difficulty 0 only");
	g = atari_game_by_name("backgammon");
	TEST_OK(g && atari_game_difficulties(g, v, 16) == 1 && v[0] == 3 &&
		atari_game_difficulty_valid(g, 0) && !atari_game_difficulty_valid(g, 1),
		"difficulties: Backgammon lists only 3; 0, the power-on setting, is accepted");
	g = atari_game_by_name("video_checkers");
	TEST_OK(g && atari_game_mode_value(g, 9) == 9 && atari_game_mode_value(g, 11) == 17 &&
		atari_game_mode_value(g, 19) == 25,
		"modes: Video Checkers' reverse modes 11-19 are 17-25 in RAM");
	g = atari_game_by_name("word_zapper");
	TEST_OK(g && atari_game_start_action(g, 0) == ATARI_NOOP &&
		atari_game_start_action(g, 485) == ATARI_NOOP &&
		atari_game_start_action(g, 486) == ATARI_FIRE &&
		atari_game_start_action(g, 488) == ATARI_NOOP && atari_game_start_action(g, 489) == -1,
		"start: Word Zapper waits 486 frames, presses FIRE, then waits 2 frames");
	g = atari_game_by_name("video_cube");
	TEST_OK(g && atari_game_modes(g, v, 16) == 153 && v[3] == 100 && v[5] == 102 &&
		atari_game_mode_valid(g, 5002) && !atari_game_mode_valid(g, 3) &&
		!atari_game_mode_valid(g, 5100),
		"modes: Video Cube's are 0-2 and cube * 100 + 0-2 for cubes 1-50");
	TEST_OK(g && atari_game_mode_value(g, 0) == 0 && atari_game_mode_value(g, 4901) == 2 &&
		atari_game_mode_value(g, 202) == 8, "modes: Video Cube's variations are 1, 3, 9");
	{
		uint8_t ram[128] = { 0 };

		ram[0x9f & 0x7f] = 0x12;
		TEST_OK(g && atari_game_mode_action(g, 1201, ram) == -1 &&
			atari_game_mode_action(g, 1301, ram) == ATARI_RIGHT &&
			atari_game_mode_action(g, 2, ram) == ATARI_RIGHT &&
			atari_game_mode_action(atari_game_by_name("pong"), 1, ram) == -1,
			"modes: Video Cube's cube (BCD in $9F) is mode / 100, or 1");
	}
	g = atari_game_by_name("ms_pacman");
	TEST_OK(g && atari_game_modes(g, v, 16) == 4 && atari_game_mode_value(g, 0) == 1 &&
		atari_game_mode_value(g, 3) == 3, "modes: Ms. Pac-Man's are 0-3, game 1 twice");
}

/*
 * The two-player games of multi-agent ALE: one sticky draw per player of
 * the mode, player A's reward and lives from RAM, lives kept once over.
 */
static void test_multi_agent(void)
{
	const struct atari_game *g = atari_game_by_name("warlords");
	struct atari_game_state s;
	uint8_t ram[128] = { 0 };

	TEST_OK(g && atari_game_sticky_draws(g, 4) == 1 && atari_game_sticky_draws(g, 3) == 2 &&
		atari_game_sticky_draws(g, 1) == 4 &&
		atari_game_sticky_draws(atari_game_by_name("pong"), 0) == 2 &&
		atari_game_sticky_draws(atari_game_by_name("combat"), 1) == 2,
		"multi-agent: a sticky draw per player of the mode; ale-py's games two");
	TEST_OK(!strcmp(atari_game_reference_name(g), "multi-agent-ale-py") &&
		!strcmp(atari_game_reference_name(atari_game_by_name("pong")), "ale-py") &&
		!strcmp(atari_game_reference_name(atari_game_by_name("catch")), "none"),
		"multi-agent: reference names");
	atari_game_reset(g, &s);
	ram[0xee & 0x7f] = 0x40;			/* player B's castle falls */
	atari_game_step(g, ram, NULL, &s);
	TEST_OK(s.reward == 0 && !s.terminal && s.lives == 0, "multi-agent: Warlords, B falls");
	ram[0xee & 0x7f] = 0x70;			/* then C and D: A is the last lord */
	atari_game_step(g, ram, NULL, &s);
	TEST_OK(s.reward == 1 && s.terminal && s.keep_lives, "multi-agent: Warlords, A wins");
	atari_game_reset(g, &s);
	ram[0xee & 0x7f] = 0x80;			/* A's castle falls */
	atari_game_step(g, ram, NULL, &s);
	TEST_OK(s.reward == -1 && !s.terminal && s.lives == -1, "multi-agent: Warlords, A falls");
	g = atari_game_by_name("maze_craze");
	memset(ram, 0, sizeof(ram));
	atari_game_reset(g, &s);
	ram[0xeb & 0x7f] = 0x40;			/* B is caught, then A reaches the end */
	atari_game_step(g, ram, NULL, &s);
	ram[0xec & 0x7f] = 0xff;
	atari_game_step(g, ram, NULL, &s);
	TEST_OK(s.reward == 1 && s.terminal && s.lives == 0, "multi-agent: Maze Craze, A wins");
	g = atari_game_by_name("joust");
	memset(ram, 0, sizeof(ram));
	ram[0xf8 & 0x7f] = 0x07;			/* $F8 mod 4 is the mode */
	TEST_OK(g && atari_game_mode_ok(g, 3, ram, NULL) && !atari_game_mode_ok(g, 1, ram, NULL),
		"multi-agent: Joust's mode is $F8 mod 4");
	atari_game_reset(g, &s);
	atari_game_mode_selected(g, 1, &s);		/* two players: both must be out */
	ram[0x81 & 0x7f] = 0xff;
	atari_game_step(g, ram, NULL, &s);
	TEST_OK(!s.terminal && s.lives == -1, "multi-agent: Joust, two players, A out");
	ram[0x82 & 0x7f] = 0xff;
	atari_game_step(g, ram, NULL, &s);
	TEST_OK(s.terminal && s.lives == -1, "multi-agent: Joust, both out");
}

/* A batch refuses a mode or difficulty its game does not have. */
static void test_batch_modes(void)
{
	static const uint8_t code[] = { 0x4c, 0x00, 0xf0 };	/* JMP $F000 */
	struct core_error err = CORE_ERROR_INIT;
	struct atari_env_config cfg = ATARI_ENV_CONFIG_INIT;
	struct atari_rom rom = ATARI_ROM_INIT;
	struct atari_batch b;
	uint8_t *img = image(4096, code, sizeof(code));

	if (atari_rom_load_mem(&rom, img, 4096, 0, &err) < 0)
		abort();
	cfg.mode = 3;
	TEST_OK(atari_batch_init(&b, &rom, &atari_games[0], &cfg, 1, 1, &err) == -EINVAL &&
		strstr(err.msg, "has no mode 3"), "batch: an invalid mode is refused");
	cfg.mode = ATARI_MODE_DEFAULT;
	cfg.difficulty = 1;
	TEST_OK(atari_batch_init(&b, &rom, &atari_games[0], &cfg, 1, 1, &err) == -EINVAL &&
		strstr(err.msg, "has no difficulty 1"), "batch: an invalid difficulty is refused");
	atari_rom_release(&rom);
	free(img);
}

/* A 4K image: reset vector to $F000, `code` there. */
static uint8_t *image(size_t size, const void *code, size_t len)
{
	uint8_t *rom = calloc(1, size);

	if (!rom)
		abort();
	for (size_t b = 0; b < size; b += 4096) {
		memcpy(rom + b, code, len);
		rom[b + 0xffc] = 0x00;
		rom[b + 0xffd] = 0xf0;
	}
	return rom;
}

static void test_detect(void)
{
	uint8_t *rom = image(8192, "\xea", 1);
	const char *name = NULL;

	rom[5] = 1;	/* the two banks differ: an F8 image */
	TEST_EQ_LONG(atari_cart_detect(rom, 2048, &name), ATARI_CART_2K, "detect: 2K");
	TEST_EQ_LONG(atari_cart_detect(rom, 8192, &name), ATARI_CART_F8, "detect: 8K is F8");
	memcpy(rom + 100, "\x85\x3f", 2);
	memcpy(rom + 200, "\x85\x3f", 2);
	TEST_EQ_LONG(atari_cart_detect(rom, 8192, &name), ATARI_CART_3F, "detect: STA $3F twice is 3F");
	memset(rom, 0, 8192);
	TEST_EQ_LONG(atari_cart_detect(rom, 8192, &name), ATARI_CART_F8SC,
		     "detect: uniform RAM areas are a Superchip");
	TEST_EQ_LONG(atari_cart_detect(rom, 10240, &name), ATARI_CART_DPC, "detect: 10K is DPC");
	TEST_EQ_STR(name, "DPC", "detect: 10K is named DPC");
	TEST_EQ_LONG(atari_cart_detect(rom, 1000, &name), ATARI_CART_UNKNOWN, "detect: odd size");
	TEST_EQ_STR(name, "unrecognized", "detect: odd size is unrecognized");
	free(rom);
}

/* The DPC chip: a data fetcher counts down through the display data and
 * raises its flag at the top; the random generator is a shift register. */
static void test_dpc(void)
{
	static uint8_t rom[10495];
	struct atari_cart c;
	uint8_t r1, r2;

	memset(&c, 0, sizeof(c));
	c.type = ATARI_CART_DPC;
	atari_cart_power_on(&c);
	atari_cart_reset(&c);
	for (int i = 0; i < 2048; i++)
		rom[8192 + i] = (uint8_t)i;
	atari_cart_write(&c, sizeof(rom), 0x1040, 0x05);	/* fetcher 0: top 5 */
	atari_cart_write(&c, sizeof(rom), 0x1048, 0x02);	/* bottom 2 */
	atari_cart_write(&c, sizeof(rom), 0x1050, 0x05);	/* counter low 5 */
	atari_cart_write(&c, sizeof(rom), 0x1058, 0x00);	/* counter high 0 */
	TEST_EQ_LONG(atari_cart_read(&c, rom, sizeof(rom), 0x1008), (2047 - 5) & 0xff,
		     "dpc: a display read fetches data[2047 - counter]");
	TEST_EQ_LONG(c.dpc.counter[0], 4, "dpc: the read counts the fetcher down");
	TEST_EQ_LONG(atari_cart_read(&c, rom, sizeof(rom), 0x1038), 0xff,
		     "dpc: the flag is up between top and bottom");
	atari_cart_write(&c, sizeof(rom), 0x1070, 0);		/* reset the generator */
	r1 = atari_cart_read(&c, rom, sizeof(rom), 0x1000);
	r2 = atari_cart_read(&c, rom, sizeof(rom), 0x1000);
	TEST_OK(r1 == 3 && r2 == 7, "dpc: the generator shifts in ones from 1 (got %d, %d)", r1, r2);
	atari_cart_read(&c, rom, sizeof(rom), 0x1ff8);
	TEST_EQ_LONG(c.bank, 0, "dpc: $1FF8 selects the first bank");
}

static void test_banks(void)
{
	struct atari_cart c;
	uint8_t *rom = image(16384, "\xea", 1);

	memset(&c, 0, sizeof(c));
	for (int b = 0; b < 4; b++)
		rom[b * 4096 + 0x123] = (uint8_t)(0x10 + b);
	c.type = ATARI_CART_F6SC;
	atari_cart_reset(&c);
	TEST_EQ_LONG(atari_cart_read(&c, rom, 16384, 0x1123), 0x10, "F6SC: bank 0 at reset");
	atari_cart_read(&c, rom, 16384, 0x1ff8);
	TEST_EQ_LONG(atari_cart_read(&c, rom, 16384, 0x1123), 0x12, "F6SC: read $1FF8 selects bank 2");
	atari_cart_write(&c, 16384, 0x1ff9, 0);
	TEST_EQ_LONG(atari_cart_read(&c, rom, 16384, 0x1123), 0x13, "F6SC: write $1FF9 selects bank 3");
	atari_cart_write(&c, 16384, 0x1005, 0x77);
	TEST_EQ_LONG(atari_cart_read(&c, rom, 16384, 0x1085), 0x77, "F6SC: RAM written at $1005 reads at $1085");
	c.type = ATARI_CART_E0;
	atari_cart_reset(&c);
	atari_cart_read(&c, rom, 16384, 0x1fe1);
	TEST_EQ_LONG(c.slice[0], 1, "E0: $1FE1 maps slice 1 first");
	c.type = ATARI_CART_FE;
	TEST_OK(atari_cart_read(&c, rom, 8192, 0xf123) == rom[0x123] &&
		atari_cart_read(&c, rom, 8192, 0xd123) == rom[4096 + 0x123],
		"FE: A13 selects the bank");
	c.type = ATARI_CART_3F;
	atari_cart_reset(&c);
	atari_cart_write(&c, 16384, 0x003f, 5);
	TEST_EQ_LONG(c.bank, 5 % 8, "3F: a write to $3F selects the bank (wrapped)");
	free(rom);
}

static void test_riot(void)
{
	struct atari_riot r;

	memset(&r, 0, sizeof(r));
	atari_riot_reset(&r, 50);
	atari_riot_write(&r, 0x295, 10, 100);		/* TIM8T = 10 at cycle 100 */
	TEST_EQ_LONG(atari_riot_read(&r, 0x284, 101), 9, "riot: counts down from the load");
	TEST_EQ_LONG(atari_riot_read(&r, 0x284, 101 + 8 * 5), 4, "riot: one count per 8 cycles");
	TEST_EQ_LONG(atari_riot_read(&r, 0x285, 101 + 8 * 5), 0, "riot: no underflow yet");
	TEST_EQ_LONG(atari_riot_read(&r, 0x285, 100 + 8 * 12), 0x80, "riot: TIMINT after underflow");
	atari_riot_read(&r, 0x284, 100 + 8 * 12);
	TEST_EQ_LONG(atari_riot_read(&r, 0x285, 100 + 8 * 12 + 1), 0,
		     "riot: reading INTIM clears TIMINT");
}

/* Catch, the project's ROM, from the build. */
static int load_catch(struct atari_rom *rom)
{
	const char *build = getenv("RLKIT_BUILD");
	char path[512];
	struct core_error err = CORE_ERROR_INIT;

	snprintf(path, sizeof(path), "%s/share/roms/catch.bin", build ? build : "build");
	return atari_rom_load_file(rom, path, 0, &err);
}

/* Catch, loaded into *rom, and its game (the table's first where its MD5
 * is not in the table: test_clone says so); NULL, the test `what`
 * skipped, where catch.bin is not built. */
static const struct atari_game *load_catch_game(struct atari_rom *rom, const char *what)
{
	const struct atari_game *g;

	if (load_catch(rom) < 0) {
		test_skip("catch.bin not built", what);
		return NULL;
	}
	g = atari_game_by_md5(rom->md5);
	return g ? g : &atari_games[0];
}

/*
 * A batch's threads step its environments a few steps at a time, in
 * turns: each environment ends as one atari_env_run of all the steps from
 * its seed leaves it (state, counts), with one thread and with three, with
 * observations, over more steps than a turn.
 */
static void test_batch_turns(void)
{
	static struct atari_env one;
	static uint8_t fb[2 * ATARI_FB_SIZE], obs[84 * 84];
	struct core_error err = CORE_ERROR_INIT;
	struct atari_env_config cfg = ATARI_ENV_CONFIG_INIT;
	struct atari_rom rom = ATARI_ROM_INIT;
	const struct atari_game *g;
	int same = 1;

	if (!(g = load_catch_game(&rom, "batch: turns of steps equal one run per environment")))
		return;
	cfg.obs = ATARI_OBS_GRAY;
	cfg.resize = 1;
	cfg.seed = 7;
	for (int threads = 1; threads <= 3; threads += 2) {
		struct atari_batch b;
		struct atari_batch_stats st;
		struct atari_run_counts sum = { 0, 0, 0 };

		if (atari_batch_init(&b, &rom, g, &cfg, 5, threads, &err) < 0 ||
		    atari_batch_run(&b, 70, &st, &err) < 0)
			abort();
		for (int i = 0; i < 5; i++) {
			uint64_t rng = atari_env_run_seed(&cfg, (uint32_t)i);

			atari_env_init(&one, &rom, g, &cfg, (uint32_t)i, fb);
			atari_env_run(&one, &rom, g, &cfg, &rng, 70, fb, obs, &sum);
			same &= !memcmp(&one, &b.envs[i], sizeof(one)) &&
				!memcmp(obs, b.obs + (size_t)i * b.obs_size, sizeof(obs));
		}
		same &= st.steps == 5 * 70 && st.frames == sum.frames &&
			st.episodes == sum.episodes && st.reward == sum.reward;
		atari_batch_release(&b);
	}
	TEST_OK(same, "batch: turns of steps equal one run per environment, 1 and 3 threads");
	atari_rom_release(&rom);
}

static void test_clone(void)
{
	static struct atari_env a, b;
	static uint8_t fba[2 * ATARI_FB_SIZE], fbb[2 * ATARI_FB_SIZE];
	struct atari_env_config cfg = ATARI_ENV_CONFIG_INIT;
	struct atari_rom rom = ATARI_ROM_INIT;
	const struct atari_game *g;
	int same = 1;

	if (!(g = load_catch_game(&rom, "clone: a copied state continues identically")))
		return;
	TEST_OK(atari_game_by_md5(rom.md5) && !strcmp(g->name, "catch"),
		"catch: the built ROM has the MD5 of the table");
	cfg.repeat_action_probability = 0;
	atari_env_init(&a, &rom, g, &cfg, 0, fba);
	for (int i = 0; i < 50; i++)
		atari_env_step(&a, &rom, g, &cfg, ATARI_RIGHT, fba);
	b = a;
	memcpy(fbb, fba, sizeof(fba));
	for (int i = 0; i < 200; i++) {
		int ra = atari_env_step(&a, &rom, g, &cfg, i % 3 ? ATARI_LEFT : ATARI_NOOP, fba);
		int rb = atari_env_step(&b, &rom, g, &cfg, i % 3 ? ATARI_LEFT : ATARI_NOOP, fbb);

		same &= ra == rb && !memcmp(&a, &b, sizeof(a)) &&
			!memcmp(atari_env_screen(&a, fba), atari_env_screen(&b, fbb),
				ATARI_SCREEN_WIDTH * ATARI_SCREEN_HEIGHT);
	}
	TEST_OK(same, "clone: a copied state continues identically");
	TEST_OK(sizeof(struct atari_machine) - ATARI_CART_RAM < 2048,
		"state: %zu bytes besides the cartridge RAM, under 2 KiB",
		sizeof(struct atari_machine) - ATARI_CART_RAM);
	TEST_OK(a.m.riot.ram[0x01] < 3, "catch: missed balls cost lives");
	atari_rom_release(&rom);
}

static void test_env(void)
{
	static struct atari_env e;
	static uint8_t fb[2 * ATARI_FB_SIZE], obs[84 * 84 * 3];
	struct atari_env_config cfg = ATARI_ENV_CONFIG_INIT;
	struct atari_rom rom = ATARI_ROM_INIT;
	const struct atari_game *g;
	int frames, ok = 1;

	if (!(g = load_catch_game(&rom, "env: frame skip, frame cap, observations")))
		return;
	cfg.frameskip = 3;
	cfg.max_frames = 30;
	cfg.obs = ATARI_OBS_RGB;
	cfg.resize = 1;
	atari_env_init(&e, &rom, g, &cfg, 0, fb);
	frames = (int)e.episode_frame;
	atari_env_step(&e, &rom, g, &cfg, ATARI_NOOP, fb);
	TEST_EQ_LONG(e.episode_frame - (uint32_t)frames, 3, "env: --frameskip 3 runs 3 frames a step");
	for (int i = 0; i < 20; i++)
		atari_env_step(&e, &rom, g, &cfg, ATARI_NOOP, fb);
	TEST_OK(atari_env_terminal(&e, &cfg) && e.truncated, "env: the frame cap ends the episode");
	atari_env_observe(&e, &cfg, fb, obs);
	/* Catch's background is colour $82 left of every object (columns < 8). */
	for (int y = 10; y < 70; y++)
		for (int c = 0; c < 3; c++)
			ok &= obs[3 * (y * 84 + 1) + c] ==
			      (uint8_t)(atari_palette_rgb(0x82) >> (16 - 8 * c));
	TEST_OK(ok, "env: 84x84 RGB observation shows the blue background");
	atari_env_reset(&e, &rom, g, &cfg, fb);
	TEST_OK(!atari_env_terminal(&e, &cfg) && atari_env_lives(&e) == 3,
		"env: reset starts a new episode with 3 lives");
	atari_rom_release(&rom);
}

/*
 * Max-pooling pools the last two frames of a step; a reset, and a step of
 * one frame, show their last frame alone (as Gymnasium's
 * AtariPreprocessing and ALE's vector environment).  Noop starts are 1 to
 * noop_max frames.
 */
static void test_pool_and_noops(void)
{
	static struct atari_env e;
	static uint8_t fb[2 * ATARI_FB_SIZE], obs[ATARI_SCREEN_WIDTH * ATARI_SCREEN_HEIGHT];
	struct atari_env_config cfg = ATARI_ENV_CONFIG_INIT;
	struct atari_rom rom = ATARI_ROM_INIT;
	const struct atari_game *g;
	int alone = 1, pooled = 1, pools = 0, noops_ok = 1, lengths = 0;
	uint32_t seen = 0;

	if (!(g = load_catch_game(&rom, "observe: max-pooling pools a step's last two frames")))
		return;
	cfg.obs = ATARI_OBS_GRAY;
	cfg.maxpool = 1;
	cfg.repeat_action_probability = 0;
	for (int skip = 1; skip <= 4; skip += 3) {
		cfg.frameskip = skip;
		atari_env_init(&e, &rom, g, &cfg, 0, fb);
		for (int i = 0; i < 120; i++) {
			const uint8_t *cur = atari_env_screen(&e, fb);
			const uint8_t *prev = fb + (size_t)(e.fb_cur ^ 1) * ATARI_FB_SIZE;
			int two = i > 0 && skip > 1, differ = 0;

			atari_env_observe(&e, &cfg, fb, obs);
			for (int p = 0; p < ATARI_SCREEN_WIDTH * ATARI_SCREEN_HEIGHT; p++) {
				uint8_t c = atari_palette_grey(cur[p]), q = atari_palette_grey(prev[p]);
				uint8_t want = two && q > c ? q : c;

				differ |= want != c;
				(two ? &pooled : &alone)[0] &= obs[p] == want;
			}
			pools += differ;
			atari_env_step(&e, &rom, g, &cfg, i % 5 ? ATARI_RIGHT : ATARI_LEFT, fb);
		}
	}
	TEST_OK(alone, "observe: a reset and a step of one frame show their last frame alone");
	TEST_OK(pooled && pools > 0, "observe: a step of 4 frames pools its last two (%d differ)",
		pools);
	cfg.frameskip = 4;
	cfg.obs = ATARI_OBS_NONE;
	for (uint32_t i = 0; i < 40; i++) {
		uint32_t start;

		cfg.noop_max = 0;
		atari_env_init(&e, &rom, g, &cfg, i, NULL);
		start = e.episode_frame;
		cfg.noop_max = 7;
		atari_env_init(&e, &rom, g, &cfg, i, NULL);
		noops_ok &= e.episode_frame - start >= 1 && e.episode_frame - start <= 7;
		if (e.episode_frame - start < 32 && !(seen & (1u << (e.episode_frame - start))))
			seen |= 1u << (e.episode_frame - start), lengths++;
	}
	TEST_OK(noops_ok && lengths >= 5, "reset: noop starts are 1 to 7 frames (%d lengths seen)",
		lengths);
	atari_rom_release(&rom);
}

/*
 * The timer wait loops the bus passes over (bus_spin in machine.c): each
 * of `LDA/LDX/LDY INTIM; BNE *-5`, the same with BPL, `BIT INTIM; BPL`,
 * and `BIT INTIM; BNE` (not passed over: it tests A too), after a timer
 * set at 1, 8 and 64 cycles a tick with starting values that vary frame
 * by frame (some with bit 7 set, where BPL falls through at once), called
 * as subroutines in the cartridge, must run as the same subroutines copied
 * to RAM, where nothing is passed over: the same cycle count, CPU, RIOT and
 * TIA after every frame.
 */
static size_t spin_program(uint8_t *code, int in_ram)
{
	static const uint8_t loads[8] = { 0xad, 0xae, 0xac, 0xad, 0xac, 0x2c, 0xae, 0x2c };
	static const uint8_t branches[8] = { 0xd0, 0xd0, 0xd0, 0x10, 0x10, 0x10, 0x10, 0xd0 };
	static const uint8_t boot[] = {
		0x78, 0xd8, 0xa2, 0xff, 0x9a,		/* SEI CLD LDX #$FF TXS */
		0xa2, 47, 0xbd, 0x00, 0xf1, 0x95, 0xc0,	/* the routines to $C0 */
		0xca, 0x10, 0xf8,
		0xa9, 0x00, 0x85, 0x80,			/* frame counter */
	};
	static const uint8_t vsync[] = {
		0xa9, 0x02, 0x85, 0x00, 0x85, 0x02, 0x85, 0x02, 0x85, 0x02, 0xa9, 0x00, 0x85, 0x00,
	};
	size_t n = sizeof(boot);
	uint16_t frame = (uint16_t)(0xf000 + n);

	memcpy(code, boot, sizeof(boot));
	memcpy(code + n, vsync, sizeof(vsync));
	n += sizeof(vsync);
	for (int k = 0; k < 8; k++) {
		uint16_t at = (uint16_t)((in_ram ? 0x00c0 : 0xf100) + 6 * k);
		const uint8_t call[] = {
			0xa5, 0x80, 0x49, (uint8_t)(k * 29 + 3),	/* LDA $80 EOR #.. */
			0x8d, (uint8_t)(0x94 + k % 3), 0x02,	/* STA TIM1T/8T/64T */
			0xa9, 0x01,				/* LDA #1 */
			0x20, (uint8_t)at, (uint8_t)(at >> 8),	/* JSR */
		};

		memcpy(code + n, call, sizeof(call));
		n += sizeof(call);
		/* The routine at $F100 + 6k: load INTIM; branch back; RTS. */
		code[0x100 + 6 * k] = loads[k];
		code[0x101 + 6 * k] = 0x84;
		code[0x102 + 6 * k] = 0x02;
		code[0x103 + 6 * k] = branches[k];
		code[0x104 + 6 * k] = 0xfb;
		code[0x105 + 6 * k] = 0x60;
	}
	code[n++] = 0xe6;	/* INC $80 */
	code[n++] = 0x80;
	code[n++] = 0x4c;	/* JMP frame */
	code[n++] = (uint8_t)frame;
	code[n++] = (uint8_t)(frame >> 8);
	return 0x100 + 6 * 8;
}

static void test_spin(void)
{
	static struct atari_machine m[2];
	struct core_error err = CORE_ERROR_INIT;
	struct atari_rom rom[2] = { ATARI_ROM_INIT, ATARI_ROM_INIT };
	int same = 1, frames = 0;

	for (int i = 0; i < 2; i++) {
		uint8_t code[0x200] = { 0 };
		size_t len = spin_program(code, i);
		uint8_t *img = image(4096, code, len);

		if (atari_rom_load_mem(&rom[i], img, 4096, 0, &err) < 0)
			abort();
		free(img);
		atari_machine_power_on(&m[i], &rom[i]);
	}
	for (int f = 0; f < 300 && same; f++) {
		for (int i = 0; i < 2; i++)
			atari_machine_frame(&m[i], &rom[i], NULL);
		same = m[0].cycle == m[1].cycle && !memcmp(&m[0].cpu, &m[1].cpu, sizeof(m[0].cpu)) &&
		       !memcmp(&m[0].riot, &m[1].riot, sizeof(m[0].riot)) &&
		       !memcmp(&m[0].tia, &m[1].tia, sizeof(m[0].tia));
		frames += same;
	}
	TEST_OK(same, "spin: timer wait loops passed over run as when run (%d frames alike)", frames);
	for (int i = 0; i < 2; i++)
		atari_rom_release(&rom[i]);
}

static void test_bad_roms(void)
{
	struct core_error err = CORE_ERROR_INIT;
	struct atari_rom rom = ATARI_ROM_INIT;
	uint8_t *big = calloc(1, ATARI_ROM_MAX + 1);

	TEST_EQ_LONG(atari_rom_load_mem(&rom, big, 0, 0, &err), -EINVAL, "load: empty image");
	TEST_EQ_LONG(atari_rom_load_mem(&rom, big, 3000, 0, &err), -EINVAL, "load: truncated image");
	TEST_OK(strstr(err.msg, "3000 bytes") != NULL, "load: the message gives the size");
	TEST_EQ_LONG(atari_rom_load_mem(&rom, big, ATARI_ROM_MAX + 1, 0, &err), -EINVAL,
		     "load: oversized image");
	TEST_EQ_LONG(atari_rom_load_mem(&rom, big, 12288, 0, &err), -ENOTSUP,
		     "load: an unsupported scheme");
	TEST_OK(strstr(err.msg, "FASC") != NULL, "load: the message names the scheme");
	TEST_EQ_LONG(atari_rom_load_mem(&rom, big, 2048, ATARI_CART_F8, &err), -EINVAL,
		     "load: a forced type that does not fit the size");
	free(big);
}

/*
 * The weights of OpenCV's INTER_AREA along an axis of n pixels to 84, for
 * output pixel o: the part of each input pixel i that its cell [o * scale,
 * (o + 1) * scale) covers, over the cell's width (0 where the part is
 * 1e-3 or less), as a float; the cell's width is scale but at the end.
 */
static float cv_area_weight(int n, int o, int i)
{
	double scale = 1.0 / (84.0 / n), from = o * scale, to = from + scale;
	double width = n - from < scale ? n - from : scale;
	double lo = i > from ? i : from, hi = i + 1 < to ? i + 1 : to;

	if (hi - lo <= 1e-3)
		return 0;
	return (float)((hi - lo) / width);
}

/*
 * 84x84 observations are OpenCV's INTER_AREA of the max-pooled grayscale
 * screen (as Gymnasium's AtariPreprocessing and EnvPool resize): each
 * input row averaged across, each product of a pixel and its weight added
 * in turn, then those rows' products with their weights added down, in
 * floats, rounded half to even.  Checked against that sum over every
 * input pixel with a weight, for the NTSC height, the PAL one, the
 * tallest a frame buffer holds and two between, with rows that repeat
 * the one above.  (share/python/tests checks the rule against OpenCV.)
 */
static void test_resize(void)
{
	static struct atari_env e;
	static uint8_t fb[2 * ATARI_FB_SIZE], obs[84 * 84];
	struct atari_env_config cfg = ATARI_ENV_CONFIG_INIT;
	static const int heights[] = { ATARI_SCREEN_HEIGHT, ATARI_PAL_HEIGHT, ATARI_FB_LINES, 211,
				       230 };
	uint64_t s = 99;
	int bad = 0;

	cfg.obs = ATARI_OBS_GRAY;
	cfg.resize = 1;
	cfg.maxpool = 1;
	for (size_t i = 0; i < sizeof(fb); i++) {
		s = s * 6364136223846793005ull + 1442695040888963407ull;
		/* Runs of one colour, as screens have, and noise. */
		fb[i] = (uint8_t)((i / 40) % 3 ? (s >> 56) & 0xfe : (i / 1000) * 2);
	}
	/* Rows the same as the one above: in both frames (rows 1-99), and
	 * in one only (100-149). */
	for (int r = 1; r < 150; r++)
		for (int f = r < 100 ? 0 : 1; f < 2 && r % 4; f++)
			memcpy(fb + f * ATARI_FB_SIZE + r * 160, fb + f * ATARI_FB_SIZE + (r - 1) * 160, 160);
	for (size_t h = 0; h < sizeof(heights) / sizeof(heights[0]); h++) {
		int height = heights[h];

		memset(&e, 0, sizeof(e));
		e.m.height = (uint16_t)height;
		e.fb_cur = 1;
		e.pool = 1;
		atari_env_observe(&e, &cfg, fb, obs);
		for (int oy = 0; oy < 84; oy++)
			for (int ox = 0; ox < 84; ox++) {
				volatile float down = 0;
				int rows = 0;

				for (int r = 0; r < height; r++) {
					float wy = cv_area_weight(height, oy, r);
					volatile float across = 0;
					int terms = 0;

					if (wy == 0)
						continue;
					for (int x = 0; x < 160; x++) {
						float wx = cv_area_weight(160, ox, x);
						uint8_t a = atari_palette_grey(fb[ATARI_FB_SIZE + r * 160 + x]);
						uint8_t b = atari_palette_grey(fb[r * 160 + x]);
						volatile float t = (float)(a > b ? a : b) * wx;

						if (wx != 0)
							across = terms++ ? across + t : t;
					}
					volatile float t = wy * across;

					down = rows++ ? down + t : t;
				}
				int v = (int)down;	/* rounded half to even */

				v += down - v > 0.5f || (down - v == 0.5f && (v & 1));
				bad += obs[oy * 84 + ox] != (v > 255 ? 255 : v);
			}
	}
	TEST_EQ_LONG(bad, 0, "observe: 84x84 is OpenCV's INTER_AREA, in its order of float sums");
}

/*
 * A step of several frames draws only its last two: what a step draws
 * must equal what drawing every frame draws (both frame buffers, the
 * whole state), on Catch, on random ROMs, and on a ROM whose frames are
 * now whole, now left unfinished (a delay loop of 131k instructions
 * without a TIA write after every fourth frame: unfinished frames across
 * step boundaries, greyed out over what the frame two before drew).
 */
static int same_steps(const struct atari_rom *rom, const struct atari_game *g, int steps)
{
	static struct atari_env a, b;
	static uint8_t fba[2 * ATARI_FB_SIZE], fbb[2 * ATARI_FB_SIZE];
	struct atari_env_config ca = ATARI_ENV_CONFIG_INIT, cb = ATARI_ENV_CONFIG_INIT;
	int same = 1;

	ca.frameskip = 4;
	cb.frameskip = 1;
	atari_env_init(&a, rom, g, &ca, 0, fba);
	atari_env_init(&b, rom, g, &cb, 0, fbb);
	for (int i = 0; i < steps && same; i++) {
		int ra = atari_env_step(&a, rom, g, &ca, i % ATARI_ACTIONS, fba), rb = 0;

		for (int k = 0; k < 4; k++)
			rb += atari_env_step(&b, rom, g, &cb, i % ATARI_ACTIONS, fbb);
		b.pool = a.pool;	/* the steps' lengths differ */
		same = ra == rb && !memcmp(&a, &b, sizeof(a)) && !memcmp(fba, fbb, sizeof(fba));
		if (atari_env_terminal(&a, &ca)) {
			atari_env_reset(&a, rom, g, &ca, fba);
			atari_env_reset(&b, rom, g, &cb, fbb);
		}
	}
	return same;
}

static void test_draw_last_frames(void)
{
	static const uint8_t code[] = {
		0xa2, 0x00, 0x86, 0x09, 0x85, 0x02, 0xe8, 0xd0, 0xf9,	/* 256 lines */
		0xa9, 0x02, 0x85, 0x00, 0x85, 0x02, 0x85, 0x02, 0x85, 0x02,
		0xa9, 0x00, 0x85, 0x00,					/* VSYNC */
		0xe6, 0x80, 0xa5, 0x80, 0x29, 0x03, 0xd0, 0xe1,		/* 3 in 4: again */
		0xa0, 0x00, 0xa2, 0x00, 0xca, 0xd0, 0xfd, 0x88, 0xd0, 0xf8,	/* delay */
		0x4c, 0x00, 0xf0,
	};
	struct core_error err = CORE_ERROR_INIT;
	struct atari_rom rom = ATARI_ROM_INIT;
	uint8_t *img = image(4096, code, sizeof(code));
	uint64_t s = 777;
	int same;

	if (atari_rom_load_mem(&rom, img, 4096, 0, &err) < 0)
		abort();
	TEST_OK(same_steps(&rom, &atari_games[0], 300),
		"draw: steps draw as every frame drawn, frames left unfinished across steps");
	atari_rom_release(&rom);
	if (load_catch(&rom) == 0) {
		TEST_OK(same_steps(&rom, atari_game_by_md5(rom.md5), 300),
			"draw: steps draw as every frame drawn, catch");
		atari_rom_release(&rom);
	} else {
		test_skip("catch.bin not built", "draw: steps draw as every frame drawn, catch");
	}
	same = 1;
	img = realloc(img, 8192);
	for (int round = 0; round < 8; round++) {
		for (size_t i = 0; i < 8192; i++) {
			s = s * 6364136223846793005ull + 1442695040888963407ull;
			img[i] = (uint8_t)(s >> 56);
		}
		if (atari_rom_load_mem(&rom, img, round & 1 ? 8192 : 4096, 0, &err) < 0)
			continue;
		same &= same_steps(&rom, &atari_games[0], 60);
		atari_rom_release(&rom);
	}
	TEST_OK(same, "draw: steps draw as every frame drawn, random ROMs");
	free(img);
}

/* The folder of ale-py's ROMs, from the python3 on PATH; 0 without it. */
static int ale_rom_dir(char *dir, size_t size)
{
	FILE *p = popen("python3 -c 'import ale_py, os; "
			"print(os.path.join(os.path.dirname(ale_py.__file__), \"roms\"))' 2>/dev/null",
			"r");
	int ok;

	if (!p)
		return 0;
	ok = fgets(dir, (int)size, p) != NULL;
	if (pclose(p) != 0 || !ok)
		return 0;
	dir[strcspn(dir, "\n")] = 0;
	return dir[0] != 0;
}

/*
 * The same on every ALE ROM for 100 steps: a frame not drawn latches its
 * collisions lazily (tia_draw.c), which games read back all through their
 * frames, and some games make frames shorter than the screen (Video
 * Checkers, thinking), whose rows left over come from two frames before.
 */
static void test_draw_last_frames_ale(void)
{
	char dir[1024], path[1400];
	DIR *d;
	struct dirent *de;
	int roms = 0, same = 1;

	if (!ale_rom_dir(dir, sizeof(dir)) || !(d = opendir(dir))) {
		test_skip("python3 with ale_py not installed",
			  "draw: steps draw as every frame drawn, ALE's ROMs");
		return;
	}
	while ((de = readdir(d))) {
		struct core_error err = CORE_ERROR_INIT;
		struct atari_rom rom = ATARI_ROM_INIT;
		const struct atari_game *g;
		size_t n = strlen(de->d_name);

		if (n < 4 || strcmp(de->d_name + n - 4, ".bin"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if (atari_rom_load_file(&rom, path, 0, &err) < 0)
			continue;
		g = atari_game_by_md5(rom.md5);
		if (g) {
			roms++;
			if (!same_steps(&rom, g, 100)) {
				fprintf(stderr, "# %s: a step differs from its frames drawn\n",
					de->d_name);
				same = 0;
			}
		}
		atari_rom_release(&rom);
	}
	closedir(d);
	TEST_OK(same && roms >= 50, "draw: steps draw as every frame drawn, ALE's ROMs");
}

/* Random bytes as ROMs of every size and type: no crash, no sanitizer report. */
static void test_fuzz(void)
{
	static const size_t sizes[] = { 2048, 4096, 8192, 16384, 32768, 65536 };
	static struct atari_env e;
	static uint8_t fb[2 * ATARI_FB_SIZE];
	struct atari_env_config cfg = ATARI_ENV_CONFIG_INIT;
	uint64_t s = 12345;
	uint8_t *buf = malloc(65536);
	long loaded = 0;

	for (int round = 0; round < 24; round++) {
		struct core_error err = CORE_ERROR_INIT;
		struct atari_rom rom = ATARI_ROM_INIT;
		size_t size = sizes[round % 6];
		int type = round < 12 ? 0 : 1 + round % (ATARI_CART_TYPES - 1);

		for (size_t i = 0; i < size; i++) {
			s = s * 6364136223846793005ull + 1442695040888963407ull;
			buf[i] = (uint8_t)(s >> 56);
		}
		if (atari_rom_load_mem(&rom, buf, size, type, &err) < 0)
			continue;
		loaded++;
		cfg.frameskip = 1;
		atari_env_init(&e, &rom, &atari_games[0], &cfg, 0, fb);
		for (int i = 0; i < 150; i++)
			atari_env_step(&e, &rom, &atari_games[0], &cfg, i % ATARI_ACTIONS, fb);
		atari_rom_release(&rom);
	}
	/* Each loaded ROM runs its 150 frames: only the count of ROMs can vary. */
	TEST_OK(loaded >= 12, "fuzz: %ld random ROMs ran 150 frames each (plus their resets)", loaded);
	free(buf);
}

int main(void)
{
	test_md5();
	test_rng();
	test_mt();
	test_game_table();
	test_modes();
	test_multi_agent();
	test_batch_modes();
	test_detect();
	test_banks();
	test_dpc();
	test_riot();
	test_clone();
	test_batch_turns();
	test_draw_last_frames();
	test_draw_last_frames_ale();
	test_resize();
	test_env();
	test_pool_and_noops();
	test_spin();
	test_bad_roms();
	test_fuzz();
	return test_done();
}
