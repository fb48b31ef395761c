# share/python: the Python package rlkit.  Its modules are copied into
# $(O)/share/rlkit/python/ (lib/prof/module.mk copies every .py there), laid
# out as installed; this adds the C extension of rlkit.atari, which links
# the static library, so that the installed package needs no library path.
# Without the Python headers (python3-dev) there is no rlkit.atari.
ATARI_PYEXT := $(O)/share/rlkit/python/rlkit/_atari.so

ifneq ($(PY_INCLUDES),)
EXTRA_TARGETS += $(ATARI_PYEXT)
INSTALL_DATA_EXTRA += install -m 755 $(ATARI_PYEXT) '$(DESTDIR)$(DATADIR)/rlkit/python/rlkit/';
endif
PIP_PACKAGES += gymnasium numpy ale-py pytest

$(ATARI_PYEXT): share/python/rlkit/_atari.c $(O)/lib/librlkit.a $(O)/build-flags
	@mkdir -p $(@D)
	$(quiet) LINK $@
	$(Q)$(CC) -std=c11 -D_GNU_SOURCE -fPIC -pthread -fvisibility=hidden $(WARNINGS) \
		-Wno-missing-field-initializers -Wno-cast-function-type -Ilib $(PY_INCLUDES) \
		$(SAN_FLAGS) $(CFLAGS) -shared -o $@.tmp.so $< $(O)/lib/librlkit.a -lm && mv $@.tmp.so $@

# The training tests (Stable-Baselines3 PPO over rlkit.atari) need PyTorch:
# 'make check-train' installs what they need and runs them; 'make check'
# runs the rest of the package's tests.
TRAIN_PIP_PACKAGES := torch stable-baselines3
.PHONY: check-train
check-train: all
	$(Q)PIP_PACKAGES='$(TRAIN_PIP_PACKAGES)' DEB_PACKAGES= sh .ci/deps
	$(Q)PYTHONPATH='$(abspath $(O))/share/rlkit/python' RLKIT_TRAIN=1 \
		python3 -m pytest -q share/python/tests/test_train.py
