# lib/atari: Atari 2600 emulator core (6502, TIA, RIOT, cartridges), game
# settings, ALE environment semantics, batched environments, CUDA kernels.
LIB_SRCS += $(wildcard lib/atari/*.c)
DEB_PACKAGES += dasm

# The project's own ROM, assembled from share/roms/catch.asm.
ATARI_ROMS := $(O)/share/roms/catch.bin
EXTRA_TARGETS += $(ATARI_ROMS)

$(O)/share/roms/%.bin: share/roms/%.asm
	@mkdir -p $(@D)
	$(quiet) DASM $@
	$(Q)dasm $< -f3 -o$@.tmp >/dev/null && mv $@.tmp $@

INSTALL_DATA_EXTRA += install -d '$(DESTDIR)$(DATADIR)/rlkit/roms' && install -m 644 $(ATARI_ROMS) '$(DESTDIR)$(DATADIR)/rlkit/roms';
LIB_EXTRA_LIBS += -ldl
PIP_PACKAGES += ale-py
# The reference of the two-player games ale-py refuses (Combat, Joust, Maze
# Craze, Warlords): PettingZoo's multi-agent ALE, for the parity tests.
PIP_PACKAGES += multi-agent-ale-py

# The CUDA backend: a plug-in cule-bench loads at run time (atari/cuda.h).
# nvcc compiles the whole emulator as device code in one unit, so that the
# kernels inline it: the longest step of a first build (ptxas about half of it).
# 'all' starts it first, beside the C files; NO_CUDA=1 skips it.
ifeq ($(HAVE_CUDA),1)
ATARI_CUDA_PLUGIN := $(O)/lib/rlkit/rlkit-atari-cuda.so
SLOW_TARGETS += $(ATARI_CUDA_PLUGIN)
NVCC_NOTE := ; the CUDA plug-in of lib/atari takes about 3 minutes on 2 cores

$(ATARI_CUDA_PLUGIN): lib/atari/cuda/plugin.cu $(wildcard lib/atari/*.c lib/atari/*.h) \
		lib/core/hostdev.h lib/core/splitmix.h $(O)/build-flags
	@mkdir -p $(@D)
	$(quiet) NVCC "$@: the emulator as CUDA device code, from $< (about 3 minutes on 2 cores; NO_CUDA=1 skips it)"
	$(Q)$(NVCC) $(NVCCFLAGS) -Xcompiler -fPIC,-fvisibility=hidden,-ffp-contract=off -shared -Ilib -o $@.tmp.so $< && \
		mv $@.tmp.so $@
	$(quiet) NVCC "$@: done"

INSTALL_LIB_EXTRA += install -d '$(DESTDIR)$(LIBDIR)/rlkit' && \
	install -m 755 $(ATARI_CUDA_PLUGIN) '$(DESTDIR)$(LIBDIR)/rlkit/';
UNINSTALL_EXTRA += rm -f '$(DESTDIR)$(LIBDIR)/rlkit/rlkit-atari-cuda.so';
endif

# make demo: a short throughput run and a trace on the project's own ROM.
DEMOS += demo-cule
.PHONY: demo-cule
demo-cule: all
	$(Q)$(O)/bin/cule-bench --rom $(O)/share/roms/catch.bin --envs 64 --steps 300 -f table
	$(Q)$(O)/bin/cule-bench trace --rom $(O)/share/roms/catch.bin --frames 3000 \
		-o $(O)/demo-cule-trace.csv --force
	$(Q)awk -F, 'NR > 1 { r += $$3; e += $$4 } END { printf "demo-cule: 3000 frames traced, reward %d, %d episodes ended: $(O)/demo-cule-trace.csv\n", r, e }' \
		$(O)/demo-cule-trace.csv

# make check-parity: every supported game against ALE (make check runs a
# slice of them: tests/31-cule-bench-parity.bats; all: tests/parity/all-games.bats).
.PHONY: check-parity
check-parity: deps
	$(Q)$(MAKE) --no-print-directory all
	$(Q)unset MAKEFLAGS MFLAGS MAKELEVEL; RLKIT_PARITY=all \
		RLKIT_BUILD='$(abspath $(O))' tests/run tests/parity/all-games.bats \
		tests/34-cule-bench-modes.bats
