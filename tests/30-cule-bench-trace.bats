#!/usr/bin/env bats
# cule-bench trace: one CSV row per frame with the documented columns, on
# the project's own ROM (Catch).

load helpers

setup() {
	cd "$BATS_TEST_TMPDIR" || return 1
	ROM="$RLKIT_BUILD/share/roms/catch.bin"
	[ -f "$ROM" ] || fail "the build did not assemble $ROM"
}

@test "trace --frames: header and one row per frame with the documented columns" {
	run cule-bench trace --rom "$ROM" --frames 300 --seed 4
	assert_success
	assert_line --index 0 "frame,action,reward,terminal,lives,ram,screen_md5"
	[ "${#lines[@]}" -eq 301 ]
	echo "$output" | awk -F, 'NR > 1 {
		if (NF != 7) { print "fields: " NF; exit 1 }
		if ($1 != NR - 1) { print "frame " $1 " on line " NR; exit 1 }
		if ($2 !~ /^(0|3|4)$/) { print "action " $2 " not in the minimal set"; exit 1 }
		if ($4 !~ /^[01]$/) { print "terminal " $4; exit 1 }
		if ($6 !~ /^[0-9a-f]+$/ || length($6) != 256) { print "ram " $6; exit 1 }
		if ($7 !~ /^[0-9a-f]+$/ || length($7) != 32) { print "md5 " $7; exit 1 }
	}'
}

@test "trace --seed: the same seed gives the same trace, another seed another" {
	cule-bench trace --rom "$ROM" --frames 200 --seed 1 > a.csv
	cule-bench trace --rom "$ROM" --frames 200 --seed 1 > b.csv
	cule-bench trace --rom "$ROM" --frames 200 --seed 2 > c.csv
	cmp a.csv b.csv
	! cmp -s a.csv c.csv
}

@test "trace --actions: replays an action file of numbers and names" {
	printf '# warm-up\nNOOP\n3\n\nRIGHT\nleft\n4\n' > actions.txt
	run cule-bench trace --rom "$ROM" --actions actions.txt
	assert_success
	[ "${#lines[@]}" -eq 6 ]
	[ "$(echo "$output" | tail -n +2 | cut -d, -f2 | tr '\n' ' ')" = "0 3 3 4 4 " ]
}

@test "trace --actions: the actions of a trace reproduce it" {
	cule-bench trace --rom "$ROM" --frames 500 --seed 9 > a.csv
	tail -n +2 a.csv | cut -d, -f2 > actions.txt
	cule-bench trace --rom "$ROM" --actions actions.txt > b.csv
	cmp a.csv b.csv
}

@test "trace --actions: a bad action names the file and line, exit 1" {
	printf '0\n3\nJUMP\n' > bad.txt
	run --separate-stderr cule-bench trace --rom "$ROM" --actions bad.txt
	[ "$status" -eq 1 ]
	[[ $stderr == "cule-bench: error: 'bad.txt': line 3: bad action 'JUMP'"* ]]
	run cule-bench trace --rom "$ROM" --actions no-such-file
	[ "$status" -eq 1 ]
	assert_output --partial "cannot open 'no-such-file'"
	mkdir folder
	run --separate-stderr cule-bench trace --rom "$ROM" --actions folder
	[ "$status" -eq 1 ]
	[ "$stderr" = "cule-bench: error: cannot read 'folder': Is a directory" ]
}

@test "trace: rewards, lives and terminal follow Catch's RAM" {
	run cule-bench trace --rom "$ROM" --frames 3000 --seed 3
	assert_success
	echo "$output" | awk -F, 'function hex(s, d) { d = "0123456789abcdef"; return (index(d, substr(s, 1, 1)) - 1) * 16 + index(d, substr(s, 2, 1)) - 1 }
	NR > 1 {
		lives = hex(substr($6, 3, 2))
		over = substr($6, 5, 2) == "ff"
		if ($5 != (over ? 0 : lives)) { print "frame " $1 ": lives " $5 " RAM " lives; exit 1 }
		if ($4 != over) { print "frame " $1 ": terminal " $4; exit 1 }
		total += $3; if ($4 == 1) ends++
	} END { if (ends < 1) { print "no episode ended"; exit 1 } }'
}

@test "trace: needs exactly one of --frames and --actions, and frame skip 1" {
	run cule-bench trace --rom "$ROM"
	[ "$status" -eq 2 ]
	run cule-bench trace --rom "$ROM" --frames 5 --actions x
	[ "$status" -eq 2 ]
	run cule-bench trace --rom "$ROM" --frames 5 --frameskip 4
	[ "$status" -eq 2 ]
	assert_output --partial "frameskip 1"
}

@test "trace --output: written atomically, an existing file kept without --force" {
	echo keep > out.csv
	run cule-bench trace --rom "$ROM" --frames 10 -o out.csv
	[ "$status" -eq 1 ]
	[ "$(cat out.csv)" = keep ]
	run cule-bench trace --rom "$ROM" --frames 10 -o out.csv --force
	assert_success
	[ "$(wc -l < out.csv)" -eq 11 ]
}
