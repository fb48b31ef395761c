# lib/fiber: task pool, wire protocol, launch backends (local, ssh, srun,
# sbatch), joblog, SPMD launcher; share/examples workers and the ES example.
LIB_SRCS += $(wildcard lib/fiber/*.c)
DEB_PACKAGES += openssh-server openssh-client slurm-wlm munge procps
EXTRA_TARGETS += $(O)/share/examples/sleep-worker $(O)/share/examples/es-worker
DEMOS += demo-fiber

$(O)/share/examples/%: share/examples/%.c lib/core/splitmix.h $(O)/build-flags
	@mkdir -p $(@D)
	$(quiet) CC $<
	$(Q)$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $< -lm

.PHONY: demo-fiber
demo-fiber: all
	@echo "fiberrun: a pool of 4 shell workers squaring 20 numbers"
	$(Q)seq 20 | $(O)/bin/fiberrun --pool --protocol lines --lines -n 4 --keep-order -- \
		sh share/examples/square-worker.sh
