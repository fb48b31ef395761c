# share/python: the Python package rlkit.  Its modules are copied into
# $(O)/share/rlkit/python/ (lib/prof/module.mk copies every .py there), laid
# out as installed; this adds the C extension of rlkit.atari, which holds
# the emulator itself, so that the installed package needs no library path.
# Without the Python headers (python3-dev) there is no rlkit.atari.
ATARI_PYEXT := $(O)/share/rlkit/python/rlkit/_atari.so

ifneq ($(PY_INCLUDES),)
EXTRA_TARGETS += $(ATARI_PYEXT)
INSTALL_DATA_EXTRA += install -m 755 $(ATARI_PYEXT) '$(DESTDIR)$(DATADIR)/rlkit/python/rlkit/';
endif
PIP_PACKAGES += gymnasium numpy ale-py pytest opencv-python-headless

# The extension compiles the emulator's sources itself, without sanitizers
# (SANITIZE=...), so that it loads into any python3; pyproject.toml builds
# the same list.
ATARI_PYEXT_SRCS := share/python/rlkit/_atari.c $(wildcard lib/atari/*.c) \
	lib/core/error.c lib/core/grow.c lib/core/sys.c

ATARI_PYEXT_CFLAGS = -std=c11 -D_GNU_SOURCE -fPIC -pthread -fvisibility=hidden -ffp-contract=off \
	$(WARNINGS) -Wno-missing-field-initializers -Wno-cast-function-type -Ilib $(PY_INCLUDES) \
	$(CFLAGS)
ATARI_PYEXT_OBJS := $(patsubst %.c,$(O)/pyext-obj/%.o,$(ATARI_PYEXT_SRCS))

$(O)/pyext-obj/%.o: %.c $(O)/build-flags
	@mkdir -p $(@D)
	$(quiet) CC $@
	$(Q)$(CC) $(ATARI_PYEXT_CFLAGS) -MMD -MP -c -o $@ $<

$(ATARI_PYEXT): $(ATARI_PYEXT_OBJS)
	@mkdir -p $(@D)
	$(quiet) LINK $@
	$(Q)$(CC) -shared -pthread -o $@.tmp.so $^ -lm && mv $@.tmp.so $@

-include $(wildcard $(O)/pyext-obj/*/*.d $(O)/pyext-obj/*/*/*.d $(O)/pyext-obj/*/*/*/*.d)

# The training tests (Stable-Baselines3 PPO over rlkit.atari) and rlprof's
# PyTorch suite (tests/train) need PyTorch:
# 'make check-train' installs what they need and runs them; 'make check'
# runs the rest of the package's tests.
TRAIN_PIP_PACKAGES := torch stable-baselines3
.PHONY: check-train
check-train: all
	$(Q)PIP_PACKAGES='$(TRAIN_PIP_PACKAGES)' DEB_PACKAGES= sh .ci/deps
	$(Q)PYTHONPATH='$(abspath $(O))/share/rlkit/python' RLKIT_TRAIN=1 \
		python3 -m pytest -q share/python/tests/test_train.py
	$(Q)RLKIT_BUILD='$(abspath $(O))' tests/run tests/train/*.bats
