#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atari/machine.h"
#include "atari/md5.h"

/* Images that hold their two F8 banks in the opposite order. */
static const char *const f8_swapped[] = {
	"bc24440b59092559a1ec26055fd1270e", "75ee371ccfc4f43e7d9b8f24e1266b55",
};

void atari_rng_fill(uint32_t seed, uint32_t *out, size_t n)
{
	uint32_t mt[624];
	int idx = 624;

	mt[0] = seed;
	for (int i = 1; i < 624; i++)
		mt[i] = 1812433253u * (mt[i - 1] ^ (mt[i - 1] >> 30)) + (uint32_t)i;
	for (size_t k = 0; k < n; k++) {
		uint32_t y;

		if (idx >= 624) {
			for (int i = 0; i < 624; i++) {
				y = (mt[i] & 0x80000000u) | (mt[(i + 1) % 624] & 0x7fffffffu);
				mt[i] = mt[(i + 397) % 624] ^ (y >> 1) ^ ((y & 1) ? 0x9908b0dfu : 0);
			}
			idx = 0;
		}
		y = mt[idx++];
		y ^= y >> 11;
		y ^= (y << 7) & 0x9d2c5680u;
		y ^= (y << 15) & 0xefc60000u;
		y ^= y >> 18;
		out[k] = y;
	}
}

int atari_rom_load_mem(struct atari_rom *rom, const void *data, size_t size,
		       int type, struct core_error *err)
{
	const char *detected = NULL;
	int detected_type;

	if (size == 0)
		return core_error_set(err, -EINVAL, "empty ROM image");
	if (size > ATARI_ROM_MAX)
		return core_error_set(err, -EINVAL,
				      "ROM image too large: %zu bytes (at most %d)",
				      size, ATARI_ROM_MAX);
	detected_type = atari_cart_detect(data, size, &detected);
	if (type == ATARI_CART_UNKNOWN) {
		if (detected_type == ATARI_CART_UNKNOWN) {
			if (strcmp(detected, "unrecognized") == 0)
				return core_error_set(err, -EINVAL,
						      "unrecognized ROM image: %zu bytes is no cartridge size (truncated?)",
						      size);
			return core_error_set(err, -ENOTSUP,
					      "unsupported cartridge type %s (%zu bytes)",
					      detected, size);
		}
		type = detected_type;
	}
	if (atari_cart_check_size(type, size) < 0)
		return core_error_set(err, -EINVAL, "a %s cartridge cannot hold %zu bytes",
				      atari_cart_type_name(type), size);
	memset(rom, 0, sizeof(*rom));
	rom->data = malloc(size);
	rom->rng = malloc(sizeof(*rom->rng) * ATARI_RNG_TABLE);
	if (!rom->data || !rom->rng) {
		atari_rom_release(rom);
		return core_error_set(err, -ENOMEM, "out of memory");
	}
	memcpy(rom->data, data, size);
	rom->size = (uint32_t)size;
	rom->type = (uint8_t)type;
	rom->detected = detected;
	atari_md5_hex(data, size, rom->md5);
	rom->reset_bank = 1;
	for (size_t i = 0; i < sizeof(f8_swapped) / sizeof(*f8_swapped); i++)
		if (strcmp(rom->md5, f8_swapped[i]) == 0)
			rom->reset_bank = 0;
	atari_rng_fill(ATARI_SYSTEM_SEED, rom->rng, ATARI_RNG_TABLE);
	return 0;
}

int atari_rom_load_file(struct atari_rom *rom, const char *path, int type,
			struct core_error *err)
{
	FILE *fp = fopen(path, "rb");
	uint8_t *buf;
	size_t n;
	int ret;

	if (!fp)
		return core_error_errno(err, errno, "cannot open '%s'", path);
	buf = malloc(ATARI_ROM_MAX + 1);
	if (!buf) {
		fclose(fp);
		return core_error_set(err, -ENOMEM, "out of memory");
	}
	n = fread(buf, 1, ATARI_ROM_MAX + 1, fp);
	if (ferror(fp)) {
		ret = core_error_errno(err, errno ? errno : EIO, "cannot read '%s'", path);
	} else {
		ret = atari_rom_load_mem(rom, buf, n, type, err);
		if (ret < 0)
			core_error_prefix(err, "'%s': ", path);
	}
	free(buf);
	fclose(fp);
	return ret;
}

void atari_rom_release(struct atari_rom *rom)
{
	free(rom->data);
	free(rom->rng);
	rom->data = NULL;
	rom->rng = NULL;
}

/* The bus, as the CPU core sees it. */
struct bus {
	struct atari_machine *m;
	const struct atari_rom *rom;
	uint8_t *fb;
};

static HOSTDEV inline uint32_t rng_draw(struct atari_machine *m, const struct atari_rom *rom)
{
	uint32_t v = rom->rng[m->rng_next];

	m->rng_next = (m->rng_next + 1) & (ATARI_RNG_TABLE - 1);
	return v;
}

static HOSTDEV inline uint8_t bus_read(struct bus *b, uint16_t addr)
{
	struct atari_machine *m = b->m;
	uint16_t a = addr & 0x1fff;
	uint8_t v;

	m->cycle++;
	if ((a & 0x1000) || (a < 0x40 && m->cart.type == ATARI_CART_3F))
		v = atari_cart_read(&m->cart, b->rom->data, b->rom->size, addr);
	else if ((a & 0x1080) == 0x0080)
		v = (a & 0x0200) ? atari_riot_read(&m->riot, a, (uint32_t)m->cycle) :
				   m->riot.ram[a & 0x7f];
	else
		v = (uint8_t)((atari_tia_read(&m->tia, a, m->cycle, b->fb) & 0xc0) |
			      (m->bus & 0x3f));
	m->bus = v;
	m->last_read = 1;
	return v;
}

static HOSTDEV inline void tia_poke(struct bus *b, uint16_t a, uint8_t v)
{
	struct atari_machine *m = b->m;

	atari_tia_write(&m->tia, a, v, m->cycle, b->fb);
	if ((a & 0x3f) == 0x02 && m->last_read)
		m->cycle = atari_tia_wsync_until(&m->tia, m->cycle);
}

static HOSTDEV inline void bus_write(struct bus *b, uint16_t addr, uint8_t v)
{
	struct atari_machine *m = b->m;
	uint16_t a = addr & 0x1fff;

	m->cycle++;
	m->bus = v;
	if ((a & 0x1000) || (a < 0x40 && m->cart.type == ATARI_CART_3F)) {
		atari_cart_write(&m->cart, b->rom->size, addr, v);
		if (m->cart.type == ATARI_CART_3F && (addr & 0x0fff) <= 0x3f)
			tia_poke(b, addr & 0x0fff, v);
	} else if ((a & 0x1080) == 0x0080) {
		if (a & 0x0200)
			atari_riot_write(&m->riot, a, v, (uint32_t)m->cycle);
		else
			m->riot.ram[a & 0x7f] = v;
	} else {
		tia_poke(b, a, v);
	}
	m->last_read = 0;
}

#define CPU_EXEC_NAME machine_exec
#define CPU_EXEC_CTX struct bus
#define CPU_READ(ctx, addr) bus_read(ctx, addr)
#define CPU_WRITE(ctx, addr, v) bus_write(ctx, addr, v)
#include "atari/cpu_exec.h"

HOSTDEV void atari_machine_power_on(struct atari_machine *m, const struct atari_rom *rom)
{
	memset(m, 0, sizeof(*m));
	m->cart.type = rom->type;
	m->cart.reset_bank = rom->reset_bank;
	for (int i = 0; i < 128; i++)
		m->riot.ram[i] = (uint8_t)rng_draw(m, rom);
	atari_riot_reset(&m->riot, (uint8_t)(25 + rng_draw(m, rom) % 75));
	m->riot.swcha = 0xff;
	m->riot.swchb = 0x3f;
	for (int p = 0; p < 4; p++)
		m->pot[p] = ATARI_POT_OPEN;
	m->ystart = ATARI_TIA_YSTART;
	m->height = ATARI_SCREEN_HEIGHT;
	m->hmove_blanks = 1;
	atari_machine_reset(m, rom);
}

HOSTDEV void atari_machine_reset(struct atari_machine *m, const struct atari_rom *rom)
{
	struct bus b = { m, rom, NULL };
	int n = atari_cart_ram_size(m->cart.type);
	uint16_t lo;

	m->cycle = 0;
	atari_riot_reset(&m->riot, (uint8_t)(25 + rng_draw(m, rom) % 75));
	atari_tia_reset(&m->tia);
	atari_tia_configure(&m->tia, m->ystart, m->height, m->hmove_blanks);
	for (int p = 0; p < 2; p++)
		atari_tia_set_fire(&m->tia, p, m->fire[p]);
	for (int p = 0; p < 4; p++)
		atari_tia_set_pot(&m->tia, p, m->pot[p]);
	atari_cart_reset(&m->cart);
	for (int i = 0; i < n; i++)
		m->cart.ram[i] = (uint8_t)rng_draw(m, rom);
	/* The CPU fetches the reset vector outside of any counted cycle. */
	memset(&m->cpu, 0, sizeof(m->cpu));
	m->cpu.sp = 0xff;
	m->cpu.p = ATARI_CPU_U | ATARI_CPU_B;
	lo = bus_read(&b, 0xfffc);
	m->cpu.pc = (uint16_t)(lo | (bus_read(&b, 0xfffd) << 8));
	m->cycle = 0;
	m->last_read = 1;
}

HOSTDEV int atari_machine_frame(struct atari_machine *m, const struct atari_rom *rom,
				uint8_t *fb)
{
	struct bus b = { m, rom, fb };

	m->tia.frame_done = 0;
	for (int i = 0; i < ATARI_FRAME_INSTRUCTIONS; i++) {
		if (machine_exec(&b, &m->cpu) < 0)
			break;
		if (m->tia.frame_done)
			return 1;
	}
	atari_tia_grey_out(&m->tia, m->cycle, fb);
	return 0;
}

HOSTDEV void atari_machine_set_fire(struct atari_machine *m, int player, int pressed)
{
	m->fire[player & 1] = (uint8_t)!!pressed;
	atari_tia_set_fire(&m->tia, player & 1, pressed);
}

HOSTDEV void atari_machine_set_pot(struct atari_machine *m, int pot, int32_t ohms)
{
	m->pot[pot & 3] = ohms;
	atari_tia_set_pot(&m->tia, pot & 3, ohms);
}

HOSTDEV int atari_machine_configure(struct atari_machine *m, int ystart, int height,
				   int hmove_blanks)
{
	if (atari_tia_configure(&m->tia, ystart, height, hmove_blanks) < 0)
		return -1;
	m->ystart = (uint16_t)ystart;
	m->height = (uint16_t)height;
	m->hmove_blanks = (uint8_t)!!hmove_blanks;
	return 0;
}
