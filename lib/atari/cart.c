#include <errno.h>
#include <string.h>
#include <strings.h>

#include "atari/cart.h"

static const char *const type_names[ATARI_CART_TYPES] = {
	"unknown", "2K", "4K", "F8", "F8SC", "F6", "F6SC", "F4", "F4SC",
	"E0", "FE", "3F", "E7", "DPC",
};

const char *atari_cart_type_name(int type)
{
	return type >= 0 && type < ATARI_CART_TYPES ? type_names[type] : NULL;
}

int atari_cart_type_parse(const char *name)
{
	for (int t = 1; t < ATARI_CART_TYPES; t++)
		if (strcasecmp(name, type_names[t]) == 0)
			return t;
	return ATARI_CART_UNKNOWN;
}

/* Count non-overlapping occurrences of `sig`, up to `minhits`. */
static int has_bytes(const uint8_t *rom, size_t size, const uint8_t *sig,
		     size_t len, unsigned minhits)
{
	unsigned count = 0;

	if (len > size)
		return 0;
	for (size_t i = 0; i < size - len && count < minhits; i++) {
		if (memcmp(rom + i, sig, len) == 0) {
			count++;
			i += len;
		}
	}
	return count >= minhits;
}

static int probably_sc(const uint8_t *rom, size_t size)
{
	for (size_t b = 0; b < size / 4096; b++)
		for (size_t j = 0; j < 256; j++)
			if (rom[b * 4096 + j] != rom[b * 4096])
				return 0;
	return 1;
}

static int probably_3f(const uint8_t *rom, size_t size)
{
	return has_bytes(rom, size, (const uint8_t *)"\x85\x3f", 2, 2);
}

static int probably_3e(const uint8_t *rom, size_t size)
{
	return has_bytes(rom, size, (const uint8_t *)"\x85\x3e\xa9\x00", 4, 1);
}

static int probably_any(const uint8_t *rom, size_t size, const char *sigs, size_t n, size_t len)
{
	for (size_t i = 0; i < n; i++)
		if (has_bytes(rom, size, (const uint8_t *)sigs + i * len, len, 1))
			return 1;
	return 0;
}

static int probably_e0(const uint8_t *rom, size_t size)
{
	return probably_any(rom, size, "\x8d\xe0\x1f\x8d\xe0\x5f\x8d\xe9\xff"
			    "\xad\xe9\xff\xad\xed\xff\xad\xf3\xbf", 6, 3);
}

static int probably_fe(const uint8_t *rom, size_t size)
{
	return probably_any(rom, size, "\x20\x00\xd0\xc6\xc5\x20\xc3\xf8\xa5\x82"
			    "\xd0\xfb\x20\x73\xfe\x20\x00\xf0\x84\xd6", 4, 5);
}

static int probably_ua(const uint8_t *rom, size_t size)
{
	return has_bytes(rom, size, (const uint8_t *)"\x8d\x40\x02", 3, 1);
}

static int probably_cv(const uint8_t *rom, size_t size)
{
	return probably_any(rom, size, "\x9d\xff\xf3\x99\x00\xf4", 2, 3);
}

static int probably_e7(const uint8_t *rom, size_t size)
{
	uint8_t first = rom[0x3800];
	int diff = 0;

	for (size_t i = 0x3800; i < 0x3a00; i++)
		if (rom[i] != first)
			return 0;
	for (size_t i = 0x3800 - 32; i < 0x3800; i++)
		diff += rom[i] != first;
	for (size_t i = 0x3a00; i < 0x3a00 + 32; i++)
		diff += rom[i] != first;
	return diff > 0;
}

#define DETECTED(name, type) do { if (detected) *detected = (name); return (type); } while (0)

int atari_cart_detect(const uint8_t *rom, size_t size, const char **detected)
{
	if (size != 0 && size % 8448 == 0)
		DETECTED("AR", ATARI_CART_UNKNOWN);
	if (size == 2048 || (size == 4096 && memcmp(rom, rom + 2048, 2048) == 0)) {
		if (probably_cv(rom, size))
			DETECTED("CV", ATARI_CART_UNKNOWN);
		DETECTED("2K", ATARI_CART_2K);
	}
	if (size == 4096) {
		if (probably_cv(rom, size))
			DETECTED("CV", ATARI_CART_UNKNOWN);
		DETECTED("4K", ATARI_CART_4K);
	}
	if (size == 8192) {
		if (probably_sc(rom, size))
			DETECTED("F8SC", ATARI_CART_F8SC);
		if (memcmp(rom, rom + 4096, 4096) == 0)
			DETECTED("4K", ATARI_CART_4K);
		if (probably_e0(rom, size))
			DETECTED("E0", ATARI_CART_E0);
		if (probably_3e(rom, size))
			DETECTED("3E", ATARI_CART_UNKNOWN);
		if (probably_3f(rom, size))
			DETECTED("3F", ATARI_CART_3F);
		if (probably_ua(rom, size))
			DETECTED("UA", ATARI_CART_UNKNOWN);
		if (probably_fe(rom, size))
			DETECTED("FE", ATARI_CART_FE);
		DETECTED("F8", ATARI_CART_F8);
	}
	if (size == 10495 || size == 10496 || size == 10240)
		DETECTED("DPC", ATARI_CART_DPC);
	if (size == 12288)
		DETECTED("FASC", ATARI_CART_UNKNOWN);
	if (size == 16384) {
		if (probably_sc(rom, size))
			DETECTED("F6SC", ATARI_CART_F6SC);
		if (probably_e7(rom, size))
			DETECTED("E7", ATARI_CART_E7);
		if (probably_3e(rom, size))
			DETECTED("3E", ATARI_CART_UNKNOWN);
		if (probably_3f(rom, size))
			DETECTED("3F", ATARI_CART_3F);
		DETECTED("F6", ATARI_CART_F6);
	}
	if (size == 32768) {
		if (probably_sc(rom, size))
			DETECTED("F4SC", ATARI_CART_F4SC);
		if (probably_3e(rom, size))
			DETECTED("3E", ATARI_CART_UNKNOWN);
		if (probably_3f(rom, size))
			DETECTED("3F", ATARI_CART_3F);
		DETECTED("F4", ATARI_CART_F4);
	}
	if (probably_3e(rom, size))
		DETECTED("3E", ATARI_CART_UNKNOWN);
	if (probably_3f(rom, size) && size % 2048 == 0 && size <= ATARI_ROM_MAX)
		DETECTED("3F", ATARI_CART_3F);
	if (size == 65536)
		DETECTED("MB", ATARI_CART_UNKNOWN);
	if (size == 131072)
		DETECTED("MC", ATARI_CART_UNKNOWN);
	DETECTED("unrecognized", ATARI_CART_UNKNOWN);
}

int atari_cart_check_size(int type, size_t size)
{
	switch (type) {
	case ATARI_CART_2K: return size == 2048 || size == 4096 ? 0 : -EINVAL;
	case ATARI_CART_4K: return size == 4096 || size == 8192 ? 0 : -EINVAL;
	case ATARI_CART_F8: case ATARI_CART_F8SC:
	case ATARI_CART_E0: case ATARI_CART_FE: return size == 8192 ? 0 : -EINVAL;
	case ATARI_CART_F6: case ATARI_CART_F6SC: case ATARI_CART_E7:
		return size == 16384 ? 0 : -EINVAL;
	case ATARI_CART_F4: case ATARI_CART_F4SC: return size == 32768 ? 0 : -EINVAL;
	case ATARI_CART_DPC: return size >= 10240 && size <= 10496 ? 0 : -EINVAL;
	case ATARI_CART_3F:
		return size >= 2048 && size % 2048 == 0 && size <= ATARI_ROM_MAX ? 0 : -EINVAL;
	default: return -EINVAL;
	}
}

HOSTDEV int atari_cart_ram_size(int type)
{
	switch (type) {
	case ATARI_CART_F8SC: case ATARI_CART_F6SC: case ATARI_CART_F4SC: return 128;
	case ATARI_CART_E7: return 2048;
	default: return 0;
	}
}

HOSTDEV void atari_cart_power_on(struct atari_cart *c)
{
	memset(&c->dpc, 0, sizeof(c->dpc));
	c->dpc.random = 1;
}

HOSTDEV void atari_cart_reset(struct atari_cart *c)
{
	c->bank = c->type == ATARI_CART_F8 ? c->reset_bank :
		  (c->type == ATARI_CART_F8SC || c->type == ATARI_CART_DPC) ? 1 : 0;
	c->dpc.cycle = 0;
	c->dpc.fraction = 0.0;
	c->slice[0] = 4;
	c->slice[1] = 5;
	c->slice[2] = 6;
	c->slice[3] = 7;
	c->ram_bank = 0;
}

/* Hotspot ranges of the F8/F6/F4 families: first hotspot and count. */
HOSTDEV static void cart_hotspot(struct atari_cart *c, uint16_t a)
{
	uint16_t first;
	int n;

	switch (c->type) {
	case ATARI_CART_F8: case ATARI_CART_F8SC: case ATARI_CART_DPC:
		first = 0xff8; n = 2; break;
	case ATARI_CART_F6: case ATARI_CART_F6SC: first = 0xff6; n = 4; break;
	case ATARI_CART_F4: case ATARI_CART_F4SC: first = 0xff4; n = 8; break;
	case ATARI_CART_E0:
		if (a >= 0xfe0 && a <= 0xff7)
			c->slice[(a - 0xfe0) >> 3] = (uint8_t)(a & 7);
		return;
	case ATARI_CART_E7:
		if (a >= 0xfe0 && a <= 0xfe7)
			c->bank = (uint8_t)(a & 7);
		else if (a >= 0xfe8 && a <= 0xfeb)
			c->ram_bank = (uint8_t)(a & 3);
		return;
	default:
		return;
	}
	if (a >= first && a < first + n)
		c->bank = (uint8_t)(a - first);
}

/* The random number generator: a shift register fed with the NOT of the
 * EOR of its bits 7, 5, 4 and 3. */
HOSTDEV static void dpc_clock_random(struct atari_dpc *d)
{
	uint8_t r = d->random;
	unsigned in = ((r >> 7) ^ (r >> 5) ^ (r >> 4) ^ (r >> 3) ^ 1) & 1;

	d->random = (uint8_t)(r << 1 | in);
}

/* Move the music fetchers by the oscillator clocks since the last update. */
HOSTDEV static void dpc_music(struct atari_dpc *d, uint64_t cycle)
{
	double clocks = 15750.0 * (double)(int)(cycle - d->cycle) / 1193191.66666667 + d->fraction;
	int whole = (int)clocks;

	d->cycle = cycle;
	d->fraction = clocks - (double)whole;
	if (whole <= 0)
		return;
	for (int x = 5; x <= 7; x++) {
		int low = d->counter[x] & 0xff;

		if (!d->music[x - 5])
			continue;
		if (d->top[x] != 0) {
			low -= whole % (d->top[x] + 1);
			if (low < 0)
				low += d->top[x] + 1;
		} else {
			low = 0;
		}
		if (low <= d->bottom[x])
			d->flag[x] = 0x00;
		else if (low <= d->top[x])
			d->flag[x] = 0xff;
		d->counter[x] = (uint16_t)((d->counter[x] & 0x700) | low);
	}
}

HOSTDEV uint8_t atari_cart_dpc_read(struct atari_cart *c, const uint8_t *rom, uint16_t addr,
				    uint64_t cycle)
{
	struct atari_dpc *d = &c->dpc;
	uint16_t a = addr & 0x0fff;
	const uint8_t *display = rom + 8192;
	unsigned i = a & 7, v = 0;

	dpc_clock_random(d);
	if (a >= 0x40) {
		cart_hotspot(c, a);
		return rom[((uint32_t)c->bank << 12) + a];
	}
	if ((d->counter[i] & 0xff) == d->top[i])
		d->flag[i] = 0xff;
	else if ((d->counter[i] & 0xff) == d->bottom[i])
		d->flag[i] = 0x00;
	switch ((a >> 3) & 7) {
	case 0:
		if (i < 4) {
			v = d->random;
		} else {
			dpc_music(d, cycle);
			/* amplitudes 4, 5 and 6 of the three voices, summed */
			v = (d->music[0] && d->flag[5] ? 4 : 0) + (d->music[1] && d->flag[6] ? 5 : 0) +
			    (d->music[2] && d->flag[7] ? 6 : 0);
		}
		break;
	case 1:
		v = display[2047 - d->counter[i]];
		break;
	case 2:
		v = display[2047 - d->counter[i]] & d->flag[i];
		break;
	case 7:
		v = d->flag[i];
		break;
	default:
		break;
	}
	if (i < 5 || !d->music[i - 5])
		d->counter[i] = (uint16_t)((d->counter[i] - 1) & 0x7ff);
	return (uint8_t)v;
}

HOSTDEV static void dpc_write(struct atari_cart *c, uint16_t a, uint8_t value)
{
	struct atari_dpc *d = &c->dpc;
	unsigned i = a & 7;

	dpc_clock_random(d);
	if (a < 0x40 || a >= 0x80) {
		cart_hotspot(c, a);
		return;
	}
	switch ((a >> 3) & 7) {
	case 0:
		d->top[i] = value;
		d->flag[i] = 0;
		break;
	case 1:
		d->bottom[i] = value;
		break;
	case 2:		/* a music fetcher reloads from its top */
		d->counter[i] = (uint16_t)((d->counter[i] & 0x700) |
					   (i >= 5 && d->music[i - 5] ? d->top[i] : value));
		break;
	case 3:
		d->counter[i] = (uint16_t)((value & 7) << 8 | (d->counter[i] & 0xff));
		if (i >= 5)
			d->music[i - 5] = (value & 0x10) != 0;
		break;
	case 6:
		d->random = 1;
		break;
	default:
		break;
	}
}

HOSTDEV uint8_t atari_cart_read(struct atari_cart *c, const uint8_t *rom,
				uint32_t size, uint16_t addr)
{
	uint16_t a = addr & 0x0fff;

	switch (c->type) {
	case ATARI_CART_2K:
		return rom[a & 0x07ff];
	case ATARI_CART_4K:
		return rom[a];
	case ATARI_CART_F8SC: case ATARI_CART_F6SC: case ATARI_CART_F4SC:
		if (a >= 0x80 && a < 0x100)
			return c->ram[a & 0x7f];
		/* fall through */
	case ATARI_CART_F8: case ATARI_CART_F6: case ATARI_CART_F4:
		cart_hotspot(c, a);
		return rom[((uint32_t)c->bank << 12) + a];
	case ATARI_CART_E0:
		cart_hotspot(c, a);
		return rom[((uint32_t)c->slice[a >> 10] << 10) + (a & 0x3ff)];
	case ATARI_CART_FE:
		return rom[a + ((addr & 0x2000) ? 0 : 4096)];
	case ATARI_CART_3F:
		if (a < 0x800)
			return rom[((uint32_t)c->bank << 11) + (a & 0x7ff)];
		return rom[size - 2048 + (a & 0x7ff)];
	case ATARI_CART_E7:
		cart_hotspot(c, a);
		if (a < 0x800 && c->bank == 7 && a >= 0x400)
			return c->ram[a & 0x3ff];
		if (a >= 0x900 && a < 0xa00)
			return c->ram[1024 + (c->ram_bank << 8) + (a & 0xff)];
		return rom[((uint32_t)(a < 0x800 ? c->bank : 7) << 11) + (a & 0x7ff)];
	case ATARI_CART_DPC:
		return atari_cart_dpc_read(c, rom, addr, c->dpc.cycle);
	default:
		return 0;
	}
}

HOSTDEV void atari_cart_write(struct atari_cart *c, uint32_t size, uint16_t addr,
			      uint8_t value)
{
	uint16_t a = addr & 0x0fff;

	switch (c->type) {
	case ATARI_CART_F8SC: case ATARI_CART_F6SC: case ATARI_CART_F4SC:
		if (a < 0x80) {
			c->ram[a] = value;
			return;
		}
		cart_hotspot(c, a);
		return;
	case ATARI_CART_3F:
		if (a <= 0x3f)
			c->bank = (uint8_t)((uint32_t)value * 2048 < size ? value :
					    value % (size / 2048));
		return;
	case ATARI_CART_E7:
		if (a < 0x400 && c->bank == 7) {
			c->ram[a & 0x3ff] = value;
			return;
		}
		if (a >= 0x800 && a < 0x900) {
			c->ram[1024 + (c->ram_bank << 8) + (a & 0xff)] = value;
			return;
		}
		cart_hotspot(c, a);
		return;
	case ATARI_CART_DPC:
		dpc_write(c, a, value);
		return;
	default:
		cart_hotspot(c, a);
		return;
	}
}
