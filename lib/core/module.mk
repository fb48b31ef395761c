# lib/core: errors, messages, CLI, CSV (its own reader), JSON (jansson), clocks,
# progress, atomic output.
LIB_SRCS += $(wildcard lib/core/*.c)
