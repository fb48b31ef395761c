/*
 * Cartridges: the ROM image, shared read-only by every console that runs
 * it, and the bank-switching state, which lives in each console's state.
 *
 * Supported bank-switching schemes ("types"):
 *
 *	2K, 4K		no switching (2K mirrored)
 *	F8, F6, F4	8, 16, 32 KiB; hotspots $1FF8-9, $1FF6-9, $1FF4-B
 *	F8SC F6SC F4SC	the same with the 128-byte Superchip RAM
 *			(write $1000-$107F, read $1080-$10FF)
 *	E0		Parker Brothers 8 KiB, four 1 KiB slices
 *	FE		Activision 8 KiB, bank chosen by address line A13
 *	3F		Tigervision, 2 KiB banks switched by writes to $00-$3F
 *	E7		M-Network 16 KiB with 2 KiB of RAM
 *	DPC		Activision's Pitfall II: 8 KiB in two F8 banks, 2 KiB of
 *			display data read through eight data fetchers
 *			($1000-$103F read, $1040-$107F write), a random
 *			number generator and three music fetchers clocked by
 *			a 15,750 Hz oscillator (from the CPU cycle count)
 *
 * Detection follows the emulator ALE is built on: by size, then by
 * signatures (Superchip RAM area, E0/3F/FE/E7 code patterns).  Schemes it
 * knows but this emulator does not run (AR, CV, 3E, UA, FASC, MB, MC)
 * are reported by name so that the caller can say why a ROM cannot run.
 *
 * The accessors are HOSTDEV so that the console's bus can call them on a
 * CUDA device; `rom` is the image, `size` its length.
 */
#ifndef ATARI_CART_H
#define ATARI_CART_H

#include <stddef.h>
#include <stdint.h>

#include "core/hostdev.h"

enum atari_cart_type {
	ATARI_CART_UNKNOWN = 0,
	ATARI_CART_2K,
	ATARI_CART_4K,
	ATARI_CART_F8,
	ATARI_CART_F8SC,
	ATARI_CART_F6,
	ATARI_CART_F6SC,
	ATARI_CART_F4,
	ATARI_CART_F4SC,
	ATARI_CART_E0,
	ATARI_CART_FE,
	ATARI_CART_3F,
	ATARI_CART_E7,
	ATARI_CART_DPC,
	ATARI_CART_TYPES
};

/* Largest cartridge RAM (E7: 2 KiB); Superchip carts use 128 bytes of it. */
#define ATARI_CART_RAM 2048
/* Largest ROM accepted (3F carts address up to 256 banks of 2 KiB). */
#define ATARI_ROM_MAX (512 * 1024)

/* The DPC chip's registers (as the emulator ALE is built on keeps them). */
struct atari_dpc {
	uint8_t top[8], bottom[8], flag[8];
	uint16_t counter[8];	/* 11 bits */
	uint8_t music[3];	/* fetchers 5-7 in music mode */
	uint8_t random;		/* shift register, clocked by every call of the chip */
	uint64_t cycle;		/* CPU cycle of the last music update */
	double fraction;	/* oscillator clocks not yet counted */
};

struct atari_cart {
	uint8_t type;		/* enum atari_cart_type */
	uint8_t bank;		/* F8/F6/F4/3F bank; E7 first segment */
	uint8_t slice[4];	/* E0 slices */
	uint8_t ram_bank;	/* E7 256-byte RAM bank */
	uint8_t reset_bank;	/* F8 bank at reset (1, or 0 for swapped images) */
	uint8_t ram[ATARI_CART_RAM];
	struct atari_dpc dpc;
};

/* "F8SC" for ATARI_CART_F8SC, ...; NULL when out of range. */
const char *atari_cart_type_name(int type);

/* The type named `name` (case-insensitive), or ATARI_CART_UNKNOWN. */
int atari_cart_type_parse(const char *name);

/*
 * Detect the scheme of a ROM image.  Returns the type, or
 * ATARI_CART_UNKNOWN when the scheme is not supported; *detected (may be
 * NULL) is set to the scheme's name either way ("AR", "DPC", ... or
 * "unrecognized" for a size nothing uses).
 */
int atari_cart_detect(const uint8_t *rom, size_t size, const char **detected);

/* Check that a ROM of `size` bytes fits scheme `type`: 0 or -EINVAL. */
int atari_cart_check_size(int type, size_t size);

/*
 * Reset to the power-on banks.  Cart RAM is filled by the caller (the
 * console draws it from the system random numbers, as ALE does).
 */
HOSTDEV void atari_cart_reset(struct atari_cart *c);

/* Power-on state of the cart's registers that a reset keeps (DPC). */
HOSTDEV void atari_cart_power_on(struct atari_cart *c);

/* Number of random bytes a reset of this cart draws for its RAM. */
HOSTDEV int atari_cart_ram_size(int type);

/*
 * A CPU read or write in the cartridge's address space ($1000-$1FFF, or
 * $0000-$003F for 3F carts), with the full 16-bit address the CPU drove.
 */
HOSTDEV uint8_t atari_cart_read(struct atari_cart *c, const uint8_t *rom,
				uint32_t size, uint16_t addr);
HOSTDEV void atari_cart_write(struct atari_cart *c, uint32_t size, uint16_t addr,
			      uint8_t value);

/*
 * A DPC read through the chip ($1000-$107F and $1FC0-$1FFF; the rest of
 * the bank is plain ROM, read without the chip, as in ALE's emulator),
 * at CPU cycle `cycle` (since the last reset), which clocks the music.
 */
HOSTDEV uint8_t atari_cart_dpc_read(struct atari_cart *c, const uint8_t *rom, uint16_t addr,
				    uint64_t cycle);

#endif
