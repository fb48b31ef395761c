#!/bin/sh
# Throughput of cule-bench against ale-py on the same games, side by side:
#
#   bench/cule-bench-vs-ale.sh [GAME...]     (default: pong breakout seaquest)
#
# For each game, N environments (ENVS, default 8) take STEPS steps each
# (default 500) with frame skip 4, sticky actions 0.25 and random actions
# from the minimal set: ale-py as a loop of ALEInterface objects in one
# process (one thread), cule-bench on 1 thread and on THREADS threads
# (default: all CPUs).  Prints CSV:
#
#   game,envs,steps,ale_fps,cule_fps_1thread,cule_fps,threads,ratio_1thread,ratio
#
# where the ratios are cule-bench's frames per second over ale-py's.
# Needs python3 with ale_py (the ROMs come from it) and cule-bench built
# (RLKIT_BUILD, default build/).
set -eu
cd "$(dirname "$0")/.."
: "${RLKIT_BUILD:=$PWD/build}"
ENVS=${ENVS:-8}
STEPS=${STEPS:-500}
THREADS=${THREADS:-$(nproc)}
BIN="$RLKIT_BUILD/bin/cule-bench"
ROMS=$(python3 -c 'import ale_py, os; print(os.path.join(os.path.dirname(ale_py.__file__), "roms"))') || {
	echo "cule-bench-vs-ale.sh: error: python module 'ale_py' is not installed" >&2
	exit 3
}
[ $# -gt 0 ] || set -- pong breakout seaquest
echo "game,envs,steps,ale_fps,cule_fps_1thread,cule_fps,threads,ratio_1thread,ratio"
for game in "$@"; do
	rom="$ROMS/$game.bin"
	ale_fps=$(python3 - "$rom" "$ENVS" "$STEPS" <<'PY'
import random, sys, time
import ale_py
ale_py.ALEInterface.setLoggerMode(ale_py.LoggerMode.Error)
rom, n, steps = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
envs = []
for i in range(n):
    a = ale_py.ALEInterface()
    a.setInt("random_seed", i)
    a.setInt("frame_skip", 4)
    a.setFloat("repeat_action_probability", 0.25)
    a.setInt("max_num_frames_per_episode", 108000)
    a.loadROM(rom)
    envs.append(a)
acts = envs[0].getMinimalActionSet()
r = random.Random(0)
start = [a.getFrameNumber() for a in envs]
t0 = time.perf_counter()
for _ in range(steps):
    for a in envs:
        a.act(r.choice(acts))
        if a.game_over():
            a.reset_game()
dt = time.perf_counter() - t0
frames = sum(a.getFrameNumber() - s for a, s in zip(envs, start))
print(round(frames / dt))
PY
)
	one=$("$BIN" --rom "$rom" --envs "$ENVS" --threads 1 --steps "$STEPS" -f csv | tail -1 | cut -d, -f11)
	all=$("$BIN" --rom "$rom" --envs "$ENVS" --threads "$THREADS" --steps "$STEPS" -f csv | tail -1)
	fps=$(echo "$all" | cut -d, -f11)
	threads=$(echo "$all" | cut -d, -f4)
	echo "$game,$ENVS,$STEPS,$ale_fps,$one,$fps,$threads,$(awk -v a="$one" -v b="$ale_fps" 'BEGIN { printf "%.2f", a / b }'),$(awk -v a="$fps" -v b="$ale_fps" 'BEGIN { printf "%.2f", a / b }')"
done
