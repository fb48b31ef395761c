/*
 * MD5 (RFC 1321), used to identify ROM images and to fingerprint screens
 * (cule-bench trace prints the MD5 of every frame, as the parity test does
 * with ALE's screen).
 */
#ifndef ATARI_MD5_H
#define ATARI_MD5_H

#include <stddef.h>
#include <stdint.h>

/* Digest of `len` bytes into `out` (16 bytes). */
void atari_md5(const void *data, size_t len, uint8_t out[16]);

/* Digest as 32 lowercase hex digits and a NUL into `hex`. */
void atari_md5_hex(const void *data, size_t len, char hex[33]);

#endif
