# lib/prof: trace model, in-process recorder, breakdown analysis, calibration.
#
# Besides its part of librlkit, the area builds:
#   $(O)/lib/rlkit/librlprof-inject.so   the NVTX injection library that
#        rlprof-record loads into the command (NVTX_INJECTION64_PATH), with the
#        recorder and the C API (Python uses it through ctypes).  It is built
#        without sanitizers, so that it loads into any process.
#   $(O)/lib/rlkit/_rlprof_hook.so       the Python module's profile hook in C
#        (needs the Python headers: python3-dev)
#   $(O)/share/rlkit/python/             the Python module, laid out as installed
#   $(O)/workloads/rlprof-workload       the built-in test workload
# NVTX support and the workload need the NVTX v3 headers: from the CUDA
# toolkit, else from pip's nvidia-nvtx-cu12 (make deps installs it into the
# python3 on PATH; the headers are in site-packages/nvidia/nvtx/include).
LIB_SRCS += $(wildcard lib/prof/*.c)

NVTX_INCDIR := $(call first_dir,nvtx3/nvToolsExt.h,$(addsuffix /include,$(CUDA_TOOLKIT_DIRS)) /usr/include)
ifeq ($(NVTX_INCDIR),)
PIP_PACKAGES += nvidia-nvtx-cu12
NVTX_INCDIR := $(call first_dir,nvtx3/nvToolsExt.h,$(addsuffix /nvtx/include,$(PY_NVIDIA)))
endif

# The same library is the CUDA injection library (CUDA_INJECTION64_PATH,
# lib/prof/inject/cupti.c) when the CUPTI and CUDA headers are found: from
# the toolkit, else from pip's nvidia-cuda-cupti-cu12, nvidia-cuda-runtime-cu12
# and nvidia-cuda-nvcc-cu12 (make deps).  libcupti itself is opened at run
# time, so the library builds from the headers alone.
PROF_CUPTI_INJECT := $(if $(and $(CUPTI_INCDIR),$(CUDA_INCDIR),$(CUDA_CRT_INCDIR)),1)
PROF_INJECT := $(O)/lib/rlkit/librlprof-inject.so
# Without the NVTX headers the library still serves the Python module.
PROF_INJECT_SRCS := lib/prof/recorder.c lib/prof/rlprof.c lib/prof/trace.c \
	lib/prof/cpusample.c lib/prof/catmap.c \
	lib/prof/cupti_rec.c lib/prof/cupti_status.c \
	$(if $(NVTX_INCDIR),lib/prof/inject/nvtx.c) \
	$(if $(PROF_CUPTI_INJECT),lib/prof/demangle.c lib/core/map.c lib/core/grow.c) \
	$(if $(PROF_CUPTI_INJECT),lib/prof/inject/cupti.c)
PROF_INJECT_CFLAGS = -std=c11 -D_GNU_SOURCE -fPIC -pthread -fvisibility=hidden $(WARNINGS) \
	-Ilib $(if $(NVTX_INCDIR),-I$(NVTX_INCDIR)) \
	$(if $(PROF_CUPTI_INJECT),$(CUPTI_CFLAGS) $(if $(CUPTI_LIB),-DPROF_CUPTI_LIB='"$(CUPTI_LIB)"')) $(CFLAGS)
# The C profile hook of the Python module, for the python3 on PATH; without
# Python headers the module uses its pure-Python hook.
PY_INCLUDES := $(shell python3-config --includes 2>/dev/null)
PROF_PYHOOK := $(O)/lib/rlkit/_rlprof_hook.so
PROF_PY_SRCS := $(shell find share/python -name '*.py' 2>/dev/null)
PROF_PY := $(patsubst share/python/%,$(O)/share/rlkit/python/%,$(PROF_PY_SRCS))
PROF_WORKLOAD := $(O)/workloads/rlprof-workload

ifneq ($(NVTX_INCDIR),)
EXTRA_TARGETS += $(PROF_WORKLOAD)
endif
# A stand-in for libcupti, so that tests drive the CUDA injection library
# without a GPU (tests/17-rlprof-record-gpu.bats).
PROF_FAKE_CUPTI := $(O)/workloads/libfake-cupti.so
ifneq ($(PROF_CUPTI_INJECT),)
EXTRA_TARGETS += $(PROF_FAKE_CUPTI)
endif
PROF_CATMAP := $(O)/share/rlkit/rlprof-categories
EXTRA_TARGETS += $(PROF_INJECT) $(PROF_PY) $(PROF_CATMAP)
ifneq ($(PY_INCLUDES),)
EXTRA_TARGETS += $(PROF_PYHOOK)
endif
PIP_PACKAGES += gymnasium nvtx numpy
# rlprof-report's Perfetto output is decoded with the package's trace bindings in tests.
PIP_PACKAGES += perfetto protobuf
# GNU time: peak memory in the report tests and bench/report-speed.
DEB_PACKAGES += time
DEB_PACKAGES += python3-dev
DEMOS += demo-record

$(PROF_INJECT): $(PROF_INJECT_SRCS) $(wildcard lib/prof/*.h) $(O)/build-flags
	@mkdir -p $(@D)
	$(quiet) LINK $@
	$(Q)$(CC) $(PROF_INJECT_CFLAGS) -shared -Wl,-Bsymbolic -Wl,-soname,librlprof-inject.so \
		-o $@ $(PROF_INJECT_SRCS) -pthread -ldl

$(PROF_FAKE_CUPTI): tests/workloads/fake-cupti.c $(O)/build-flags
	@mkdir -p $(@D)
	$(quiet) LINK $@
	$(Q)$(CC) -std=c11 -D_GNU_SOURCE -fPIC $(WARNINGS) -Wno-missing-prototypes \
		$(CUPTI_CFLAGS) $(CFLAGS) -shared -o $@ $<

$(PROF_PYHOOK): lib/prof/inject/pyhook.c $(O)/build-flags
	@mkdir -p $(@D)
	$(quiet) LINK $@
	$(Q)$(CC) -std=c11 -D_GNU_SOURCE -fPIC -fvisibility=hidden $(WARNINGS) -Wno-missing-field-initializers \
		$(PY_INCLUDES) $(CFLAGS) -shared -o $@ $<

$(PROF_CATMAP): share/rlprof-categories
	@mkdir -p $(@D)
	$(Q)cp $< $@

$(O)/share/rlkit/python/%.py: share/python/%.py
	@mkdir -p $(@D)
	$(Q)cp $< $@

$(PROF_WORKLOAD): tests/workloads/rlprof-workload.c $(O)/lib/librlkit.a $(O)/build-flags
	@mkdir -p $(@D)
	$(quiet) CC $@
	$(Q)$(CC) $(ALL_CFLAGS) -I$(NVTX_INCDIR) $(ALL_LDFLAGS) -o $@ $< $(LIB_A) $(BASE_LIBS) -ldl

.PHONY: demo-record
ifneq ($(NVTX_INCDIR),)
demo-record: all
	@echo "demo-record: recording the built-in workload (NVTX ranges, busy and sleeping)"
	$(Q)$(O)/bin/rlprof-record --force -o $(O)/demo-record.csv -- \
		$(PROF_WORKLOAD) busy-sleep 40 20 8
	@echo "demo-record: where the time went (rlprof-report):"
	$(Q)$(O)/bin/rlprof-report -f table $(O)/demo-record.csv
	@echo "demo-record: trace in $(O)/demo-record.csv"
else
demo-record: all
	@echo "demo-record: skipped: no NVTX v3 headers (make deps installs them as root: pip package nvidia-nvtx-cu12)"
endif

INSTALL_LIB_EXTRA += install -d '$(DESTDIR)$(LIBDIR)/rlkit' && \
	install -m 755 $(PROF_INJECT) $(if $(PY_INCLUDES),$(PROF_PYHOOK)) '$(DESTDIR)$(LIBDIR)/rlkit/';
UNINSTALL_EXTRA += rm -rf '$(DESTDIR)$(LIBDIR)/rlkit';

# demo-calibrate: calibrate the built-in workload (2 repeats, about 10 s),
# record it, and show the corrected report.
DEMOS += demo-calibrate
.PHONY: demo-calibrate
ifneq ($(NVTX_INCDIR),)
demo-calibrate: all
	@echo "demo-calibrate: measuring what the recorder costs the built-in workload (many small ranges)"
	$(Q)$(O)/bin/rlprof-calibrate --force -n 2 --validate -f table -o $(O)/demo-calibration.json -- \
		$(PROF_WORKLOAD) small-ops 10000 2000
	$(Q)$(O)/bin/rlprof-record --force -o $(O)/demo-calibrate.csv -- $(PROF_WORKLOAD) small-ops 10000 2000
	@echo "demo-calibrate: the report, corrected (rlprof-report --calibration):"
	$(Q)$(O)/bin/rlprof-report -f table --calibration $(O)/demo-calibration.json $(O)/demo-calibrate.csv
else
demo-calibrate: all
	@echo "demo-calibrate: skipped: no NVTX v3 headers (make deps installs them as root: pip package nvidia-nvtx-cu12)"
endif
