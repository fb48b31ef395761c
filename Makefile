# rlkit: tools for deep reinforcement learning systems
#
#   make [TARGET...] [VARIABLE=value...]
#
# Targets
#   all                build the library, the programs and their data (default)
#   check              run 'deps', build, then run every test (tests/run)
#   demo               run 'deps', build, then run the main job end to end
#   deps               install missing Debian and Python packages when root,
#                      otherwise print the exact command and fail (.ci/deps
#                      exits 3; make itself then reports failure with 2)
#   install            install-bin install-lib install-man install-completion
#                      install-data
#   install-bin        programs into $(BINDIR)
#   install-lib        librlkit.a, librlkit.so, headers and rlkit.pc
#   install-man        man pages into $(MANDIR)
#   install-completion bash and zsh completions
#   install-data       share/ (Python module, examples, ROMs) into $(DATADIR)/rlkit
#   uninstall          remove what install put in place
#   fuzzers            build the libFuzzer targets in tests/fuzz (needs clang)
#   completions        regenerate completion/ from the programs' --list-opts
#   clean              remove the build folder
#
# Variables
#   V=1                show the full commands
#   O=DIR              build into DIR (default: build, or build-san when
#                      SANITIZE is set, so both builds live side by side)
#   PREFIX=/usr/local  installation prefix; also BINDIR, LIBDIR, INCLUDEDIR,
#                      MANDIR, DATADIR
#   DESTDIR=           staging root prepended to every installed path
#   NO_CUDA=1          skip CUDA code even where nvcc exists
#   CUDA_HOME=DIR      CUDA toolkit (default: from nvcc on PATH, else
#                      /usr/local/cuda); CUPTI is looked for in DIR/lib64,
#                      DIR/lib and DIR/extras/CUPTI/lib64
#   DEVELOPER=1        extra warnings, all of them errors (-Werror)
#   SANITIZE=LIST      build with -fsanitize=LIST, e.g. address,undefined
#   CC, CFLAGS, LDFLAGS, NVCCFLAGS   as usual
#
# Areas of the library and programs plug in through lib/<area>/module.mk
# and cmd/<prog>.mk; see CONTRIBUTING.md.

VERSION := 0.1.0
SOVERSION := 0

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
override O := $(patsubst %/,%,$(O))

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

ALL_CFLAGS = -std=c11 -D_GNU_SOURCE -fPIC -pthread $(WARNINGS) $(SAN_FLAGS) \
	-Ilib $(JANSSON_CFLAGS) -DRLKIT_VERSION='"$(VERSION)"' $(CFLAGS)
ALL_LDFLAGS = -pthread $(SAN_FLAGS) $(LDFLAGS)
BASE_LIBS = $(JANSSON_LIBS) -lm

# CUDA toolkit: compiled wherever nvcc exists, unless NO_CUDA=1.
ifneq ($(NO_CUDA),1)
NVCC_ON_PATH := $(shell command -v nvcc 2>/dev/null)
CUDA_HOME ?= $(if $(NVCC_ON_PATH),$(patsubst %/bin/nvcc,%,$(realpath $(NVCC_ON_PATH))),/usr/local/cuda)
NVCC := $(CUDA_HOME)/bin/nvcc
HAVE_CUDA := $(if $(wildcard $(NVCC)),1)
CUDA_LIBDIR := $(firstword $(wildcard $(CUDA_HOME)/lib64 $(CUDA_HOME)/lib))
CUPTI_LIBDIR := $(patsubst %/,%,$(dir $(firstword $(wildcard \
	$(CUDA_HOME)/lib64/libcupti.so $(CUDA_HOME)/lib/libcupti.so \
	$(CUDA_HOME)/extras/CUPTI/lib64/libcupti.so))))
CUPTI_INCDIR := $(patsubst %/,%,$(dir $(firstword $(wildcard \
	$(CUDA_HOME)/include/cupti.h $(CUDA_HOME)/extras/CUPTI/include/cupti.h))))
HAVE_CUPTI := $(if $(and $(HAVE_CUDA),$(CUPTI_LIBDIR),$(CUPTI_INCDIR)),1)
NVCCFLAGS ?= -O2
endif

# Filled in by lib/<area>/module.mk and cmd/<prog>.mk.
LIB_SRCS :=
EXTRA_TARGETS :=
DEMOS :=
DEB_PACKAGES := gcc make pkg-config libjansson-dev bats bats-assert \
	bats-support groff-base python3 python3-pip clang libclang-rt-dev
PIP_PACKAGES :=

PROGRAMS := $(patsubst cmd/%.c,%,$(wildcard cmd/*.c))

include $(sort $(wildcard lib/*/module.mk))
include $(sort $(wildcard cmd/*.mk))

LIB_OBJS := $(patsubst %.c,$(O)/obj/%.o,$(LIB_SRCS))
LIB_A := $(O)/lib/librlkit.a
LIB_SO := $(O)/lib/librlkit.so.$(VERSION)
BINS := $(addprefix $(O)/bin/,$(PROGRAMS))
UNIT_SRCS := $(wildcard tests/unit/*.c)
UNIT_BINS := $(patsubst tests/unit/%.c,$(O)/tests/%,$(filter-out tests/unit/test.c,$(UNIT_SRCS)))
UNIT_OBJ := $(O)/obj/tests/unit/test.o

# libFuzzer targets: tests/fuzz/<area>-<name>.c links lib/core and lib/<area>,
# built with clang (always with ASan and UBSan); tests/02-fuzz.bats runs them.
FUZZ_CC ?= clang
FUZZ_FLAGS := -g -O1 -std=c11 -D_GNU_SOURCE -pthread -Ilib $(JANSSON_CFLAGS) \
	-fsanitize=address,undefined -fno-sanitize-recover=all
FUZZ_BINS := $(patsubst tests/fuzz/%.c,$(O)/fuzz/%,$(wildcard tests/fuzz/*.c))
fuzz_area = $(firstword $(subst -, ,$(1)))
fuzz_objs = $(patsubst %.c,$(O)/fuzz-obj/%.o,$(filter lib/core/% lib/$(call fuzz_area,$(1))/%,$(LIB_SRCS)))

.PHONY: all check demo deps install install-bin install-lib install-man \
	install-completion install-data uninstall completions clean check-libs \
	unit-tests fuzzers FORCE
.DELETE_ON_ERROR:
.SECONDARY:

all: check-libs $(LIB_A) $(LIB_SO) $(BINS) $(EXTRA_TARGETS)

check-libs:
	@test -n "$(HAVE_JANSSON)" || { echo "make: jansson not found (libjansson-dev); run 'make deps'" >&2; exit 1; }

# Build flags that change the objects; a change forces a rebuild.
$(O)/build-flags: FORCE
	@mkdir -p $(@D)
	@echo '$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) $(HAVE_CUDA) $(NVCCFLAGS)' | cmp -s - $@ || \
		echo '$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) $(HAVE_CUDA) $(NVCCFLAGS)' > $@

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

check: deps
	$(Q)$(MAKE) --no-print-directory all unit-tests
	$(Q)if command -v $(FUZZ_CC) >/dev/null; then $(MAKE) --no-print-directory fuzzers; fi
	$(Q)RLKIT_BUILD='$(abspath $(O))' RLKIT_SANITIZE='$(SANITIZE)' tests/run

demo: deps
	$(Q)$(MAKE) --no-print-directory all
	@echo "rlkit $(VERSION): programs built in $(O)/bin: $(or $(PROGRAMS),none)"
	$(Q)$(MAKE) --no-print-directory $(DEMOS)

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
	for s in 1 5 7; do \
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
	for s in 1 5 7; do for f in man/man$$s/*.$$s; do [ -f "$$f" ] || continue; \
		rm -f '$(DESTDIR)$(MANDIR)/man'$$s/$$(basename $$f); done; done
	for p in $(PROGRAMS); do \
		rm -f '$(DESTDIR)$(DATADIR)/bash-completion/completions/'$$p \
		'$(DESTDIR)$(DATADIR)/zsh/vendor-completions/_'$$p; done
	$(UNINSTALL_EXTRA)

clean:
	rm -rf $(O)

FORCE:

-include $(shell find $(O)/obj $(O)/fuzz-obj -name '*.d' 2>/dev/null)
