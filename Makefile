# rlkit: tools for deep reinforcement learning systems
#
#   make [TARGET...] [VARIABLE=value...]
#
# Targets
#   all                build the library, the programs and their data (default)
#   check              run 'deps', build, then run every test (tests/run;
#                      tests/02-fuzz.bats builds the fuzzers it runs)
#   check-train        install PyTorch and Stable-Baselines3, then run the
#                      training tests of rlkit.atari (PPO, a few thousand steps)
#   demo               run 'deps', build, then run the main job end to end
#   deps               install missing Debian and Python packages when root,
#                      otherwise print the exact command and fail (.ci/deps
#                      exits 3; make itself then reports failure with 2).
#                      Python packages go to the python3 first on PATH; where
#                      no CUDA toolkit has them, they include the NVTX, CUPTI
#                      and CUDA runtime headers (pip's nvidia-*-cu12 wheels)
#   config             print what the build found (nvcc, NVTX, CUPTI, Python);
#                      the first build prints it too
#   install            install-bin install-lib install-man install-completion
#                      install-data
#   install-bin        programs into $(BINDIR)
#   install-lib        librlkit.a, librlkit.so, headers and rlkit.pc
#   install-man        man pages into $(MANDIR)
#   install-completion bash and zsh completions
#   install-data       share/ (Python module, examples, ROMs) into $(DATADIR)/rlkit
#   uninstall          remove what install put in place
#   fuzzers            build the libFuzzer targets in tests/fuzz (needs clang;
#                      not part of 'all': tests/02-fuzz.bats builds them)
#   completions        regenerate completion/ from the programs' --list-opts
#   clean              remove the build folder
#
# The build runs as many jobs at once as there are CPUs, unless -j is given
# (make -j1 builds one file at a time).
#
# Variables
#   V=1                show the full commands
#   O=DIR              build into DIR (default: build, or build-san when
#                      SANITIZE is set, so both builds live side by side)
#   PREFIX=/usr/local  installation prefix; also BINDIR, LIBDIR, INCLUDEDIR,
#                      MANDIR, DATADIR
#   DESTDIR=           staging root prepended to every installed path
#   NO_CUDA=1          skip the code nvcc builds (the CUDA plug-in of
#                      lib/atari, the longest step of a first build) even
#                      where nvcc exists; NVTX and CUPTI are still used
#   CUDA_HOME=DIR      CUDA toolkit (default: from nvcc on PATH, else
#                      /usr/local/cuda); the NVTX headers, CUPTI and the
#                      CUDA runtime headers are looked for there first, then
#                      in site-packages/nvidia of the python3 on PATH
#   DEVELOPER=1        extra warnings, all of them errors (-Werror)
#   SANITIZE=LIST      build with -fsanitize=LIST, e.g. address,undefined
#   CC, CFLAGS, LDFLAGS, NVCCFLAGS   as usual
#
# Areas of the library and programs plug in through lib/<area>/module.mk
# and cmd/<prog>.mk; see CONTRIBUTING.md.

VERSION := 0.1.0
SOVERSION := 0

# As many jobs as CPUs unless -j was given.  GNU make 4.3 hides a
# command-line -j from the makefile but lets it override this one; make 4.4
# shows it in MAKEFLAGS, and so does an exported MAKEFLAGS=-jN.  Sub-makes
# share the top make's job slots; 'make clean all' stays in order.
ifeq ($(MAKELEVEL),0)
ifeq ($(filter -j% j%,$(MAKEFLAGS) $(shell printenv MAKEFLAGS))$(filter clean,$(MAKECMDGOALS)),)
MAKEFLAGS += -j$(shell nproc 2>/dev/null || echo 1)
endif
endif

PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
LIBDIR ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
MANDIR ?= $(PREFIX)/share/man
DATADIR ?= $(PREFIX)/share

ifeq ($(O),)
ifneq ($(SANITIZE),)
O := build-san
else
O := build
endif
endif
# One spelling of the build folder, however it was given (relative when it
# is inside the tree), so that the dependency files one make writes match
# the targets of the next: O=build and O=$PWD/build are the same folder.
override O := $(patsubst $(CURDIR)/%,%,$(abspath $(O)))

ifeq ($(V),1)
Q :=
quiet = @:
else
Q := @
quiet = @printf '  %-7s %s\n'
endif

CC ?= cc
PKG_CONFIG ?= pkg-config
CFLAGS ?= -O2 -g
JANSSON_CFLAGS := $(shell $(PKG_CONFIG) --cflags jansson 2>/dev/null)
JANSSON_LIBS := $(shell $(PKG_CONFIG) --libs jansson 2>/dev/null || echo -ljansson)
HAVE_JANSSON := $(shell $(PKG_CONFIG) --exists jansson 2>/dev/null && echo 1)

WARNINGS := -Wall -Wextra -Wno-unused-parameter
ifeq ($(DEVELOPER),1)
WARNINGS += -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
	-Wpointer-arith -Wvla -Wformat=2 -Wundef -Wold-style-definition
endif

SAN_FLAGS :=
ifneq ($(SANITIZE),)
SAN_FLAGS := -fsanitize=$(SANITIZE) -fno-omit-frame-pointer -fno-sanitize-recover=all
endif

# -ffp-contract=off: float products and sums are rounded each on its own,
# never fused (the 84x84 resize must equal OpenCV's, whatever -march says).
ALL_CFLAGS = -std=c11 -D_GNU_SOURCE -fPIC -pthread -ffp-contract=off $(WARNINGS) $(SAN_FLAGS) \
	-Ilib $(JANSSON_CFLAGS) -DRLKIT_VERSION='"$(VERSION)"' $(CFLAGS)
ALL_LDFLAGS = -pthread $(SAN_FLAGS) $(LDFLAGS)
BASE_LIBS = $(JANSSON_LIBS) -lm

# CUDA.  nvcc builds the CUDA code wherever it exists, unless NO_CUDA=1.
# The NVTX headers (lib/prof/module.mk), CUPTI and the CUDA runtime headers
# come from the toolkit, else from the NVIDIA wheels that make deps installs
# with pip into the python3 first on PATH (site-packages/nvidia/<part>/).
NVCC_ON_PATH := $(shell command -v nvcc 2>/dev/null)
CUDA_HOME ?= $(if $(NVCC_ON_PATH),$(patsubst %/bin/nvcc,%,$(realpath $(NVCC_ON_PATH))),/usr/local/cuda)
NVCC := $(CUDA_HOME)/bin/nvcc
ifneq ($(NO_CUDA),1)
HAVE_CUDA := $(if $(wildcard $(NVCC)),1)
NVCCFLAGS ?= -O2
endif
# first_dir FILE,DIRS: the first of DIRS that has FILE (a path or a pattern).
first_dir = $(patsubst %/$(1),%,$(firstword $(wildcard $(addsuffix /$(1),$(2)))))
first_file = $(firstword $(wildcard $(addsuffix /$(1),$(2))))
# The site-packages/nvidia folders of python3, asked only when needed.
PY_NVIDIA = $(eval PY_NVIDIA := $$(shell python3 -c 'import nvidia; print(" ".join(nvidia.__path__))' 2>/dev/null))$(PY_NVIDIA)
CUDA_TOOLKIT_DIRS := $(CUDA_HOME) $(if $(filter /usr/local/cuda,$(CUDA_HOME)),,/usr/local/cuda)

CUDA_INCDIR := $(call first_dir,cuda_runtime_api.h,$(addsuffix /include,$(CUDA_TOOLKIT_DIRS)))
CUPTI_INCDIR := $(call first_dir,cupti.h,$(addsuffix /include,$(CUDA_TOOLKIT_DIRS)) \
	$(addsuffix /extras/CUPTI/include,$(CUDA_TOOLKIT_DIRS)))
CUPTI_LIB := $(call first_file,libcupti.so,$(addsuffix /lib64,$(CUDA_TOOLKIT_DIRS)) \
	$(addsuffix /lib,$(CUDA_TOOLKIT_DIRS)) $(addsuffix /extras/CUPTI/lib64,$(CUDA_TOOLKIT_DIRS)))
# cupti.h reaches crt/host_defines.h: in the toolkit beside the runtime's
# headers, in the wheels among nvcc's.
CUDA_CRT_INCDIR := $(call first_dir,crt/host_defines.h,$(CUDA_INCDIR))
ifeq ($(and $(CUDA_INCDIR),$(CUPTI_INCDIR),$(CUPTI_LIB)),)
PIP_CUDA_PACKAGES := nvidia-cuda-cupti-cu12 nvidia-cuda-runtime-cu12 nvidia-cuda-nvcc-cu12
CUDA_INCDIR := $(call first_dir,cuda_runtime_api.h,$(addsuffix /cuda_runtime/include,$(PY_NVIDIA)))
CUPTI_INCDIR := $(call first_dir,cupti.h,$(addsuffix /cuda_cupti/include,$(PY_NVIDIA)))
CUDA_CRT_INCDIR := $(call first_dir,crt/host_defines.h,$(addsuffix /cuda_nvcc/include,$(PY_NVIDIA)))
# The wheel has only the versioned name (libcupti.so.12): link that file.
CUPTI_LIB := $(call first_file,libcupti.so.*,$(addsuffix /cuda_cupti/lib,$(PY_NVIDIA)))
endif
CUPTI_LIBDIR := $(patsubst %/,%,$(dir $(CUPTI_LIB)))
# For a program that uses CUPTI: the headers, then the library with its path.
CUPTI_CFLAGS = -I$(CUPTI_INCDIR) -I$(CUDA_INCDIR) \
	$(if $(filter-out $(CUDA_INCDIR),$(CUDA_CRT_INCDIR)),-I$(CUDA_CRT_INCDIR))
CUPTI_LIBS = -L$(CUPTI_LIBDIR) -l:$(notdir $(CUPTI_LIB)) -Wl,-rpath,$(CUPTI_LIBDIR)
HAVE_CUPTI := $(if $(and $(CUDA_INCDIR),$(CUPTI_INCDIR),$(CUDA_CRT_INCDIR),$(CUPTI_LIB)),1)

# Filled in by lib/<area>/module.mk and cmd/<prog>.mk.
LIB_SRCS :=
EXTRA_TARGETS :=
DEMOS :=
DEB_PACKAGES := gcc make pkg-config libjansson-dev bats bats-assert \
	bats-support parallel groff-base python3 python3-pip clang libclang-rt-dev
PIP_PACKAGES := $(PIP_CUDA_PACKAGES)
# Targets that take long and depend on little: 'all' starts them first, so
# that they run beside the rest of a parallel build.
SLOW_TARGETS :=

PROGRAMS := $(patsubst cmd/%.c,%,$(wildcard cmd/*.c))

# 'make' alone builds everything, whatever targets the modules define first.
.DEFAULT_GOAL := all

include $(sort $(wildcard lib/*/module.mk))
include $(sort $(wildcard cmd/*.mk))
include share/python/rlkit.mk

LIB_OBJS := $(patsubst %.c,$(O)/obj/%.o,$(LIB_SRCS))
LIB_A := $(O)/lib/librlkit.a
LIB_SO := $(O)/lib/librlkit.so.$(VERSION)
BINS := $(addprefix $(O)/bin/,$(PROGRAMS))
UNIT_SRCS := $(wildcard tests/unit/*.c)
UNIT_BINS := $(patsubst tests/unit/%.c,$(O)/tests/%,$(filter-out tests/unit/test.c,$(UNIT_SRCS)))
UNIT_OBJ := $(O)/obj/tests/unit/test.o

# libFuzzer targets: tests/fuzz/<area>-<name>.c links lib/core and lib/<area>,
# built with clang (always with ASan and UBSan); tests/02-fuzz.bats runs them.
# The emulator's bus stays calls there (ATARI_BUS_CALLS, lib/atari/machine.c).
FUZZ_CC ?= clang
FUZZ_FLAGS := -g -O1 -std=c11 -D_GNU_SOURCE -pthread -Ilib $(JANSSON_CFLAGS) \
	-fsanitize=address,undefined -fno-sanitize-recover=all -DATARI_BUS_CALLS
FUZZ_BINS := $(patsubst tests/fuzz/%.c,$(O)/fuzz/%,$(wildcard tests/fuzz/*.c))
fuzz_area = $(firstword $(subst -, ,$(1)))
fuzz_objs = $(patsubst %.c,$(O)/fuzz-obj/%.o,$(filter lib/core/% lib/$(call fuzz_area,$(1))/%,$(LIB_SRCS)))

.PHONY: all check demo deps install install-bin install-lib install-man \
	install-completion install-data uninstall completions clean check-libs \
	unit-tests fuzzers config FORCE
.DELETE_ON_ERROR:
.SECONDARY:

all: check-libs $(SLOW_TARGETS) $(LIB_A) $(LIB_SO) $(BINS) $(EXTRA_TARGETS)

check-libs:
	@test -n "$(HAVE_JANSSON)" || { echo "make: jansson not found (libjansson-dev); run 'make deps'" >&2; exit 1; }

# Build flags that change the objects; a change forces a rebuild, and prints
# what the build found (as the first build does).  make-vars keeps the
# variables the folder was built with, one per line, for the tests that run
# make on it again (tests/01-build.bats, tests/02-fuzz.bats).
BUILD_FLAGS = $(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) $(HAVE_CUDA) $(NVCCFLAGS)
MAKE_VARS := CC CFLAGS LDFLAGS SANITIZE DEVELOPER NO_CUDA NVCCFLAGS \
	$(if $(filter command line,$(origin CUDA_HOME)),CUDA_HOME)
$(O)/build-flags: FORCE
	@mkdir -p $(@D)
	@echo '$(BUILD_FLAGS)' | cmp -s - $@ || { \
		$(CONFIG_PRINT); echo '$(BUILD_FLAGS)' > $@; }
	@printf '%s\n' $(foreach v,$(MAKE_VARS),'$(v)=$($(v))') > $(O)/make-vars

# What the build found, for 'make config' and the first build.
CONFIG_J = $(filter -j%,$(MAKEFLAGS))
CONFIG_JOBS = $(if $(CONFIG_J),$(or $(patsubst -j%,%,$(CONFIG_J)),unlimited),1)
CONFIG_PRINT = printf '%s\n' \
	'rlkit $(VERSION): building into $(O)/ (programs in $(O)/bin), jobs at once: $(CONFIG_JOBS)' \
	'  nvcc     $(if $(HAVE_CUDA),$(NVCC)$(NVCC_NOTE),$(if $(filter 1,$(NO_CUDA)),not used (NO_CUDA=1),not found)$(comma) no CUDA backend)' \
	'  NVTX     $(or $(NVTX_INCDIR),not found$(comma) no NVTX recording (make deps installs it))' \
	'  CUPTI    $(if $(HAVE_CUPTI),$(CUPTI_LIB),not found (make deps installs it))' \
	'  python3  $(or $(PYTHON3),not found)$(if $(PY_INCLUDES),$(comma) with headers (C profile hook),$(comma) no headers (pure-Python profile hook))'
comma := ,
PYTHON3 := $(shell command -v python3 2>/dev/null)

config:
	@$(CONFIG_PRINT)

$(O)/obj/%.o: %.c $(O)/build-flags
	@mkdir -p $(@D)
	$(quiet) CC $<
	$(Q)$(CC) $(ALL_CFLAGS) -MMD -MP -c -o $@ $<

$(LIB_A): $(LIB_OBJS)
	@mkdir -p $(@D)
	$(quiet) AR $@
	$(Q)rm -f $@ && ar rcs $@ $^

$(LIB_SO): $(LIB_OBJS)
	@mkdir -p $(@D)
	$(quiet) LINK $@
	$(Q)$(CC) -shared -Wl,-soname,librlkit.so.$(SOVERSION) $(ALL_LDFLAGS) -o $@ $^ $(BASE_LIBS) $(LIB_EXTRA_LIBS)

# A program is cmd/<prog>.c plus, optionally, cmd/<prog>/*.c; it links the
# static library, so installed programs need no library path.
.SECONDEXPANSION:
$(O)/bin/%: $(O)/obj/cmd/%.o $$(patsubst %.c,$(O)/obj/%.o,$$(wildcard cmd/$$*/*.c)) $(LIB_A)
	@mkdir -p $(@D)
	$(quiet) LINK $@
	$(Q)$(CC) $(ALL_LDFLAGS) -o $@ $(filter %.o,$^) $(LIB_A) $(LDLIBS_$*) $(LIB_EXTRA_LIBS) $(BASE_LIBS)

$(O)/tests/%: $(O)/obj/tests/unit/%.o $(UNIT_OBJ) $(LIB_A)
	@mkdir -p $(@D)
	$(quiet) LINK $@
	$(Q)$(CC) $(ALL_LDFLAGS) -o $@ $(filter %.o,$^) $(LIB_A) $(LIB_EXTRA_LIBS) $(BASE_LIBS)

unit-tests: $(UNIT_BINS)

fuzzers: $(FUZZ_BINS)

$(O)/fuzz-obj/%.o: %.c $(O)/build-flags
	@mkdir -p $(@D)
	$(quiet) FUZZCC $<
	$(Q)$(FUZZ_CC) $(FUZZ_FLAGS) -fsanitize=fuzzer-no-link -MMD -MP -c -o $@ $<

$(O)/fuzz/%: tests/fuzz/%.c $$(call fuzz_objs,$$*)
	@mkdir -p $(@D)
	$(quiet) FUZZLD $@
	$(Q)$(FUZZ_CC) $(FUZZ_FLAGS) -fsanitize=fuzzer -o $@ $^ $(LIB_EXTRA_LIBS) $(BASE_LIBS)

deps:
	$(Q)DEB_PACKAGES='$(sort $(DEB_PACKAGES))' PIP_PACKAGES='$(sort $(PIP_PACKAGES))' sh .ci/deps

# The tests run make on their own (tests/01-build.bats, tests/02-fuzz.bats):
# they get a make environment of their own, not this one's job slots.
check: deps
	$(Q)$(MAKE) --no-print-directory all unit-tests
	$(Q)unset MAKEFLAGS MFLAGS MAKELEVEL; \
		RLKIT_BUILD='$(abspath $(O))' RLKIT_SANITIZE='$(SANITIZE)' tests/run

# The demos run one after the other, each with its output in one piece.
demo: deps
	$(Q)$(MAKE) --no-print-directory all
	@echo "rlkit $(VERSION): programs built in $(O)/bin: $(or $(PROGRAMS),none)"
	$(Q)for d in $(DEMOS); do $(MAKE) --no-print-directory $$d || exit 1; done
	@echo "rlkit $(VERSION): to run the programs by name: export PATH=\"$(abspath $(O))/bin:\$$PATH\""
	@echo "  (or install them: make install PREFIX=\$$HOME/.local)"

completions: all
	$(Q)for p in $(PROGRAMS); do \
		completion/generate bash $(O)/bin/$$p > completion/bash/$$p.tmp && \
		mv completion/bash/$$p.tmp completion/bash/$$p && \
		completion/generate zsh $(O)/bin/$$p > completion/zsh/_$$p.tmp && \
		mv completion/zsh/_$$p.tmp completion/zsh/_$$p || exit 1; done

install: install-bin install-lib install-man install-completion install-data

install-bin: all
	install -d '$(DESTDIR)$(BINDIR)'
	$(if $(BINS),install -m 755 $(BINS) '$(DESTDIR)$(BINDIR)')

HEADERS := $(wildcard lib/*/*.h)
install-lib: all
	install -d '$(DESTDIR)$(LIBDIR)/pkgconfig'
	install -m 644 $(LIB_A) '$(DESTDIR)$(LIBDIR)'
	install -m 755 $(LIB_SO) '$(DESTDIR)$(LIBDIR)'
	ln -sf librlkit.so.$(VERSION) '$(DESTDIR)$(LIBDIR)/librlkit.so.$(SOVERSION)'
	ln -sf librlkit.so.$(SOVERSION) '$(DESTDIR)$(LIBDIR)/librlkit.so'
	printf '%s\n' 'prefix=$(PREFIX)' 'libdir=$(LIBDIR)' 'includedir=$(INCLUDEDIR)' '' \
		'Name: rlkit' 'Description: tools for deep reinforcement learning systems' \
		'Version: $(VERSION)' 'Requires.private: jansson' \
		'Cflags: -I$${includedir}/rlkit' 'Libs: -L$${libdir} -lrlkit' \
		'Libs.private: -lm -pthread $(LIB_EXTRA_LIBS)' \
		> '$(DESTDIR)$(LIBDIR)/pkgconfig/rlkit.pc'
	for h in $(HEADERS); do \
		d='$(DESTDIR)$(INCLUDEDIR)/rlkit/'$$(basename $$(dirname $$h)); \
		install -d "$$d" && install -m 644 $$h "$$d" || exit 1; done
	$(INSTALL_LIB_EXTRA)

install-man:
	for s in 1 3 5 7; do \
		install -d '$(DESTDIR)$(MANDIR)/man'$$s; \
		for f in man/man$$s/*.$$s; do [ -f "$$f" ] || continue; \
			install -m 644 "$$f" '$(DESTDIR)$(MANDIR)/man'$$s || exit 1; done; done

install-completion:
	install -d '$(DESTDIR)$(DATADIR)/bash-completion/completions' '$(DESTDIR)$(DATADIR)/zsh/vendor-completions'
	for p in $(PROGRAMS); do \
		install -m 644 completion/bash/$$p '$(DESTDIR)$(DATADIR)/bash-completion/completions/'$$p && \
		install -m 644 completion/zsh/_$$p '$(DESTDIR)$(DATADIR)/zsh/vendor-completions/_'$$p || exit 1; done

install-data: all
	install -d '$(DESTDIR)$(DATADIR)/rlkit'
	if [ -d share ]; then cp -R share/. '$(DESTDIR)$(DATADIR)/rlkit/'; fi
	$(INSTALL_DATA_EXTRA)

uninstall:
	rm -f $(addprefix '$(DESTDIR)$(BINDIR)'/,$(PROGRAMS))
	rm -f '$(DESTDIR)$(LIBDIR)'/librlkit.a '$(DESTDIR)$(LIBDIR)'/librlkit.so*
	rm -f '$(DESTDIR)$(LIBDIR)/pkgconfig/rlkit.pc'
	rm -rf '$(DESTDIR)$(INCLUDEDIR)/rlkit' '$(DESTDIR)$(DATADIR)/rlkit'
	for s in 1 3 5 7; do for f in man/man$$s/*.$$s; do [ -f "$$f" ] || continue; \
		rm -f '$(DESTDIR)$(MANDIR)/man'$$s/$$(basename $$f); done; done
	for p in $(PROGRAMS); do \
		rm -f '$(DESTDIR)$(DATADIR)/bash-completion/completions/'$$p \
		'$(DESTDIR)$(DATADIR)/zsh/vendor-completions/_'$$p; done
	$(UNINSTALL_EXTRA)

clean:
	rm -rf $(O)

FORCE:

-include $(shell find $(O)/obj $(O)/fuzz-obj -name '*.d' 2>/dev/null)
