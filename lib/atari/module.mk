# lib/atari: Atari 2600 emulator core (6502, TIA, RIOT, cartridges), game
# settings, ALE environment semantics, batched environments, CUDA kernels.
LIB_SRCS += $(wildcard lib/atari/*.c)
