# Shared set-up for the Bats suites: load with `load helpers`.
#
# - Each test runs in its own temporary folder ($BATS_TEST_TMPDIR), which is
#   also the working directory, so tests never see each other's files.
# - LC_ALL=C, so messages and sorting do not depend on the user's locale.
# - Programs run from the build folder ($RLKIT_BUILD/bin, set by make check;
#   build/ by default), never from an installed copy.
# - bats-support and bats-assert are loaded (assert_success, assert_output,
#   assert_line, ...).

export LC_ALL=C
bats_require_minimum_version 1.5.0
TOP=$(cd "$BATS_TEST_DIRNAME/.." && pwd)
: "${RLKIT_BUILD:=$TOP/build}"
export RLKIT_BUILD TOP
export PATH="$RLKIT_BUILD/bin:$PATH"
DATA="$TOP/tests/data"

for lib in /usr/lib/bats/bats-support /usr/lib/bats/bats-assert; do
	load "$lib/load"
done

setup() {
	cd "$BATS_TEST_TMPDIR" || return 1
}

# The programs of the toolkit: one per cmd/<prog>.c.
programs() {
	local f
	for f in "$TOP"/cmd/*.c; do
		[ -e "$f" ] || continue
		f=${f##*/}
		echo "${f%.c}"
	done
}

# skip_unless_python MODULE...: skip the test with a message when a Python
# module is not importable.
skip_unless_python() {
	local m
	for m in "$@"; do
		python3 -c "import $m" 2>/dev/null ||
			skip "python module '$m' is not installed (make deps installs it)"
	done
}

# The usage lines of `prog --help`, without "usage:"/"or:", one per line.
help_synopsis() {
	"$1" --help | sed -n -e 's/^usage: //p' -e 's/^   or: //p'
}

# The SYNOPSIS section of a man page rendered as text, one usage per line.
man_synopsis() {
	MANWIDTH=1000 groff -mandoc -Tutf8 -P-cbou "$1" 2>/dev/null |
		awk '/^SYNOPSIS/ {on = 1; next} /^[A-Z]/ {on = 0} on' |
		sed -e 's/^ *//' -e 's/ *$//' -e '/^$/d' -e 's/[‐−]/-/g' | tr -s ' '
}

# wait_gone PATTERN SECONDS: succeed once no process whose command line
# matches PATTERN is left, within SECONDS; otherwise list them and fail.
wait_gone() {
	local i
	for ((i = 0; i < $2 * 10; i++)); do
		pgrep -f "$1" > /dev/null || return 0
		sleep 0.1
	done
	pgrep -af "$1" >&2
	return 1
}

# rlkit_make ARG...: make in the source tree on the build folder under test,
# with the variables that folder was built with ($RLKIT_BUILD/make-vars), so
# that its flags, and so its objects, stay as they are.
rlkit_make() {
	local vars=()
	if [ -f "$RLKIT_BUILD/make-vars" ]; then
		mapfile -t vars < "$RLKIT_BUILD/make-vars"
	else
		vars=(SANITIZE="${RLKIT_SANITIZE:-}")
	fi
	make -C "$TOP" --no-print-directory O="$RLKIT_BUILD" "${vars[@]}" "$@"
}
