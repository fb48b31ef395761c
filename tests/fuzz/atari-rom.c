/*
 * libFuzzer target: the ROM loader must accept or refuse any image with a
 * clear error, never crash; an image it accepts must power on and run a
 * few frames, whatever its bytes, under every cartridge type it fits.
 */
#include <stdint.h>
#include <stdlib.h>

#include "atari/machine.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	static struct atari_machine m;
	static uint8_t fb[ATARI_SCREEN_WIDTH * ATARI_FB_LINES];

	int forced = size ? 1 + data[size / 2] % (ATARI_CART_TYPES - 1) : 1;

	for (int type = 0; type <= forced; type += forced) {
		struct core_error err = CORE_ERROR_INIT;
		struct atari_rom rom = ATARI_ROM_INIT;

		if (atari_rom_load_mem(&rom, data, size, type, &err) < 0) {
			if (!err.msg[0])
				abort();	/* every refusal says why */
			continue;
		}
		atari_machine_power_on(&m, &rom);
		atari_machine_frame(&m, &rom, fb);
		atari_rom_release(&rom);
	}
	return 0;
}
