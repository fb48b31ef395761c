#!/usr/bin/env bats
# cule-bench info and games, and bad ROMs: truncated, oversized, unknown,
# unsupported cartridge types, the wrong game for --game, random bytes.

load helpers

setup() {
	cd "$BATS_TEST_TMPDIR" || return 1
	ROM="$RLKIT_BUILD/share/roms/catch.bin"
	[ -f "$ROM" ] || fail "the build did not assemble $ROM"
}

@test "info: size, MD5, cartridge type, game and state size of a ROM" {
	run cule-bench info -f csv "$ROM"
	assert_success
	assert_line --index 0 "file,bytes,md5,cart,game,controller,state_bytes,env_bytes,parity,reference"
	IFS=, read -r file bytes md5 cart game ctrl state env parity ref <<< "${lines[1]}"
	[ "$bytes" = 4096 ] && [ "$cart" = 4K ] && [ "$game" = catch ] && [ "$ctrl" = joystick ]
	[ "$md5" = "$(md5sum < "$ROM" | cut -c1-32)" ]
	[ "$state" -lt 4096 ] && [ "$env" -ge "$state" ]
	[ "$parity" = n/a ] && [ "$ref" = none ]
}

@test "info: an unknown ROM is plain emulation" {
	cp "$ROM" other.bin
	printf '\x01' | dd of=other.bin bs=1 seek=100 conv=notrunc 2>/dev/null
	run cule-bench info -f csv other.bin
	assert_success
	[[ ${lines[1]} == *",4K,unknown,joystick,"* ]]
	run cule-bench --rom other.bin --envs 2 --steps 50 -f csv
	assert_success
}

@test "games: every game has a name, a title, an MD5, parity status and its reference" {
	run cule-bench games -f csv
	assert_success
	assert_line --index 0 "game,title,md5,cart,controller,parity,modes,difficulties,reference"
	[ "${#lines[@]}" -ge 17 ]
	echo "$output" | awk -F, 'NR > 1 && (length($3) != 32 || $6 !~ /^(yes|no|n\/a)$/ ||
		$7 !~ /^[0-9]+( [0-9]+)*$/ || $8 !~ /^[0-3]( [0-3])*$/ ||
		$9 !~ /^(ale-py|multi-agent-ale-py|none)$/ || ($6 == "n/a") != ($9 == "none")) { print; exit 1 }'
	[ "$(echo "$output" | awk -F, '$6 == "yes"' | wc -l)" -ge 80 ]
}

@test "--rom: truncated, empty and oversized images exit 1 with the reason" {
	head -c 3000 "$ROM" > short.bin
	run --separate-stderr cule-bench info short.bin
	[ "$status" -eq 1 ]
	[[ $stderr == "cule-bench: error: 'short.bin': unrecognized ROM image: 3000 bytes"* ]]
	: > empty.bin
	run --separate-stderr cule-bench info empty.bin
	[ "$status" -eq 1 ]
	[[ $stderr == *"empty ROM image"* ]]
	head -c 600000 /dev/zero > big.bin
	run --separate-stderr cule-bench --rom big.bin
	[ "$status" -eq 1 ]
	[[ $stderr == *"too large"* ]]
	run cule-bench info no-such.bin
	[ "$status" -eq 1 ]
	assert_output --partial "cannot open 'no-such.bin'"
}

@test "--rom: an unsupported cartridge type exits 1 and names it" {
	head -c 12288 /dev/zero > fasc-like.bin
	run --separate-stderr cule-bench info fasc-like.bin
	[ "$status" -eq 1 ]
	[[ $stderr == *"unsupported cartridge type FASC"* ]]
}

@test "--game: a ROM of another game exits 1" {
	run --separate-stderr cule-bench trace --rom "$ROM" --game pong --frames 5
	[ "$status" -eq 1 ]
	[[ $stderr == "cule-bench: error: '$ROM' is not the ROM of game 'pong'"* ]]
	run cule-bench trace --rom "$ROM" --game no-such-game --frames 5
	[ "$status" -eq 2 ]
}

@test "--cart: a forced type must fit the image" {
	run --separate-stderr cule-bench info --cart F8 "$ROM"
	[ "$status" -eq 1 ]
	[[ $stderr == *"a F8 cartridge cannot hold 4096 bytes"* ]]
	run cule-bench info --cart XYZ "$ROM"
	[ "$status" -eq 2 ]
}

@test "--rom: random bytes run thousands of frames without a crash" {
	for size in 2048 4096 8192 16384 32768; do
		head -c $size /dev/urandom > r.bin
		run cule-bench --rom r.bin --envs 2 --steps 400 --frameskip 4 --obs index -f csv
		[ "$status" -eq 0 ] || [ "$status" -eq 1 ] || fail "size $size: status $status: $output"
	done
}

@test "info --format csv: a file name with a comma, a quote and a newline is one quoted field" {
	name=$'a,b "c"\nd.bin'
	cp "$ROM" "$name"
	cule-bench info -f csv "$name" > out.csv
	python3 - out.csv "$name" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline="")))
assert len(rows) == 2 and len(rows[1]) == len(rows[0]) == 10, rows
assert rows[1][0] == sys.argv[2] and rows[1][4] == "catch", rows
PY
}

@test "info --format json: one object; table: sizes in readable units" {
	run cule-bench info -f json "$ROM"
	assert_success
	python3 -c '
import json, sys
o = json.loads(sys.argv[1])
assert o["bytes"] == 4096 and o["game"] == "catch" and isinstance(o["state_bytes"], int), o' "$output"
	run cule-bench info -f table "$ROM"
	assert_success
	assert_line --index 0 --regexp '^file +bytes +md5 +cart +game +controller +state_bytes +env_bytes +parity +reference$'
	assert_line --index 1 --regexp ' 4\.00 KiB  [0-9a-f]{32}  4K +catch +joystick +[0-9.]+ KiB +[0-9.]+ KiB +n/a +none$'
}

@test "games --format json: one array; jsonl: one object per line, as many as CSV rows" {
	run cule-bench games -f json
	assert_success
	[ "${#lines[@]}" -eq 1 ]
	n=$(cule-bench games -f csv | tail -n +2 | wc -l)
	python3 -c '
import json, sys
a = json.loads(sys.argv[1])
assert isinstance(a, list) and len(a) == int(sys.argv[2]), len(a)
assert all(list(o) == ["game", "title", "md5", "cart", "controller", "parity", "modes",
                      "difficulties", "reference"] for o in a)' "$output" "$n"
	run cule-bench games -f jsonl
	assert_success
	[ "${#lines[@]}" -eq "$n" ]
	for l in "${lines[@]}"; do python3 -c 'import json, sys; json.loads(sys.argv[1])' "$l"; done
}

@test "subcommands: each has its own --help; an unknown one is a usage error" {
	run cule-bench info --help
	assert_success
	assert_line --index 0 "usage: cule-bench info [--format FORMAT] ROM"
	assert_line --index 1 --partial "info: describe a ROM"
	run cule-bench games -h
	assert_success
	assert_line --index 0 "usage: cule-bench games [--format FORMAT]"
	run cule-bench run --help
	assert_line --index 0 "usage: cule-bench [run] --rom FILE [options]"
	run cule-bench --help
	assert_line "Commands:"
	assert_line --regexp '^  trace +print RAM, reward and screen MD5 after every frame'
	run --separate-stderr cule-bench frobnicate
	[ "$status" -eq 2 ]
	[ "${stderr_lines[0]}" = "cule-bench: error: unknown command 'frobnicate'" ]
	run --separate-stderr cule-bench info
	[ "$status" -eq 2 ]
	[ "${stderr_lines[0]}" = "cule-bench: error: info takes one ROM" ]
	[ "${stderr_lines[1]}" = "usage: cule-bench info [--format FORMAT] ROM" ]
}
