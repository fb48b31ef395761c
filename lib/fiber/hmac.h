/*
 * SHA-256 (FIPS 180-4) and HMAC-SHA256 (RFC 2104), for authenticating
 * workers to the master and the master to workers, plus the per-run
 * secret.  No external crypto library: these are the only primitives the
 * wire protocol needs.
 *
 *	struct fiber_sha256 s;
 *	fiber_sha256_init(&s);
 *	fiber_sha256_update(&s, data, len);   // any number of times
 *	fiber_sha256_final(&s, digest);       // 32 bytes
 */
#ifndef FIBER_HMAC_H
#define FIBER_HMAC_H

#include <stddef.h>
#include <stdint.h>

#define FIBER_SHA256_LEN 32
/* The secret is 32 random bytes written as 64 lowercase hex digits. */
#define FIBER_SECRET_HEX_LEN 64

struct fiber_sha256 {
	uint32_t h[8];
	uint64_t total;		/* bytes hashed so far */
	uint8_t block[64];
	size_t used;		/* bytes waiting in block */
};

void fiber_sha256_init(struct fiber_sha256 *s);
void fiber_sha256_update(struct fiber_sha256 *s, const void *data, size_t len);
void fiber_sha256_final(struct fiber_sha256 *s, uint8_t out[FIBER_SHA256_LEN]);

/*
 * HMAC-SHA256 of the concatenation of `n` message parts (parts[i], lens[i])
 * under `key`.
 */
void fiber_hmac_sha256(const void *key, size_t key_len, size_t n,
		       const void *const *parts, const size_t *lens,
		       uint8_t out[FIBER_SHA256_LEN]);

/* Compare two digests in constant time: 1 when equal. */
int fiber_digest_equal(const uint8_t *a, const uint8_t *b, size_t len);

/* Fill `buf` with `len` bytes from getrandom(2).  Returns 0 or -errno. */
int fiber_random_bytes(void *buf, size_t len);

/* A fresh secret: FIBER_SECRET_HEX_LEN hex digits and a NUL. */
int fiber_secret_new(char out[FIBER_SECRET_HEX_LEN + 1]);

#endif
