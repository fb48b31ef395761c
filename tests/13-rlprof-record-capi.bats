#!/usr/bin/env bats
# rlprof-record: the C API of librlkit (prof/rlprof.h): operations, phases,
# counters, metadata, marks; installed header and pkg-config.

load helpers

W=$RLKIT_BUILD/workloads/rlprof-workload
check() { python3 "$TOP/tests/workloads/trace-check.py" "$@"; }

@test "C API: operations, phases, counters, metadata, marks and start/end" {
	[ -x "$W" ] || fail "the workload was not built: no NVTX headers (make deps installs them)"
	# --sample 0: only the rows the program wrote (a leak checker's
	# helper process would show up in sanitizer builds).
	run rlprof-record --sample 0 -o t.csv -- "$W" capi
	assert_success
	run check validate t.csv
	assert_success
	run check rows t.csv op
	assert_output "setup|||0|
inference|||0|
nested|||1|
async||||"
	run check rows t.csv phase
	assert_output "warmup||||
training||||"
	run check rows t.csv counter
	assert_output "episode_return|||21.5|"
	run check rows t.csv mark
	assert_output "checkpoint||||"
	grep -q '^meta,[0-9]*,[0-9]*,,,workload,,,,,,,capi$' t.csv
	run check rows t.csv thread
	assert_line "capi-main||||"
	# Besides the program's thread, only the CPU sampler's.
	[ "${#lines[@]}" -eq 2 ] || fail "thread rows: ${lines[*]}"
	assert_line "rlprof-sampler||||"
	# In time: one range after the other, nested where pushed, inside the
	# phase that was current.
	run check tree t.csv
	assert_success
	assert_output "setup
inference
  nested
@checkpoint
async"
	check within t.csv setup warmup
	check within t.csv inference training
	check within t.csv async training
}

@test "C API: outside rlprof-record the calls do nothing and the program runs" {
	[ -x "$W" ] || fail "the workload was not built: no NVTX headers (make deps installs them)"
	# The capi workload exits 4 when rlprof_enabled() says it is not recorded.
	run env -u RLPROF_SPOOL_DIR "$W" capi
	assert_failure 4
	assert_output ""
	run ls -A
	assert_output ""
}

@test "pkg-config: a program built against the installed library records its operations" {
	dest=$BATS_TEST_TMPDIR/root
	rlkit_make \
		install-lib DESTDIR="$dest" PREFIX=/usr >/dev/null
	[ -f "$dest/usr/include/rlkit/prof/rlprof.h" ]
	cat > use.c <<'SRC'
#include <prof/rlprof.h>
#include <unistd.h>
int main(void)
{
	int i;

	rlprof_phase("training");
	for (i = 0; i < 3; i++) {
		rlprof_push("update");
		usleep(2000);	/* the work being recorded */
		rlprof_pop();
	}
	rlprof_counter("updates", 3);
	return 0;
}
SRC
	flags=$(PKG_CONFIG_SYSROOT_DIR="$dest" PKG_CONFIG_PATH="$dest/usr/lib/pkgconfig" \
		pkg-config --cflags --libs --static rlkit)
	run cc ${RLKIT_SANITIZE:+-fsanitize=$RLKIT_SANITIZE} -o use use.c $flags
	assert_success
	LD_LIBRARY_PATH="$dest/usr/lib" run rlprof-record -o t.csv -- ./use
	assert_success
	[ "$(check ms t.csv op update | wc -l)" -eq 3 ]
	run check rows t.csv counter
	assert_output "updates|||3|"
	run check rows t.csv phase
	assert_output "training||||"
}

@test "make install: the injection library and the Python module are installed and found" {
	[ -x "$W" ] || fail "the workload was not built: no NVTX headers (make deps installs them)"
	dest=$BATS_TEST_TMPDIR/root
	rlkit_make \
		install-bin install-lib install-data DESTDIR="$dest" PREFIX=/usr >/dev/null
	[ -x "$dest/usr/lib/rlkit/librlprof-inject.so" ]
	if [ -e "$RLKIT_BUILD/lib/rlkit/_rlprof_hook.so" ]; then
		[ -x "$dest/usr/lib/rlkit/_rlprof_hook.so" ] || fail "C hook not installed"
	fi
	[ -f "$dest/usr/share/rlkit/python/rlprof.py" ]
	[ -f "$dest/usr/share/rlkit/python/inject/sitecustomize.py" ]
	run "$dest/usr/bin/rlprof-record" -o t.csv -- "$W" busy-sleep 0 0 2
	assert_success
	refute_output --partial "no injection library"
	[ "$(grep -c '^op,' t.csv)" -eq 6 ]
}
