# Parity with ALE, shared by tests/31-cule-bench-parity.bats (a slice of
# the games, in make check) and tests/parity/all-games.bats (every game, in
# make check-parity): for each game, 3,000 frames of random actions from the
# minimal action set, traced by cule-bench and by ale-py
# (share/ale-trace.py), must agree on every column of every frame, with ALE
# driven two ways: as loadROM leaves it (no sticky actions), and as
# Gymnasium drives it (reset_game after loadROM, sticky actions with
# probability 0.25 from ALE's own generator and seed).
#
# The slice: about one game in PARITY_SLICES, a different slice for each
# commit (the commit hash modulo PARITY_SLICES, or RLKIT_PARITY_SLICE);
# RLKIT_PARITY=all means every game.

FRAMES=3000
PARITY_SLICES=8

# The games compared: the per-game tests of tests/parity/all-games.bats.
parity_games() {
	sed -n 's/.*{ compare_with_ale \([a-z0-9_]*\); }.*/\1/p' "$TOP/tests/parity/all-games.bats"
}

# The slice of games this run compares (all: -1).
parity_slice() {
	local head
	if [ "${RLKIT_PARITY:-}" = all ]; then
		echo -1
	elif [ -n "${RLKIT_PARITY_SLICE:-}" ]; then
		echo $((RLKIT_PARITY_SLICE % PARITY_SLICES))
	else
		head=$(git -C "$TOP" rev-parse --short=7 HEAD 2>/dev/null) || head=0
		echo $((16#$head % PARITY_SLICES))
	fi
}

# in_slice GAME: the game is compared in this run (its place in the sorted
# list of games, modulo PARITY_SLICES, is the slice).
in_slice() {
	local slice i
	slice=$(parity_slice)
	[ "$slice" -lt 0 ] && return 0
	i=$(parity_games | sort | grep -n -x "$1" | cut -d: -f1)
	[ $(((i - 1) % PARITY_SLICES)) -eq "$slice" ]
}

# All the games of this run, traced by cule-bench (one process per game and
# driving) and by ALE (one Python process per driving, to spare start-up).
parity_setup_file() {
	local roms games g
	python3 -c 'import ale_py' 2>/dev/null || return 0
	roms=$(ale_roms)
	games=$(parity_games)
	: > "$BATS_FILE_TMPDIR/batch.load"
	: > "$BATS_FILE_TMPDIR/batch.gym"
	for g in $games; do
		[ -f "$roms/$g.bin" ] || continue
		in_slice "$g" || continue
		# A failure here is reported by the game's own test.
		cule-bench trace --rom "$roms/$g.bin" --game "$g" --frames "$FRAMES" --seed 7 \
			> "$BATS_FILE_TMPDIR/$g.load.ours" 2> "$BATS_FILE_TMPDIR/$g.err" || continue
		cule-bench trace --rom "$roms/$g.bin" --game "$g" --frames "$FRAMES" --seed 7 \
			--reset --sticky 0.25 > "$BATS_FILE_TMPDIR/$g.gym.ours" 2>> "$BATS_FILE_TMPDIR/$g.err" ||
			continue
		tail -n +2 "$BATS_FILE_TMPDIR/$g.load.ours" | cut -d, -f2 > "$BATS_FILE_TMPDIR/$g.actions"
		printf '%s\t%s\t%s\n' "$roms/$g.bin" "$BATS_FILE_TMPDIR/$g.actions" \
			"$BATS_FILE_TMPDIR/$g.load.ale" >> "$BATS_FILE_TMPDIR/batch.load"
		printf '%s\t%s\t%s\n' "$roms/$g.bin" "$BATS_FILE_TMPDIR/$g.actions" \
			"$BATS_FILE_TMPDIR/$g.gym.ale" >> "$BATS_FILE_TMPDIR/batch.gym"
	done
	python3 "$TOP/share/ale-trace.py" --batch "$BATS_FILE_TMPDIR/batch.load" --seed 7 || true
	python3 "$TOP/share/ale-trace.py" --batch "$BATS_FILE_TMPDIR/batch.gym" --seed 7 \
		--reset --sticky 0.25 || true
}

# compare_traces OURS ALE WHAT: name the first differing frame and column.
compare_traces() {
	local ours=$1 ale=$2 what=$3
	[ -f "$ale" ] || fail "ale-trace.py wrote no trace ($what)"
	[ "$(wc -l < "$ale")" -eq $((FRAMES + 1)) ] || fail "ale-trace.py wrote $(wc -l < "$ale") lines ($what)"
	[ "$(wc -l < "$ours")" -eq $((FRAMES + 1)) ] || fail "cule-bench wrote $(wc -l < "$ours") lines ($what)"
	if ! cmp -s "$ours" "$ale"; then
		paste -d'\n' "$ours" "$ale" | awk -F, '
			NR % 2 == 1 { split($0, a, ","); next }
			{ n = split($0, b, ",")
			  split("frame,action,reward,terminal,lives,ram,screen_md5", col, ",")
			  for (i = 1; i <= n; i++) if (a[i] != b[i]) {
				print "first difference: frame " b[1] ", column " col[i] ": ours " a[i] ", ALE " b[i]
				exit } }'
		fail "differs from ALE ($what)"
	fi
}

# compare_with_ale GAME: both drivings of the game agree with ALE.
compare_with_ale() {
	local game=$1 t="$BATS_FILE_TMPDIR/$1"
	skip_unless_python ale_py
	[ -f "$t.load.ours" ] || [ -s "$t.err" ] || skip "ale-py has no ROM $game.bin"
	[ ! -s "$t.err" ] || fail "cule-bench: $(cat "$t.err")"
	compare_traces "$t.load.ours" "$t.load.ale" "as loadROM leaves ALE"
	compare_traces "$t.gym.ours" "$t.gym.ale" "reset after loading, sticky actions 0.25"
}


# ---- Multi-agent ALE ----
# Combat, Joust, Maze Craze and Warlords have multi-agent ALE
# (multi-agent-ale-py) as their reference, which CI lacks: their traces are
# committed in compact form (tests/parity/multi-agent.py: action, reward,
# terminal, lives and a chained hash of RAM and screen per frame), one file
# per case of tests/parity/multi-agent/cases.  make check replays them
# (tests/35-cule-bench-multi-agent.bats); make check-parity also traces
# multi-agent ALE live (tests/parity/all-games.bats).

MA_DIR="$TOP/tests/parity/multi-agent"

# ma_cases GAME: the names of the game's cases.
ma_cases() {
	awk -v g="$1" '!/^#/ && NF && $2 == g { print $1 }' "$MA_DIR/cases"
}

# ma_ours CASE REF OUT: cule-bench's compact trace of CASE, with the actions
# of the compact trace REF (gzip-compressed), into OUT.
ma_ours() {
	local case=$1 ref=$2 out=$3 roms game seed frames opts
	read -r game seed frames opts < <(awk -v c="$case" '!/^#/ && $1 == c { $1 = ""; print }' \
		"$MA_DIR/cases") || true
	[ -n "$game" ] || fail "no case '$case' in $MA_DIR/cases"
	roms=$(ale_roms)
	[ -f "$roms/$game.bin" ] || skip "ale-py has no ROM $game.bin"
	gzip -dc "$ref" | tail -n +2 | cut -d, -f1 > "$out.actions" || fail "cannot read '$ref'"
	# shellcheck disable=SC2086  # the case's options are words
	cule-bench trace --rom "$roms/$game.bin" --game "$game" --actions "$out.actions" \
		--seed "$seed" $opts > "$out.full" || fail "cule-bench failed ($case)"
	[ "$(wc -l < "$out.full")" -eq $((frames + 1)) ] ||
		fail "cule-bench wrote $(wc -l < "$out.full") lines ($case)"
	python3 "$TOP/tests/parity/multi-agent.py" compact < "$out.full" > "$out" ||
		fail "cannot compact the trace ($case)"
}

# compare_compact OURS REF WHAT: the compact traces OURS and REF (gzip) are
# the same; otherwise name the first differing frame and column.
compare_compact() {
	local ours=$1 ref=$2 what=$3
	if ! gzip -dc "$ref" | cmp -s "$ours" -; then
		gzip -dc "$ref" | paste -d'\n' "$ours" - | awk -F, '
			NR % 2 == 1 { a = $0; next }
			{ split(a, x, ","); split($0, y, ","); f = NR / 2 - 1
			  split("action,reward,terminal,lives,state", col, ",")
			  for (i = 1; i <= 5; i++) if (x[i] != y[i]) {
				if (i == 5)
					print "first difference: RAM or screen, in frames " same + 1 "-" f
				else
					print "first difference: frame " f ", column " col[i] ": ours " x[i] \
						", reference " y[i]
				exit }
			  if (y[5] != "") same = f }'
		fail "differs from multi-agent ALE ($what)"
	fi
}

# compare_with_committed GAME: every case of GAME equals its committed trace.
compare_with_committed() {
	local game=$1 c n=0
	skip_unless_python ale_py
	for c in $(ma_cases "$game"); do
		[ -f "$MA_DIR/$c.csv.gz" ] || fail "no committed trace $c.csv.gz"
		ma_ours "$c" "$MA_DIR/$c.csv.gz" "$BATS_TEST_TMPDIR/$c"
		compare_compact "$BATS_TEST_TMPDIR/$c" "$MA_DIR/$c.csv.gz" "case $c"
		n=$((n + 1))
	done
	[ "$n" -gt 0 ] || fail "no case of $game in $MA_DIR/cases"
}

# compare_with_multi_agent GAME: every case of GAME traced live by
# multi-agent ALE equals cule-bench's, and the committed trace.
compare_with_multi_agent() {
	local game=$1 c live=$BATS_TEST_TMPDIR/live
	skip_unless_python ale_py multi_agent_ale_py
	mkdir -p "$live"
	# shellcheck disable=SC2046  # the names are words
	python3 "$TOP/tests/parity/multi-agent.py" write --cule-bench "$(command -v cule-bench)" \
		-o "$live" $(ma_cases "$game") || fail "multi-agent.py write failed"
	for c in $(ma_cases "$game"); do
		ma_ours "$c" "$live/$c.csv.gz" "$BATS_TEST_TMPDIR/$c"
		compare_compact "$BATS_TEST_TMPDIR/$c" "$live/$c.csv.gz" "case $c, live"
		gzip -dc "$live/$c.csv.gz" | cmp -s - <(gzip -dc "$MA_DIR/$c.csv.gz") ||
			fail "the committed trace $c.csv.gz is not multi-agent ALE's of today (tests/parity/multi-agent.py write)"
	done
}
