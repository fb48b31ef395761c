#include "atari/riot.h"

HOSTDEV void atari_riot_reset(struct atari_riot *r, uint8_t timer_value)
{
	r->timer = timer_value;
	r->shift = 6;
	r->set_cycle = 0;
	r->int_reset_cycle = 0;
	r->read_after_int = 0;
	r->ddra = 0;
}

HOSTDEV uint8_t atari_riot_read(struct atari_riot *r, uint16_t addr, uint32_t cycle)
{
	uint32_t delta = (cycle - 1) - r->set_cycle;
	int timer = (int)r->timer - (int)(delta >> r->shift) - 1;

	switch (addr & 0x07) {
	case 0x00:
		return r->swcha;
	case 0x01:
		return r->ddra;
	case 0x02:
		return r->swchb;
	case 0x03:
		return 0;
	case 0x04:
	case 0x06:
		if (timer >= 0)
			return (uint8_t)timer;
		timer = (int)(r->timer << r->shift) - (int)delta - 1;
		if (timer <= -2 && !r->read_after_int) {
			r->read_after_int = 1;
			r->int_reset_cycle = cycle;
		}
		if (r->read_after_int) {
			int offset = (int)(r->int_reset_cycle -
					   (r->set_cycle + (r->timer << r->shift)));
			timer = (int)r->timer - (int)(delta >> r->shift) - offset;
		}
		return (uint8_t)timer;
	default:
		return (timer >= 0 || r->read_after_int) ? 0x00 : 0x80;
	}
}

HOSTDEV void atari_riot_write(struct atari_riot *r, uint16_t addr, uint8_t value,
			      uint32_t cycle)
{
	if ((addr & 0x07) == 0x01) {
		r->ddra = value;
	} else if ((addr & 0x07) >= 0x04 && (addr & 0x14) == 0x14) {
		r->timer = value;
		r->shift = (uint8_t)((addr & 0x03) * 3 + ((addr & 0x03) == 0x03));
		r->set_cycle = cycle;
		r->read_after_int = 0;
	}
}
