#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atari/machine.h"
#include "atari/mt.h"
#include "atari/md5.h"

/* Images that hold their two F8 banks in the opposite order. */
static const char *const f8_swapped[] = {
	"bc24440b59092559a1ec26055fd1270e", "75ee371ccfc4f43e7d9b8f24e1266b55",
};

void atari_rng_fill(uint32_t seed, uint32_t *out, size_t n)
{
	struct atari_mt mt;

	atari_mt_seed(&mt, seed);
	for (size_t k = 0; k < n; k++)
		out[k] = atari_mt_next(&mt);
}

/* The system random numbers are the same for every ROM: made once. */
static uint32_t *rng_table;
static pthread_once_t rng_once = PTHREAD_ONCE_INIT;

static void rng_table_make(void)
{
	uint32_t *t = malloc(sizeof(*t) * ATARI_RNG_TABLE);

	if (t)
		atari_rng_fill(ATARI_SYSTEM_SEED, t, ATARI_RNG_TABLE);
	rng_table = t;
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
	pthread_once(&rng_once, rng_table_make);
	rom->data = malloc(size);
	rom->rng = rng_table;
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
	rom->data = NULL;
	rom->rng = NULL;
}
