/*
 * The Atari 2600 console: 6507 CPU, RIOT, TIA and cartridge on the system
 * bus, as one plain struct.
 *
 * State: struct atari_machine has no pointers, so a console is cloned and
 * restored by copying it (memcpy, or assignment), and arrays of consoles
 * live on a GPU.  What consoles share read-only is in struct atari_rom:
 * the ROM image and the table of system random numbers.  Stepping never
 * allocates.  sizeof(struct atari_machine) is printed by `cule-bench info`;
 * 2 KiB of it is cartridge RAM that only E7 cartridges use.
 *
 * Bus: every CPU cycle is one access, made at its exact cycle.  The bus
 * adds one to `cycle` and then makes the access, so devices see the count
 * of cycles since the last reset including the access's own (the first
 * access after a reset is at cycle 1), as in the emulator ALE is built on.
 * Address decoding uses A12, A7 and A9 of the 13 address lines: cartridge
 * ($1000), RIOT RAM ($80 with A9 clear), RIOT registers ($280), TIA
 * (the rest); 3F cartridges also take $00-$3F.  TIA reads return bits 7-6
 * from the TIA and bits 5-0 from the last value on the data bus (which a
 * read whose value the CPU throws away leaves as it was, as ALE makes no
 * such read).  A write
 * to WSYNC halts the CPU to the start of the next line when it follows a
 * read cycle.
 *
 * System random numbers: ALE's emulator draws from one Mersenne Twister
 * (MT19937) seeded with a fixed seed: 128 draws fill RAM at power-on, each
 * reset draws the RIOT timer (25 + n % 75) and, for Superchip and E7
 * cartridges, the cartridge RAM.  The draws are precomputed in
 * atari_rom.rng; a console keeps the index of its next draw, so clones
 * draw the same numbers.  Beyond the table's end (2^20 draws: 8,000
 * resets of a Superchip game, a million of others) the index wraps.
 */
#ifndef ATARI_MACHINE_H
#define ATARI_MACHINE_H

#include <stddef.h>
#include <stdint.h>

#include "atari/cart.h"
#include "atari/cpu.h"
#include "core/hostdev.h"
#include "atari/riot.h"
#include "atari/tia.h"
#include "core/error.h"

/* The seed ALE gives its emulator's random numbers (system_random_seed). */
#define ATARI_SYSTEM_SEED 4753849u
/* Precomputed system random numbers per ROM. */
#define ATARI_RNG_TABLE (1u << 20)
/* Instructions per frame at most, as in the reference (then the frame is
 * left unfinished and greyed out). */
#define ATARI_FRAME_INSTRUCTIONS 25000

/* A loaded ROM: shared, read-only, by every console that runs it. */
struct atari_rom {
	uint8_t *data;		/* the image */
	uint32_t size;
	uint8_t type;		/* enum atari_cart_type */
	uint8_t reset_bank;	/* F8 bank at reset */
	char md5[33];		/* lowercase hex digest of the image */
	const char *detected;	/* scheme found by autodetection */
	const uint32_t *rng;	/* ATARI_RNG_TABLE system random numbers (shared by all) */
};

#define ATARI_ROM_INIT { NULL, 0, 0, 0, { 0 }, NULL, NULL }

struct atari_machine {
	struct atari_cpu cpu;
	uint8_t bus;		/* last value on the data bus */
	uint8_t last_read;	/* the last access was a read */
	uint8_t pad_[4];
	uint32_t rng_next;	/* index of the next system random number */
	uint64_t cycle;		/* cycles since the last reset */
	/* Inputs and display settings, kept across resets. */
	int32_t pot[4];		/* paddle pots in ohms (ATARI_POT_OPEN: none) */
	uint8_t fire[2];	/* joystick fire buttons pressed */
	uint8_t hmove_blanks;
	uint8_t pad2_;
	uint16_t ystart, height;
	struct atari_riot riot;
	struct atari_tia tia;
	struct atari_cart cart;
};

/*
 * Load a ROM image from memory (copied) or a file.  `type` forces the
 * bank-switching scheme (ATARI_CART_UNKNOWN: detect).  Errors: -EINVAL for
 * an empty, truncated or oversized image or one whose size does not fit
 * the scheme; -ENOTSUP for a scheme this emulator does not run (the message
 * names it); -errno for a file that cannot be read.
 */
int atari_rom_load_mem(struct atari_rom *rom, const void *data, size_t size,
		       int type, struct core_error *err);
int atari_rom_load_file(struct atari_rom *rom, const char *path, int type,
			struct core_error *err);
void atari_rom_release(struct atari_rom *rom);

/* MT19937 outputs for `seed` into out[0..n-1]. */
void atari_rng_fill(uint32_t seed, uint32_t *out, size_t n);

/*
 * Power on: RAM and RIOT timer from the first system random numbers, all
 * chips in their power-on state; then atari_machine_reset().
 */
HOSTDEV void atari_machine_power_on(struct atari_machine *m, const struct atari_rom *rom);

/* System reset (as ALE's System::reset): cycle count 0, RIOT timer and
 * cart RAM redrawn, TIA and banks reset, CPU from the reset vector.  RAM
 * is kept.  The TIA's display settings survive. */
HOSTDEV void atari_machine_reset(struct atari_machine *m, const struct atari_rom *rom);

/*
 * Run one frame: instructions until the TIA completes a frame, or
 * ATARI_FRAME_INSTRUCTIONS of them (the frame is then greyed out and
 * continues next time).  `fb` receives the screen (see atari/tia.h) or is
 * NULL.  Returns 1 when a frame completed, 0 otherwise.
 */
HOSTDEV int atari_machine_frame(struct atari_machine *m, const struct atari_rom *rom,
				uint8_t *fb);

/*
 * Inputs: joystick directions and paddle buttons go to RIOT port A
 * (m->riot.swcha), console switches to port B (m->riot.swchb); these set
 * the rest and survive resets.
 */
HOSTDEV void atari_machine_set_fire(struct atari_machine *m, int player, int pressed);
HOSTDEV void atari_machine_set_pot(struct atari_machine *m, int pot, int32_t ohms);

/* Display settings (see atari_tia_configure); survive resets. */
HOSTDEV int atari_machine_configure(struct atari_machine *m, int ystart, int height,
				   int hmove_blanks);

/* The 128 bytes of RIOT RAM (ALE's getRAM). */
#define ATARI_MACHINE_RAM(m) ((m)->riot.ram)

#endif
