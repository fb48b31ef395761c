/*
 * The NTSC and PAL palettes of the Atari 2600 as ALE converts screens to
 * RGB, and the grey levels of its grayscale observations (the luminance
 * 0.2989 R + 0.5870 G + 0.1140 B, rounded).  Device code gets its own
 * copy of the tables in constant memory.
 */
#include "atari/tia.h"

#define NTSC_RGB { \
	0x000000, 0x4a4a4a, 0x6f6f6f, 0x8e8e8e, 0xaaaaaa, 0xc0c0c0, 0xd6d6d6, 0xececec, \
	0x484800, 0x69690f, 0x86861d, 0xa2a22a, 0xbbbb35, 0xd2d240, 0xe8e84a, 0xfcfc54, \
	0x7c2c00, 0x904811, 0xa26221, 0xb47a30, 0xc3903d, 0xd2a44a, 0xdfb755, 0xecc860, \
	0x901c00, 0xa33915, 0xb55328, 0xc66c3a, 0xd5824a, 0xe39759, 0xf0aa67, 0xfcbc74, \
	0x940000, 0xa71a1a, 0xb83232, 0xc84848, 0xd65c5c, 0xe46f6f, 0xf08080, 0xfc9090, \
	0x840064, 0x97197a, 0xa8308f, 0xb846a2, 0xc659b3, 0xd46cc3, 0xe07cd2, 0xec8ce0, \
	0x500084, 0x68199a, 0x7d30ad, 0x9246c0, 0xa459d0, 0xb56ce0, 0xc57cee, 0xd48cfc, \
	0x140090, 0x331aa3, 0x4e32b5, 0x6848c6, 0x7f5cd5, 0x956fe3, 0xa980f0, 0xbc90fc, \
	0x000094, 0x181aa7, 0x2d32b8, 0x4248c8, 0x545cd6, 0x656fe4, 0x7580f0, 0x8490fc, \
	0x001c88, 0x183b9d, 0x2d57b0, 0x4272c2, 0x548ad2, 0x65a0e1, 0x75b5ef, 0x84c8fc, \
	0x003064, 0x185080, 0x2d6d98, 0x4288b0, 0x54a0c5, 0x65b7d9, 0x75cceb, 0x84e0fc, \
	0x004030, 0x18624e, 0x2d8169, 0x429e82, 0x54b899, 0x65d1ae, 0x75e7c2, 0x84fcd4, \
	0x004400, 0x1a661a, 0x328432, 0x48a048, 0x5cba5c, 0x6fd26f, 0x80e880, 0x90fc90, \
	0x143c00, 0x355f18, 0x527e2d, 0x6e9c42, 0x87b754, 0x9ed065, 0xb4e775, 0xc8fc84, \
	0x303800, 0x505916, 0x6d762b, 0x88923e, 0xa0ab4f, 0xb7c25f, 0xccd86e, 0xe0ec7c, \
	0x482c00, 0x694d14, 0x866a26, 0xa28638, 0xbb9f47, 0xd2b656, 0xe8cc63, 0xfce070, \
}

#define NTSC_GREY { \
	  0,  74, 111, 142, 170, 192, 214, 236,  64,  95, 122, 148, 172, 193, 214, 233, \
	 63,  87, 110, 131, 150, 167, 184, 199,  59,  85, 107, 129, 148, 167, 183, 199, \
	 44,  68,  90, 110, 128, 146, 161, 176,  51,  74,  95, 115, 132, 149, 164, 178, \
	 39,  63,  85, 107, 125, 143, 159, 174,  22,  49,  73,  96, 116, 136, 153, 169, \
	 17,  41,  64,  85, 104, 121, 137, 153,  32,  60,  85, 109, 130, 150, 168, 186, \
	 40,  69,  95, 120, 141, 162, 182, 200,  43,  74, 101, 127, 151, 173, 193, 212, \
	 40,  71,  98, 124, 147, 169, 189, 207,  41,  74, 104, 132, 157, 181, 203, 223, \
	 47,  79, 107, 133, 157, 179, 200, 220,  47,  79, 107, 133, 157, 179, 200, 220, \
}

#define PAL_RGB { \
	0x000000, 0x2b2b2b, 0x525252, 0x767676, 0x979797, 0xb6b6b6, 0xd2d2d2, 0xececec, \
	0x000000, 0x2b2b2b, 0x525252, 0x767676, 0x979797, 0xb6b6b6, 0xd2d2d2, 0xececec, \
	0x805800, 0x96711a, 0xab8732, 0xbe9c48, 0xcfaf5c, 0xdfc06f, 0xeed180, 0xfce090, \
	0x445c00, 0x5e791a, 0x769332, 0x8cac48, 0xa0c25c, 0xb3d76f, 0xc4ea80, 0xd4fc90, \
	0x703400, 0x89511a, 0xa06b32, 0xb68448, 0xc99a5c, 0xdcaf6f, 0xecc280, 0xfcd490, \
	0x006414, 0x1a8035, 0x329852, 0x48b06e, 0x5cc587, 0x6fd99e, 0x80ebb4, 0x90fcc8, \
	0x700014, 0x891a35, 0xa03252, 0xb6486e, 0xc95c87, 0xdc6f9e, 0xec80b4, 0xfc90c8, \
	0x005c5c, 0x1a7676, 0x328e8e, 0x48a4a4, 0x5cb8b8, 0x6fcbcb, 0x80dcdc, 0x90ecec, \
	0x70005c, 0x841a74, 0x963289, 0xa8489e, 0xb75cb0, 0xc66fc1, 0xd380d1, 0xe090e0, \
	0x003c70, 0x195a89, 0x2f75a0, 0x448eb6, 0x57a5c9, 0x68badc, 0x79ceec, 0x88e0fc, \
	0x580070, 0x6e1a89, 0x8332a0, 0x9648b6, 0xa75cc9, 0xb76fdc, 0xc680ec, 0xd490fc, \
	0x002070, 0x193f89, 0x2f5aa0, 0x4474b6, 0x578bc9, 0x68a1dc, 0x79b5ec, 0x88c8fc, \
	0x340080, 0x4a1a96, 0x5f32ab, 0x7248be, 0x835ccf, 0x936fdf, 0xa280ee, 0xb090fc, \
	0x000088, 0x1a1a9d, 0x3232b0, 0x4848c2, 0x5c5cd2, 0x6f6fe1, 0x8080ef, 0x9090fc, \
	0x000000, 0x2b2b2b, 0x525252, 0x767676, 0x979797, 0xb6b6b6, 0xd2d2d2, 0xececec, \
	0x000000, 0x2b2b2b, 0x525252, 0x767676, 0x979797, 0xb6b6b6, 0xd2d2d2, 0xececec, \
}

#define PAL_GREY { \
	  0,  43,  82, 118, 151, 182, 210, 236,   0,  43,  82, 118, 151, 182, 210, 236, \
	 90, 114, 136, 157, 175, 192, 208, 223,  74, 102, 127, 151, 172, 192, 211, 228, \
	 64,  91, 116, 140, 161, 181, 199, 216,  61,  89, 114, 137, 159, 179, 197, 214, \
	 36,  62,  87, 109, 129, 149, 166, 183,  64,  90, 114, 136, 156, 175, 192, 208, \
	 44,  68,  90, 110, 129, 146, 162, 177,  48,  76, 101, 124, 146, 165, 184, 201, \
	 39,  64,  87, 108, 127, 145, 161, 177,  32,  60,  85, 109, 131, 151, 169, 187, \
	 30,  54,  77,  98, 117, 135, 151, 166,  16,  41,  64,  86, 105, 124, 141, 156, \
	  0,  43,  82, 118, 151, 182, 210, 236,   0,  43,  82, 118, 151, 182, 210, 236, \
}

#ifdef __CUDACC__
__constant__ static const uint32_t dev_ntsc_rgb[128] = NTSC_RGB;
__constant__ static const uint32_t dev_pal_rgb[128] = PAL_RGB;
__constant__ static const uint8_t dev_ntsc_grey[128] = NTSC_GREY;
__constant__ static const uint8_t dev_pal_grey[128] = PAL_GREY;
#endif

#ifdef __CUDA_ARCH__
#define TABLE(name) dev_##name
#else
const uint32_t atari_palette_ntsc[128] = NTSC_RGB;
const uint32_t atari_palette_pal[128] = PAL_RGB;
static const uint8_t host_ntsc_grey[128] = NTSC_GREY;
static const uint8_t host_pal_grey[128] = PAL_GREY;
#define host_ntsc_rgb atari_palette_ntsc
#define host_pal_rgb atari_palette_pal
#define TABLE(name) host_##name
#endif

HOSTDEV uint32_t atari_palette_rgb(uint8_t colour)
{
	return TABLE(ntsc_rgb)[colour >> 1];
}

HOSTDEV uint8_t atari_palette_grey(uint8_t colour)
{
	return TABLE(ntsc_grey)[colour >> 1];
}

HOSTDEV uint32_t atari_palette_pal_rgb(uint8_t colour)
{
	return TABLE(pal_rgb)[colour >> 1];
}

HOSTDEV uint8_t atari_palette_pal_grey(uint8_t colour)
{
	return TABLE(pal_grey)[colour >> 1];
}

/* The CUDA backend compiles the emulator as one unit: keep names local. */
#undef NTSC_RGB
#undef NTSC_GREY
#undef PAL_RGB
#undef PAL_GREY
#undef TABLE
#ifndef __CUDA_ARCH__
#undef host_ntsc_rgb
#undef host_pal_rgb
#endif
