#!/usr/bin/env bats
# cule-bench run: the throughput benchmark on CPU threads, its output
# formats, and the CUDA backend's behaviour without a GPU.

load helpers

setup() {
	cd "$BATS_TEST_TMPDIR" || return 1
	ROM="$RLKIT_BUILD/share/roms/catch.bin"
	[ -f "$ROM" ] || fail "the build did not assemble $ROM"
}

@test "run --format csv: documented columns, steps and frames add up" {
	run cule-bench --rom "$ROM" --envs 6 --threads 2 --steps 50 --frameskip 4 --sticky 0 -f csv
	assert_success
	assert_line --index 0 "game,backend,envs,threads,frameskip,steps,frames,episodes,reward,seconds,fps,state_bytes,env_bytes"
	IFS=, read -r game backend envs threads skip steps frames episodes reward seconds fps state env <<< "${lines[1]}"
	[ "$game" = catch ] && [ "$backend" = cpu ] && [ "$envs" = 6 ] && [ "$threads" = 2 ]
	[ "$steps" -eq 300 ] || fail "steps $steps"
	# Every step emulates 4 frames, except steps after an episode's end.
	[ "$frames" -le 1200 ] && [ "$frames" -gt 1000 ] || fail "frames $frames"
	[[ $fps =~ ^[0-9]+$ ]] || fail "fps $fps"
	# Without observations an environment is its state alone.
	[[ $state =~ ^[0-9]+$ ]] && [ "$state" -gt 1000 ] && [ "$env" = "$state" ] ||
		fail "state_bytes $state, env_bytes $env"
	[[ $reward =~ ^[0-9]+$ ]] && [[ $seconds =~ ^[0-9]+\.[0-9]{3}$ ]] || fail "reward $reward, seconds $seconds"
}

@test "run --obs gray --resize: env_bytes adds two frame buffers and the observation" {
	run cule-bench --rom "$ROM" --envs 2 --threads 1 --steps 5 --obs gray --resize -f csv
	assert_success
	IFS=, read -r _ _ _ _ _ _ _ _ _ _ _ state env <<< "${lines[1]}"
	[ "$env" -eq $((state + 2 * 160 * 320 + 84 * 84)) ] || fail "state_bytes $state, env_bytes $env"
}

@test "run --obs: observations have the game's screen height, as ALE's getScreenDims" {
	skip_unless_python ale_py
	roms=$(ale_roms)
	# Pong 210 rows, Carnival 214, Pooyan 220, Journey Escape 230, Air Raid
	# 250 (PAL); 84x84 whatever the height.
	for spec in pong:210 carnival:214 pooyan:220 journey_escape:230 air_raid:250; do
		game=${spec%:*} rows=${spec#*:}
		for obs in index:1 gray:1 rgb:3; do
			run cule-bench --rom "$roms/$game.bin" --envs 2 --threads 1 --steps 3 \
				--obs "${obs%:*}" -f csv
			assert_success
			IFS=, read -r _ _ _ _ _ _ _ _ _ _ _ state env <<< "${lines[1]}"
			[ "$env" -eq $((state + 2 * 160 * 320 + rows * 160 * ${obs#*:})) ] ||
				fail "$game --obs ${obs%:*}: state_bytes $state, env_bytes $env"
		done
		run cule-bench --rom "$roms/$game.bin" --envs 1 --steps 3 --obs rgb --resize -f csv
		assert_success
		IFS=, read -r _ _ _ _ _ _ _ _ _ _ _ state env <<< "${lines[1]}"
		[ "$env" -eq $((state + 2 * 160 * 320 + 84 * 84 * 3)) ] || fail "$game --resize: env_bytes $env"
	done
}

@test "run --threads: results do not depend on the number of threads" {
	a=$(cule-bench --rom "$ROM" --envs 5 --threads 1 --steps 300 -f csv | tail -1 | cut -d, -f6-9)
	b=$(cule-bench --rom "$ROM" --envs 5 --threads 3 --steps 300 -f csv | tail -1 | cut -d, -f6-9)
	[ "$a" = "$b" ] || fail "1 thread: $a, 3 threads: $b"
}

@test "run --format json: one object with numbers" {
	run cule-bench run --rom "$ROM" --envs 2 --steps 20 -f json
	assert_success
	python3 -c 'import json, sys
o = json.loads(sys.argv[1])
assert o["game"] == "catch" and o["envs"] == 2 and o["steps"] == 40, o
assert isinstance(o["fps"], (int, float)) and isinstance(o["seconds"], float), o' "$output"
}

@test "run --obs: observations with --maxpool and --resize run" {
	run cule-bench --rom "$ROM" --envs 2 --steps 30 --obs rgb --maxpool --resize -f csv
	assert_success
	run cule-bench --rom "$ROM" --envs 2 --steps 30 --obs gray --noop-max 5 --episodic-life -f csv
	assert_success
	run cule-bench --rom "$ROM" --obs color
	[ "$status" -eq 2 ]
}

@test "run --backend cuda: without a GPU, exit 3 with a one-line reason" {
	run --separate-stderr cule-bench --rom "$ROM" --backend cuda --envs 4 --steps 5
	if [ "$status" -eq 0 ]; then
		skip "a CUDA GPU is present: the GPU run succeeded"
	fi
	[ "$status" -eq 3 ] || fail "exit status $status: $stderr"
	[[ $stderr == "cule-bench: error: CUDA backend unavailable: "* ||
	   $stderr == "cule-bench: error: "*"GPU"* ]] || fail "stderr: $stderr"
	[ "$(printf '%s\n' "$stderr" | wc -l)" -eq 1 ]
}

@test "run: usage errors exit 2" {
	run cule-bench --envs 4
	[ "$status" -eq 2 ]
	assert_output --partial "needs --rom FILE"
	run cule-bench --rom "$ROM" --envs 0
	[ "$status" -eq 2 ]
	run cule-bench --rom "$ROM" --sticky 1.5
	[ "$status" -eq 2 ]
	run cule-bench frobnicate --rom "$ROM"
	[ "$status" -eq 2 ]
	assert_output --partial "unknown command 'frobnicate'"
}

@test "commands: an option of another command is a usage error; a command's --help lists its own" {
	run --separate-stderr cule-bench games --steps 5
	[ "$status" -eq 2 ]
	[ "${stderr_lines[0]}" = "cule-bench: error: 'games' does not take option '--steps'" ]
	run --separate-stderr cule-bench --rom "$ROM" --frames 5
	[ "$status" -eq 2 ]
	[ "${stderr_lines[0]}" = "cule-bench: error: 'run' does not take option '--frames'" ]
	run --separate-stderr cule-bench trace --rom "$ROM" --frames 2 -f json
	[ "$status" -eq 2 ]
	run cule-bench info --help
	assert_success
	assert_output --partial "--cart TYPE"
	refute_output --partial "--envs"
	refute_output --partial "--steps"
	run cule-bench --help
	assert_output --partial "--envs"
	assert_output --partial "--frames"
}

@test "tests/gpu/run, dry (no GPU): CPU and stand-in rows the same, the sweep measured, the profiler's part failed" {
	skip_unless_python ale_py gymnasium
	[ -f "$RLKIT_BUILD/share/rlkit/python/rlkit/_atari.so" ] || skip "no rlkit.atari extension (no Python headers)"
	RLKIT_GPU_DRY=1 RLKIT_GPU_ENVS=8 RLKIT_GPU_STEPS=20 RLKIT_GPU_SIZES=16 OUT=$PWD run sh "$TOP/tests/gpu/run"
	assert_failure 1	# the profiler's checks need a driver
	[ "$(grep -c '^cpu-vs-cuda,.*,same$' gpu-cule-bench.csv)" -eq 6 ]
	[ "$(grep -c '^cuda-fps,.*,measured$' gpu-cule-bench.csv)" -eq 2 ]
	[ "$(grep -c '^python-cpu-vs-cuda,.*,same$' gpu-cule-bench.csv)" -eq 2 ]
	refute_output --partial DIFFERENT
	assert_line --partial "record-rlprof-kernels,exit 0,"
}
