#include <string.h>

#include "atari/machine.h"

/*
 * Bus accesses are inlined into the CPU core on the host; on a GPU they
 * stay calls, which keeps the device code (and its compile time) small.
 * ATARI_BUS_CALLS keeps them calls on the host too: the fuzzing build
 * defines it, as clang's coverage and sanitizer passes over the inlined
 * core take many minutes.
 */
#ifdef __CUDA_ARCH__
#define BUS_INLINE __noinline__
#define NOINLINE __noinline__
#elif defined(ATARI_BUS_CALLS)
#define BUS_INLINE __attribute__((noinline))
#define NOINLINE
#else
#define BUS_INLINE inline __attribute__((always_inline))
#define NOINLINE __attribute__((noinline))
#endif

/*
 * The bus, as the CPU core sees it while it runs a frame, in two parts.
 * struct bus holds the counters the core touches on every cycle (the
 * cycle count, the data bus, whether the last access was a read); the
 * core keeps its own copy, which never leaves it, so that they stay in
 * registers, and they go back to the machine when the core stops.
 * struct bus_map holds what decodes an address: the cartridge window, the
 * part of the cartridge's address space that reads straight from the ROM
 * image, worked out again only when the cartridge was accessed otherwise
 * (a bank switch can only happen then).  Only the accesses the window and
 * `plain` do not cover go through the full address decoding
 * (bus_read_slow, bus_write_any), out of line, given the counters by value.
 *
 * On the host the window and RAM are also a table of 64-byte pages of the
 * 8K address space, so that an access that needs no decoding costs one
 * lookup: `page` holds the bytes a read returns, NULL where the access
 * must be decoded (a page only partly in the window is).  Above $1000 the
 * schemes that switch 1K or 2K slices have their slices' pages in it too
 * (bus_cart_page); below, only RAM is in it, which is also what a write
 * may go straight to.  The CPU reads its instructions from the runs of
 * pages that follow each other in memory (bus_code_map), at host
 * addresses, without a lookup per byte.
 */
#ifndef __CUDA_ARCH__
#define BUS_PAGES 1
#ifdef __GNUC__
#define BUS_CODE 1	/* the CPU reads its code at host addresses (bus_code_map) */
#endif
#define BUS_PAGE_SHIFT 6
#define BUS_PAGE_SIZE (1u << BUS_PAGE_SHIFT)
#define BUS_PAGE_COUNT (0x2000u >> BUS_PAGE_SHIFT)
#else
#define BUS_PAGES 0
#endif

struct bus_map {
	struct atari_machine *m;
	const struct atari_rom *rom;
	uint8_t *fb;
	const uint8_t *win;	/* ROM bytes of the window, by offset & win_mask */
	uint32_t win_lo, win_n;	/* window: offsets [win_lo, win_lo + win_n) of $1000 */
	uint32_t win_mask;
	uint8_t plain;		/* RAM and TIA accesses bypass the cartridge */
	uint32_t win_key;	/* the banks the window is of (bus_cart_key) */
#if BUS_PAGES
	/* The code the CPU reads at a host address (bus_code_map): the
	 * opcodes in [code_lo, code_lo + code_span), with code_end their end
	 * (0 while nothing is mapped), at pc + code_bias. */
	uintptr_t code_end, code_lo, code_span, code_bias;
	uint8_t *page[BUS_PAGE_COUNT];	/* by (addr & $1FFF) >> 6; see above */
#endif
};

struct bus {
	struct bus_map *map;
	uint64_t cycle;		/* the machine's cycle count */
	uint8_t data;		/* last value on the data bus */
	uint8_t last_read;	/* the last access was a read */
	uint8_t stop;		/* the TIA completed a frame */
};

static HOSTDEV inline uint32_t rng_draw(struct atari_machine *m, const struct atari_rom *rom)
{
	uint32_t v = rom->rng[m->rng_next];

	m->rng_next = (m->rng_next + 1) & (ATARI_RNG_TABLE - 1);
	return v;
}

/* The banks a cartridge shows; ~0 is none. */
static HOSTDEV uint32_t bus_cart_key(const struct atari_cart *c)
{
	return c->bank | (uint32_t)c->ram_bank << 8 |
	       (uint32_t)(c->slice[0] | c->slice[1] << 3 | c->slice[2] << 6) << 16;
}

#if BUS_PAGES
/*
 * The bytes the cartridge's 64-byte page at offset o of $1000 reads as,
 * as atari_cart_read gives them, where reading it has no side effect and
 * they are those of one bank: the window's pages, and those of the
 * schemes that switch 1K or 2K slices.  NULL elsewhere.
 */
static uint8_t *bus_cart_page(const struct bus_map *b, struct atari_cart *c, uint32_t o)
{
	const uint8_t *rom = b->rom->data;

	if (o - b->win_lo < b->win_n && o + BUS_PAGE_SIZE - 1 - b->win_lo < b->win_n)
		return (uint8_t *)(uintptr_t)(b->win + (o & b->win_mask));
	if (o >= 0x1000 - BUS_PAGE_SIZE && c->type != ATARI_CART_3F)
		return NULL;	/* E0's and E7's hotspots */
	switch (c->type) {
	case ATARI_CART_E0:
		return (uint8_t *)(uintptr_t)(rom + ((uint32_t)c->slice[o >> 10] << 10) + (o & 0x3ff));
	case ATARI_CART_3F:
		return (uint8_t *)(uintptr_t)(rom + (o < 0x800 ? (uint32_t)c->bank << 11 :
							  b->rom->size - 2048) + (o & 0x7ff));
	case ATARI_CART_E7:
		if (o < 0x800 && c->bank == 7 && o >= 0x400)
			return c->ram + (o & 0x3ff);
		if (o >= 0x900 && o < 0xa00)
			return c->ram + 1024 + ((uint32_t)c->ram_bank << 8) + (o & 0xff);
		return (uint8_t *)(uintptr_t)(rom + ((uint32_t)(o < 0x800 ? c->bank : 7) << 11) +
					      (o & 0x7ff));
	default:
		return NULL;
	}
}
#endif

/* The cartridge window of the banks it shows, `key` (bus_window). */
static HOSTDEV NOINLINE void bus_window_set(struct bus_map *b, uint32_t key)
{
	struct atari_cart *c = &b->m->cart;
	const uint8_t *rom = b->rom->data;

	b->win_key = key;
#if BUS_PAGES
	b->code_end = 0;	/* the code mapped may be another bank's */
#endif
	b->win = rom;
	b->win_lo = 0;
	b->win_n = 0;
	b->win_mask = 0xfff;
	b->plain = c->type >= ATARI_CART_2K && c->type <= ATARI_CART_E7 &&
		   c->type != ATARI_CART_3F;
	switch (c->type) {
	case ATARI_CART_2K:
		b->win_mask = 0x7ff;
		b->win_n = 0x1000;
		break;
	case ATARI_CART_4K:
		b->win_n = 0x1000;
		break;
	case ATARI_CART_F8: case ATARI_CART_F6: case ATARI_CART_F4:
		b->win = rom + ((uint32_t)c->bank << 12);
		b->win_n = 0xff4;
		break;
	case ATARI_CART_F8SC: case ATARI_CART_F6SC: case ATARI_CART_F4SC:
		b->win = rom + ((uint32_t)c->bank << 12);
		b->win_lo = 0x100;
		b->win_n = 0xff4 - 0x100;
		break;
	case ATARI_CART_DPC:	/* the chip sees $1000-$107F and $1FC0-$1FFF only */
		b->win = rom + ((uint32_t)c->bank << 12);
		b->win_lo = 0x80;
		b->win_n = 0xfc0 - 0x80;
		break;
	default:
		break;
	}
#if BUS_PAGES
	/* The cartridge's half. */
	for (uint32_t i = 0; i < BUS_PAGE_COUNT / 2; i++)
		b->page[BUS_PAGE_COUNT / 2 + i] = bus_cart_page(b, c, i << BUS_PAGE_SHIFT);
#endif
}

/* The cartridge window of the current banks (reads that switch nothing),
 * worked out again where they changed (the type never does). */
static HOSTDEV inline void bus_window(struct bus_map *b)
{
	uint32_t key = bus_cart_key(&b->m->cart);

	if (b->win_key != key)
		bus_window_set(b, key);
}

#if BUS_PAGES
/* The half below $1000: RAM and its mirrors where RAM bypasses the cartridge. */
static void bus_ram_pages(struct bus_map *b)
{
	for (uint32_t i = 0; i < BUS_PAGE_COUNT / 2; i++) {
		uint32_t at = i << BUS_PAGE_SHIFT;

		b->page[i] = b->plain && (at & 0x0280) == 0x0080 ?
			     b->m->riot.ram + (at & 0x7f) : NULL;
	}
}
#endif

static HOSTDEV void bus_init(struct bus *b, struct bus_map *map, struct atari_machine *m,
			     const struct atari_rom *rom, uint8_t *fb)
{
	map->m = m;
	map->rom = rom;
	map->fb = fb;
	map->win_key = ~0u;
#if BUS_PAGES
	map->code_end = map->code_lo = map->code_span = map->code_bias = 0;
#endif
	bus_window(map);
#if BUS_PAGES
	bus_ram_pages(map);
#endif
	b->map = map;
	b->data = m->bus;
	b->last_read = m->last_read;
	b->stop = 0;
	b->cycle = m->cycle;
}

static HOSTDEV void bus_done(const struct bus *b)
{
	struct atari_machine *m = b->map->m;

	m->cycle = b->cycle;
	m->bus = b->data;
	m->last_read = b->last_read;
}

/* A TIA write at `cycle`; returns the cycle count the CPU goes on from. */
static HOSTDEV BUS_INLINE uint64_t tia_poke(struct atari_machine *m, uint8_t *fb, uint16_t a,
					  uint8_t v, uint64_t cycle, uint8_t last_read)
{
	atari_tia_write(&m->tia, a, v, cycle, fb);
	if ((a & 0x3f) == 0x02 && last_read)
		cycle = atari_tia_wsync_until(&m->tia, cycle);
	return cycle;
}

/* Any write, decoded in full, at `cycle` (already counted). */
static HOSTDEV NOINLINE uint64_t bus_write_any(struct atari_machine *m, const struct atari_rom *rom,
					       uint8_t *fb, uint16_t addr, uint8_t v,
					       uint64_t cycle, uint8_t last_read)
{
	uint16_t a = addr & 0x1fff;

	if ((a & 0x1000) || (a < 0x40 && m->cart.type == ATARI_CART_3F)) {
		atari_cart_write(&m->cart, rom->size, addr, v);
		if (m->cart.type == ATARI_CART_3F && (addr & 0x0fff) <= 0x3f)
			cycle = tia_poke(m, fb, addr & 0x0fff, v, cycle, last_read);
	} else if ((a & 0x1080) == 0x0080) {
		if (a & 0x0200)
			atari_riot_write(&m->riot, a, v, (uint32_t)cycle);
		else
			m->riot.ram[a & 0x7f] = v;
	} else {
		cycle = tia_poke(m, fb, a, v, cycle, last_read);
	}
	return cycle;
}

/* The address is read from the cartridge window (no side effect). */
static HOSTDEV BUS_INLINE int bus_in_window(const struct bus_map *b, uint32_t addr)
{
	return (addr & 0x1000) && (addr & 0x0fff) - b->win_lo < b->win_n;
}

/* Where a read of `addr` needs no decoding, the byte it reads; else NULL. */
static HOSTDEV BUS_INLINE const uint8_t *bus_plain_byte(const struct bus_map *b, uint32_t addr)
{
#if BUS_PAGES
	const uint8_t *p = b->page[(addr & 0x1fff) >> BUS_PAGE_SHIFT];

	return p ? p + (addr & (BUS_PAGE_SIZE - 1)) : NULL;
#else
	if (bus_in_window(b, addr))
		return b->win + (addr & b->win_mask);
	if (b->plain && (addr & 0x1280) == 0x0080)
		return b->m->riot.ram + (addr & 0x7f);
	return NULL;
#endif
}

/* Where a write to `addr` needs no decoding (RAM), the byte it sets; else NULL. */
static HOSTDEV BUS_INLINE uint8_t *bus_plain_store(const struct bus_map *b, uint32_t addr)
{
#if BUS_PAGES
	uint8_t *p = (addr & 0x1000) ? NULL : b->page[(addr & 0x0fff) >> BUS_PAGE_SHIFT];

	return p ? p + (addr & (BUS_PAGE_SIZE - 1)) : NULL;
#else
	return b->plain && (addr & 0x1280) == 0x0080 ? b->m->riot.ram + (addr & 0x7f) : NULL;
#endif
}

/* A read of the cartridge at `cycle` (bus_read_slow): above $1000 it may
 * switch banks, and the window is worked out again where they changed. */
static HOSTDEV NOINLINE uint8_t bus_read_cart(struct bus_map *b, uint16_t addr, uint64_t cycle)
{
	struct atari_cart *c = &b->m->cart;
	uint8_t v;

	if (!(addr & 0x1000))
		return atari_cart_read(c, b->rom->data, b->rom->size, addr);
	v = c->type == ATARI_CART_DPC ? atari_cart_dpc_read(c, b->rom->data, addr, cycle) :
					atari_cart_read(c, b->rom->data, b->rom->size, addr);
	bus_window(b);
	return v;
}

/*
 * A read bus_plain_byte does not cover, decoded in full, at `cycle`
 * (already counted): the RIOT's ports and timer first, which decode the
 * same on every cartridge (games poll the timer), then the cartridge's
 * ranges (out of line), RAM and the TIA.
 */
static HOSTDEV NOINLINE uint8_t bus_read_slow(struct bus_map *b, uint16_t addr, uint64_t cycle,
					      uint8_t data)
{
	struct atari_machine *m = b->m;
	uint16_t a = addr & 0x1fff;

	if ((a & 0x1280) == 0x0280)
		return atari_riot_read(&m->riot, a, (uint32_t)cycle);
	if ((a & 0x1000) || (a < 0x40 && m->cart.type == ATARI_CART_3F))
		return bus_read_cart(b, addr, cycle);
	if ((a & 0x1080) == 0x0080)
		return m->riot.ram[a & 0x7f];
	return (uint8_t)((atari_tia_read(&m->tia, a, cycle, b->fb) & 0xc0) | (data & 0x3f));
}

static HOSTDEV BUS_INLINE uint8_t bus_read(struct bus *b, uint16_t addr)
{
	const uint8_t *p = bus_plain_byte(b->map, addr);
	uint8_t v;

	b->cycle++;
	v = p ? *p : bus_read_slow(b->map, addr, b->cycle, b->data);
	b->data = v;
	b->last_read = 1;
	return v;
}

/* A read the bus need not make (CPU_CODE): only its cycle and value count. */
static HOSTDEV BUS_INLINE uint8_t bus_fetched(struct bus *b, uint8_t v)
{
	b->cycle++;
	b->data = v;
	b->last_read = 1;
	return v;
}

#if BUS_PAGES
/*
 * Map the code at ip (pc = ip - code_bias) to host memory, for the CPU to
 * read its instructions there (CPU_CODE in cpu_exec.h): the run of pages
 * around pc's in the table whose bytes follow each other in memory, as
 * the cartridge window's and RAM's do.  Reading them has no side effect,
 * so an instruction's bytes can be read there whole, if the opcode is
 * two bytes or more before the run's end; else, and where pc's page is not
 * in the table, code_end stays 0 and the CPU reads through the bus.
 * Returns ip for the same pc.
 */
static HOSTDEV NOINLINE uintptr_t bus_code_map(struct bus_map *b, uintptr_t ip)
{
	uint16_t pc = (uint16_t)(ip - b->code_bias);
	unsigned i = (pc & 0x1fff) >> BUS_PAGE_SHIFT, lo = i, hi = i;
	unsigned first = i & BUS_PAGE_COUNT / 2, last = first + BUS_PAGE_COUNT / 2 - 1;
	uint8_t *const *page = b->page;

	b->code_end = 0;
	if (!page[i] && (pc & 0x1000) && b->m->cart.type == ATARI_CART_FE) {
		/* Its bank is address line 13's (atari_cart_read): 4K for each. */
		const uint8_t *bank = b->rom->data + ((pc & 0x2000) ? 0 : 4096);

		b->code_lo = (uintptr_t)bank;
		b->code_span = 0x1000 - 2;
		b->code_end = b->code_lo + b->code_span;
		ip = (uintptr_t)(bank + (pc & 0x0fff));
		b->code_bias = ip - pc;
		return ip;
	}
	if (!page[i])
		return ip;
	while (lo > first && page[lo - 1] && page[lo - 1] + BUS_PAGE_SIZE == page[lo])
		lo--;
	while (hi < last && page[hi + 1] && page[hi] + BUS_PAGE_SIZE == page[hi + 1])
		hi++;
	b->code_lo = (uintptr_t)page[lo];
	b->code_span = (uintptr_t)(page[hi] + BUS_PAGE_SIZE - 2) - b->code_lo;
	b->code_end = b->code_lo + b->code_span;
	ip = (uintptr_t)(page[i] + (pc & (BUS_PAGE_SIZE - 1)));
	b->code_bias = ip - pc;
	return ip;
}

/* A jump to ip: outside the code mapped, the fetch maps it again. */
static HOSTDEV BUS_INLINE void bus_code_jump(struct bus_map *b, uintptr_t ip)
{
	if (ip - b->code_lo >= b->code_span)
		b->code_end = 0;
}
#endif

/*
 * A read whose value the CPU throws away and that ALE's CPU does not make
 * (cpu_exec.h).  Where a read has no effect that is the same;
 * of the cartridges, the DPC's chip clocks its random number generator on
 * every access, so with a DPC cartridge only the cycle passes, as in ALE.
 * The data bus keeps the value of the access before, the last ALE makes:
 * a TIA read's bits 5-0 show it (Solaris reads CXM0P as LDA $FFE1,Y with
 * Y = $1F, the page crossed: after the operand's $FF, not the $FF00's byte).
 * Every dummy read follows a read, so last_read is set already.
 */
static HOSTDEV BUS_INLINE void bus_dummy(struct bus *b, uint16_t addr)
{
	b->cycle++;
	if (!bus_plain_byte(b->map, addr) && b->map->m->cart.type != ATARI_CART_DPC)
		(void)bus_read_slow(b->map, addr, b->cycle, b->data);
}

/* A write bus_plain_store does not cover, at `cycle` (already counted);
 * returns the cycle count the CPU goes on from. */
static HOSTDEV NOINLINE uint64_t bus_write_slow(struct bus_map *b, uint16_t addr, uint8_t v,
						uint64_t cycle, uint8_t last_read)
{
	if (b->plain && !(addr & 0x1080))
		return tia_poke(b->m, b->fb, addr & 0x3f, v, cycle, last_read);
	cycle = bus_write_any(b->m, b->rom, b->fb, addr, v, cycle, last_read);
	if (addr & 0x1000 || !b->plain)
		bus_window(b);
	return cycle;
}

static HOSTDEV BUS_INLINE void bus_write(struct bus *b, uint16_t addr, uint8_t v)
{
	uint8_t *p = bus_plain_store(b->map, addr);
	uint8_t last_read = b->last_read;

	b->cycle++;
	b->data = v;
	b->last_read = 0;
	if (p) {
		*p = v;
	} else {
		b->cycle = bus_write_slow(b->map, addr, v, b->cycle, last_read);
		b->stop = b->map->m->tia.frame_done;
	}
}

/*
 * A store to the zero page or the stack (CPU_WRITE_ZP), below $200: the
 * RAM without the page table, and where it writes a TIA register, the
 * register write (tia_poke) without the calls that get there, so that a
 * write that changes nothing (atari_tia_write_way) makes none.
 */
static HOSTDEV BUS_INLINE void bus_write_zp(struct bus *b, uint16_t addr, uint8_t v)
{
	struct atari_machine *m = b->map->m;
	uint8_t last_read = b->last_read;

	if (!b->map->plain) {
		bus_write(b, addr, v);
		return;
	}
	b->cycle++;
	b->data = v;
	b->last_read = 0;
	if (addr & 0x80) {	/* the RAM, at $80-$FF and $180-$1FF */
		m->riot.ram[addr & 0x7f] = v;
		return;
	}
	b->cycle = tia_poke(m, b->map->fb, addr & 0x3f, v, b->cycle, last_read);
	b->stop = m->tia.frame_done;
}

/*
 * Wait loops on the RIOT timer: at pc - 1 the CPU fetched the opcode of
 * a read of the timer that a branch back to it tests, the loop that most
 * games end their vertical blank and overscan with: `LDA INTIM; BNE *-5`
 * (LDX or LDY too), or `LDA INTIM; BPL *-5` (LDX, LDY or BIT too), which
 * waits for the timer to wrap.  As long as the timer has not reached 0 nor
 * wrapped, and for BPL reads below $80, an iteration reads the timer
 * without side effect, branches back, and its only lasting effect is its
 * 7 cycles: the data bus, the register and the flags are those of the next
 * iteration, which the CPU runs.  So pass over all iterations but the one
 * that reads 0 (at most n), adding their cycles, when the loop's 7 bytes
 * (the branch's dummy read included) are in the cartridge window on one
 * page.  Returns the number of iterations passed over.
 */
static HOSTDEV BUS_INLINE int bus_spin(struct bus *b, uint16_t pc, int n)
{
	uint32_t at = (uint16_t)(pc - 1), addr, delta, timer;
	const struct bus_map *map = b->map;
	const uint8_t *w = map->win;
	const struct atari_riot *r = &map->m->riot;
	uint8_t load, branch;
	uint64_t limit;
	int k;

	if (n <= 0 || !bus_in_window(map, at) || !bus_in_window(map, at + 5) ||
	    ((at ^ (at + 5)) & 0xff00))
		return 0;
	addr = w[(at + 1) & map->win_mask] | (uint32_t)w[(at + 2) & map->win_mask] << 8;
	load = w[at & map->win_mask];
	branch = w[(at + 3) & map->win_mask];
	if ((addr & 0x1280) != 0x0280 || (addr & 0x05) != 0x04 ||
	    w[(at + 4) & map->win_mask] != 0xfb ||
	    !(branch == 0x10 || (branch == 0xd0 && load != 0x2c)))
		return 0;
	/* The first read of the timer is 3 cycles on (atari_riot_read). */
	timer = r->timer;
	delta = (uint32_t)(b->cycle + 3) - 1 - r->set_cycle;
	if (timer < 2)
		return 0;
	limit = (uint64_t)(timer - 1) << r->shift;	/* reads below this are >= 1 */
	if (delta >= limit || (branch == 0x10 && timer - 1 - (delta >> r->shift) > 0x7f))
		return 0;
	k = (int)((limit - delta + 6) / 7 < (uint64_t)n ? (limit - delta + 6) / 7 : (uint64_t)n);
	b->cycle += 7 * (uint64_t)k;
	return k;
}

#define CPU_EXEC_CTX struct bus
#define CPU_READ(ctx, addr) bus_read(ctx, addr)
#define CPU_DUMMY_READ(ctx, addr) bus_dummy(ctx, addr)
#define CPU_WRITE(ctx, addr, v) bus_write(ctx, addr, v)
#ifdef BUS_CODE
/* One instruction through the bus, where the code is not mapped (CPU_CODE). */
#define CPU_EXEC_NAME machine_step
#define CPU_EXEC_ATTR NOINLINE
#include "atari/cpu_exec.h"
#undef CPU_EXEC_NAME
#undef CPU_EXEC_ATTR
#endif

#define CPU_EXEC_NAME machine_exec
#define CPU_EXEC_ATTR NOINLINE
#define CPU_EXEC_STOP(ctx) ((ctx)->stop)
#define CPU_EXEC_SPIN(ctx, pc, n) bus_spin(ctx, pc, n)
#define CPU_EXEC_CTX_COPY
#ifdef BUS_CODE
#define CPU_WRITE_ZP(ctx, addr, v) bus_write_zp(ctx, addr, v)
#define CPU_CODE 1
#define CPU_CODE_END(ctx) ((ctx)->map->code_end)
#define CPU_CODE_BIAS(ctx) ((ctx)->map->code_bias)
#define CPU_CODE_JUMP(ctx, ip) bus_code_jump((ctx)->map, ip)
#define CPU_CODE_MAP(ctx, ip) bus_code_map((ctx)->map, ip)
#define CPU_CODE_STEP(ctx, cpu) machine_step(ctx, cpu)
#define CPU_FETCHED(ctx, v) bus_fetched(ctx, v)
#define CPU_SKIPPED(ctx) ((ctx)->cycle++)
#endif
#include "atari/cpu_exec.h"
#undef CPU_EXEC_SPIN
#undef CPU_WRITE_ZP
#undef CPU_CODE
#undef CPU_CODE_END
#undef CPU_CODE_BIAS
#undef CPU_CODE_JUMP
#undef CPU_CODE_MAP
#undef CPU_CODE_STEP
#undef CPU_FETCHED
#undef CPU_SKIPPED
#undef CPU_EXEC_CTX_COPY
#undef CPU_EXEC_STOP
#undef CPU_EXEC_ATTR

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
	struct bus_map map;
	struct bus b;
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
	bus_init(&b, &map, m, rom, NULL);
	lo = bus_read(&b, 0xfffc);
	m->cpu.pc = (uint16_t)(lo | (bus_read(&b, 0xfffd) << 8));
	bus_done(&b);
	m->cycle = 0;
	m->last_read = 1;
}

HOSTDEV NOINLINE int atari_machine_frame(struct atari_machine *m, const struct atari_rom *rom,
					 uint8_t *fb)
{
	struct bus_map map;
	struct bus b;

	m->tia.frame_done = 0;
	bus_init(&b, &map, m, rom, fb);
	machine_exec(&b, &m->cpu, ATARI_FRAME_INSTRUCTIONS);
	bus_done(&b);
	if (!m->tia.frame_done)
		atari_tia_catch_up(&m->tia, fb);
	atari_tia_settle(&m->tia);
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
