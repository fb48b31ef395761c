#!/usr/bin/env bats
# The build's promises: make install puts everything in place under DESTDIR,
# the installed library works through pkg-config, make deps explains what
# is missing to a user who is not root, and a machine without the CUDA
# toolkit gets the NVTX headers from pip and records the built-in workload.

load helpers

@test "make install DESTDIR: programs, library, headers, pkg-config, man pages, completions" {
	dest=$BATS_TEST_TMPDIR/root
	run rlkit_make install DESTDIR="$dest" PREFIX=/usr
	assert_success
	for f in lib/librlkit.a lib/librlkit.so lib/librlkit.so.0 lib/pkgconfig/rlkit.pc \
		include/rlkit/core/error.h include/rlkit/core/csv.h share/man/man7/rlkit.7; do
		[ -e "$dest/usr/$f" ] || fail "not installed: /usr/$f"
	done
	for p in $(programs); do
		[ -x "$dest/usr/bin/$p" ] || fail "program not installed: $p"
		[ -f "$dest/usr/share/man/man1/$p.1" ] || fail "man page not installed: $p"
		[ -f "$dest/usr/share/bash-completion/completions/$p" ] || fail "bash completion: $p"
		[ -f "$dest/usr/share/zsh/vendor-completions/_$p" ] || fail "zsh completion: $p"
	done
	run rlkit_make uninstall DESTDIR="$dest" PREFIX=/usr
	assert_success
	run find "$dest" -type f
	assert_output ""
}

@test "pkg-config: a program builds against the installed library and runs" {
	dest=$BATS_TEST_TMPDIR/root
	rlkit_make install-lib DESTDIR="$dest" PREFIX=/usr >/dev/null
	cat > use.c <<'SRC'
#include <errno.h>
#include <stdio.h>
#include <core/error.h>
int main(void)
{
	struct core_error err = CORE_ERROR_INIT;
	core_error_errno(&err, ENOENT, "cannot open '%s'", "x");
	puts(err.msg);
	return 0;
}
SRC
	flags=$(PKG_CONFIG_SYSROOT_DIR="$dest" PKG_CONFIG_PATH="$dest/usr/lib/pkgconfig" \
		pkg-config --cflags --libs --static rlkit)
	run cc ${RLKIT_SANITIZE:+-fsanitize=$RLKIT_SANITIZE} -o use use.c $flags
	assert_success
	LD_LIBRARY_PATH="$dest/usr/lib" run ./use
	assert_output "cannot open 'x': No such file or directory"
}

@test "make deps: as a normal user, missing packages give the exact command and exit 3" {
	[ "$(id -u)" = 0 ] || skip "needs root to switch to an unprivileged user"
	id nobody >/dev/null 2>&1 || skip "no 'nobody' user on this system"
	# The script goes through stdin: the checkout may not be readable by nobody.
	run su nobody -s /bin/sh -c "DEB_PACKAGES='bash rlkit-no-such-package' PIP_PACKAGES='' sh -s" < "$TOP/.ci/deps"
	[ "$status" -eq 3 ] || fail "exit status $status, not 3"
	assert_output --partial "apt-get install -y rlkit-no-such-package"
	refute_output --partial " bash"
	# Python packages: the command names the interpreter, by its full path.
	run su nobody -s /bin/sh -c "DEB_PACKAGES='' PIP_PACKAGES='rlkit-no-such-package' sh -s" < "$TOP/.ci/deps"
	[ "$status" -eq 3 ] || fail "exit status $status, not 3"
	assert_line --regexp '^  /.*python3?[.0-9]* -m pip install rlkit-no-such-package$'
}

@test "make deps: without the CUDA toolkit, NVTX and CUPTI come from pip and rlprof-record records the workload" {
	[ "$(id -u)" = 0 ] || skip "needs root: hides /usr/local/cuda with a tmpfs in a mount namespace"
	command -v unshare >/dev/null || skip "needs unshare (util-linux) to hide /usr/local/cuda"
	unshare -m true 2>/dev/null || skip "unshare -m is not permitted here (needs CAP_SYS_ADMIN)"
	# The PATH of this test without the folders that have nvcc, so that the
	# build neither finds nvcc nor guesses CUDA_HOME from it.
	path=
	IFS=: read -ra dirs <<< "$PATH"
	for d in "${dirs[@]}"; do
		[ -n "$d" ] && [ ! -x "$d/nvcc" ] && path=${path:+$path:}$d
	done
	o=$BATS_TEST_TMPDIR/build
	# A small build: the recorder, its injection library and the workload.
	cat > fresh.sh <<SCRIPT
set -e
if [ -e /usr/local/cuda ]; then mount -t tmpfs none /usr/local/cuda; fi
export PATH='$path'
unset CUDA_HOME MAKEFLAGS MAKELEVEL SANITIZE O
if command -v nvcc; then echo "nvcc is still on PATH" >&2; exit 1; fi
make -C '$TOP' --no-print-directory deps
make -C '$TOP' --no-print-directory O='$o' NO_CUDA=1 config > config.txt
make -C '$TOP' --no-print-directory -j2 O='$o' NO_CUDA=1 \
	'$o/bin/rlprof-record' '$o/lib/rlkit/librlprof-inject.so' '$o/workloads/rlprof-workload'
'$o/bin/rlprof-record' -o t.csv -- '$o/workloads/rlprof-workload' busy-sleep 0 0 3
SCRIPT
	run unshare -m sh fresh.sh
	[ "$status" -eq 0 ] || fail "$(printf '%s\n' "$output" | tail -30)"
	# deps names the interpreter it checked or installed for.
	python=$(python3 -c 'import sys; print(sys.executable)')
	assert_output --partial "$python"
	run cat config.txt
	refute_line --partial "/usr/local/cuda"
	if [ ! -e /usr/include/nvtx3/nvToolsExt.h ]; then
		assert_line --regexp '^  NVTX .*/nvidia/nvtx/include$'
	fi
	assert_line --regexp '^  CUPTI .*/nvidia/cuda_cupti/lib/libcupti\.so\.[0-9]+$'
	run python3 "$TOP/tests/workloads/trace-check.py" rows t.csv op
	# In time order: each step before the ranges it holds.
	assert_output "step|||0|
busy|||1|
sleep|||1|
step|||0|
busy|||1|
sleep|||1|
step|||0|
busy|||1|
sleep|||1|"
}

@test "make: as many jobs as CPUs unless -j is given; the fuzzers are left to their test" {
	MAKEFLAGS= run make -C "$TOP" --no-print-directory O="$BATS_TEST_TMPDIR/b" config
	assert_success
	assert_line --partial "jobs at once: $(nproc)"
	MAKEFLAGS= run make -C "$TOP" --no-print-directory -j1 O="$BATS_TEST_TMPDIR/b" config
	assert_line --partial "jobs at once: 1"
	# What a first build would run, without running it.
	MAKEFLAGS= run make -C "$TOP" --no-print-directory -n O="$BATS_TEST_TMPDIR/b"
	assert_success
	assert_output --partial "/bin/rlprof-record"
	refute_output --partial "/fuzz/"
	if [ -n "$(make -C "$TOP" --no-print-directory -s O="$BATS_TEST_TMPDIR/b" config | grep '^  nvcc *\/')" ]; then
		# The long nvcc step says what it compiles and about how long it takes.
		assert_output --regexp "NVCC .*rlkit-atari-cuda\.so: .* \(about [0-9]+ minutes"
	fi
}

@test "make O=: however the build folder is spelt, make sees one folder (so its dependency files match)" {
	# Dependency files name their targets under the spelling of O that
	# wrote them: another spelling of the same folder would miss them, and
	# a changed header would not rebuild what includes it.
	local o first=
	for o in "$RLKIT_BUILD" "$RLKIT_BUILD/" "$(realpath --relative-to="$TOP" "$RLKIT_BUILD")"; do
		MAKEFLAGS= run make -C "$TOP" --no-print-directory O="$o" config
		assert_success
		assert_line --partial "building into "
		[ -n "$first" ] || first=$output
		[ "$output" = "$first" ] || fail "O=$o: $(head -1 <<< "$output"), not $(head -1 <<< "$first")"
	done
}
