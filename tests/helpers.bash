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
[ -e "$TOP/Makefile" ] || TOP=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)	# tests/train/
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

# ale_roms: the folder of the ROMs ale-py ships (ale_py/roms).
ale_roms() {
	python3 -c 'import ale_py, os; print(os.path.join(os.path.dirname(ale_py.__file__), "roms"))'
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

# Waiting for another process: never a fixed sleep, always the event (a
# file, a line, a pid), polled with a bound on the number of attempts; the
# bound only matters when the test is failing anyway.
WAIT_TRIES=${WAIT_TRIES:-600}	# of 0.05 s each: 30 s on a loaded machine

# wait_for COMMAND [ARG...]: run COMMAND until it succeeds; fail (naming
# it) after WAIT_TRIES attempts.
wait_for() {
	local i
	for ((i = 0; i < WAIT_TRIES; i++)); do
		"$@" && return 0
		sleep 0.05
	done
	echo "gave up waiting for: $*" >&2
	return 1
}

# wait_file FILE: FILE exists and is not empty.
wait_file() {
	wait_for test -s "$1"
}

# wait_lines FILE N: FILE has at least N lines.
wait_lines() {
	wait_for _has_lines "$1" "$2"
}
_has_lines() {
	[ -f "$1" ] && [ "$(wc -l < "$1")" -ge "$2" ]
}

# alive PID: the process exists and is not a zombie.
alive() {
	local state
	# The state follows the command name, which may hold spaces and ")".
	state=$(sed 's/.*) \([A-Za-z]\).*/\1/' "/proc/$1/stat" 2> /dev/null) || return 1
	[ -n "$state" ] && [ "$state" != Z ] && [ "$state" != X ]
}

# wait_gone PID...: every one of these processes has ended (or is a zombie
# its parent has not reaped yet); otherwise list those left and fail.
wait_gone() {
	wait_for _all_gone "$@" && return 0
	ps -o pid,stat,args -p "$*" >&2
	return 1
}
_all_gone() {
	local p
	for p in "$@"; do
		alive "$p" && return 1
	done
	return 0
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

# The configuration of the daemons that tests start (sshd, Slurm).
source "$TOP/tests/daemons.bash"
