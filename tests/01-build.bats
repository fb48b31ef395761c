#!/usr/bin/env bats
# The build's promises: make install puts everything in place under DESTDIR,
# the installed library works through pkg-config, make deps explains what
# is missing to a user who is not root.

load helpers

@test "make install DESTDIR: programs, library, headers, pkg-config, man pages, completions" {
	dest=$BATS_TEST_TMPDIR/root
	run make -C "$TOP" --no-print-directory O="$RLKIT_BUILD" SANITIZE="${RLKIT_SANITIZE:-}" \
		install DESTDIR="$dest" PREFIX=/usr
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
	run make -C "$TOP" --no-print-directory O="$RLKIT_BUILD" SANITIZE="${RLKIT_SANITIZE:-}" \
		uninstall DESTDIR="$dest" PREFIX=/usr
	assert_success
	run find "$dest" -type f
	assert_output ""
}

@test "pkg-config: a program builds against the installed library and runs" {
	dest=$BATS_TEST_TMPDIR/root
	make -C "$TOP" --no-print-directory O="$RLKIT_BUILD" SANITIZE="${RLKIT_SANITIZE:-}" \
		install-lib DESTDIR="$dest" PREFIX=/usr >/dev/null
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
}
