# lib/core: errors, messages, CLI, CSV (its own reader), JSON (jansson), clocks,
# progress, atomic output, and the primitives: grow, buf, map, ring, spawn,
# sys, splitmix, hostdev.
LIB_SRCS += $(wildcard lib/core/*.c)
