# lib/core: errors, messages, CLI, CSV, JSON, clocks, progress, atomic output.
LIB_SRCS += $(wildcard lib/core/*.c)
