#include <string.h>

#include "atari/machine.h"

/*
 * Bus accesses are inlined into the CPU core on the host; on a GPU they
 * stay calls, which keeps the device code (and its compile time) small.
 */
#ifdef __CUDA_ARCH__
#define BUS_INLINE __noinline__
#define NOINLINE __noinline__
#else
#define BUS_INLINE inline __attribute__((always_inline))
#define NOINLINE
#endif

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

/* Cartridge reads that switch nothing, without the call (the common case). */
static HOSTDEV inline int cart_plain(const struct atari_cart *c, uint16_t a, uint32_t *off)
{
	switch (c->type) {
	case ATARI_CART_2K:
		*off = a & 0x7ff;
		return 1;
	case ATARI_CART_4K:
		*off = a;
		return 1;
	case ATARI_CART_F8: case ATARI_CART_F6: case ATARI_CART_F4:
		*off = ((uint32_t)c->bank << 12) | a;
		return a < 0xff4;
	case ATARI_CART_F8SC: case ATARI_CART_F6SC: case ATARI_CART_F4SC:
		*off = ((uint32_t)c->bank << 12) | a;
		return a >= 0x100 && a < 0xff4;
	case ATARI_CART_DPC:	/* the chip sees $1000-$107F and $1FC0-$1FFF only */
		*off = ((uint32_t)c->bank << 12) | a;
		return a >= 0x80 && a < 0xfc0;
	default:
		return 0;
	}
}

static HOSTDEV BUS_INLINE uint8_t bus_read(struct bus *b, uint16_t addr)
{
	struct atari_machine *m = b->m;
	uint16_t a = addr & 0x1fff;
	uint32_t off;
	uint8_t v;

	m->cycle++;
	if ((a & 0x1000) && cart_plain(&m->cart, a & 0x0fff, &off))
		v = b->rom->data[off];
	else if ((a & 0x1000) && m->cart.type == ATARI_CART_DPC)
		v = atari_cart_dpc_read(&m->cart, b->rom->data, addr, m->cycle);
	else if ((a & 0x1000) || (a < 0x40 && m->cart.type == ATARI_CART_3F))
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

static HOSTDEV BUS_INLINE void tia_poke(struct bus *b, uint16_t a, uint8_t v)
{
	struct atari_machine *m = b->m;

	atari_tia_write(&m->tia, a, v, m->cycle, b->fb);
	if ((a & 0x3f) == 0x02 && m->last_read)
		m->cycle = atari_tia_wsync_until(&m->tia, m->cycle);
}

static HOSTDEV BUS_INLINE void bus_write(struct bus *b, uint16_t addr, uint8_t v)
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
#define CPU_EXEC_STOP(ctx) ((ctx)->m->tia.frame_done)
#include "atari/cpu_exec.h"
#undef CPU_EXEC_STOP

HOSTDEV void atari_machine_power_on(struct atari_machine *m, const struct atari_rom *rom)
{
	memset(m, 0, sizeof(*m));
	m->cart.type = rom->type;
	m->cart.reset_bank = rom->reset_bank;
	atari_cart_power_on(&m->cart);
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

HOSTDEV NOINLINE int atari_machine_frame(struct atari_machine *m, const struct atari_rom *rom,
					 uint8_t *fb)
{
	struct bus b = { m, rom, fb };

	m->tia.frame_done = 0;
	machine_exec(&b, &m->cpu, ATARI_FRAME_INSTRUCTIONS);
	if (m->tia.frame_done)
		return 1;
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
