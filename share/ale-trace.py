#!/usr/bin/env python3
"""Write the frame-by-frame trace of ALE (ale-py) for a ROM and an action list.

The CSV has the columns of `cule-bench trace`:
    frame,action,reward,terminal,lives,ram,screen_md5
one row after every frame, with frame skip 1 and by default no sticky
actions; after a terminal row the next action starts a new episode (ALE's
reset_game).  With --reset (implied by --mode and --difficulty), ALE is
driven as Gymnasium drives it: loadROM, setMode, setDifficulty, then
reset_game before the first step.

usage: ale-trace.py --rom FILE --actions FILE [options] [-o FILE]
   or: ale-trace.py --batch FILE [options]

--batch traces several ROMs in one process: FILE has one line per trace,
"ROM ACTIONS OUTPUT" separated by tabs.

--multi-agent traces with the multi-agent ALE (the Python package
multi-agent-ale-py, PettingZoo's emulator) instead, the reference of the
two-player games ale-py refuses (Combat, Joust, Maze Craze, Warlords): the
actions are player A's, every other player of the mode is given NOOP, and
the reward and lives are player A's.  Its random_seed 0 means a seed from
the clock, so give another.

Exit status: 0 success, 1 bad input, 3 ale-py (or multi-agent-ale-py) is
not installed.
"""
import argparse
import hashlib
import sys


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rom", help="ROM image")
    p.add_argument("--actions", help="one ALE action number or name per line")
    p.add_argument("--batch", help="traces to write: lines of ROM, ACTIONS, OUTPUT (tabs)")
    p.add_argument("--seed", type=int, default=0, help="ALE random_seed (default 0)")
    p.add_argument("--max-frames", type=int, default=108000,
                   help="frames per episode before truncation, 0 for none (default 108000)")
    p.add_argument("--sticky", type=float, default=0.0,
                   help="repeat_action_probability (default 0)")
    p.add_argument("--reset", action="store_true",
                   help="reset_game after loadROM, as Gymnasium does")
    p.add_argument("--mode", type=int, help="game mode (setMode; implies --reset)")
    p.add_argument("--difficulty", type=int, help="difficulty (setDifficulty; implies --reset)")
    p.add_argument("--multi-agent", action="store_true",
                   help="trace with multi-agent ALE (multi-agent-ale-py), player A")
    p.add_argument("-o", "--output", default="-", help="output file (default: standard output)")
    args = p.parse_args()
    if not args.batch and not (args.rom and args.actions):
        p.error("needs --rom and --actions, or --batch")
    module = "multi_agent_ale_py" if args.multi_agent else "ale_py"
    try:
        ale_py = __import__(module)
    except ImportError:
        print(f"ale-trace.py: error: python module '{module}' is not installed", file=sys.stderr)
        return 3
    if not args.batch:
        return trace(ale_py, args.rom, args.actions, args.output, args)
    try:
        with open(args.batch) as f:
            jobs = [line.rstrip("\n").split("\t") for line in f if line.strip()]
    except OSError as e:
        print(f"ale-trace.py: error: cannot open '{args.batch}': {e.strerror}", file=sys.stderr)
        return 1
    for job in jobs:
        if len(job) != 3:
            print(f"ale-trace.py: error: '{args.batch}': bad line {job}", file=sys.stderr)
            return 1
        ret = trace(ale_py, job[0], job[1], job[2], args)
        if ret:
            return ret
    return 0


ACTION_NAMES = ("NOOP", "FIRE", "UP", "RIGHT", "LEFT", "DOWN", "UPRIGHT", "UPLEFT",
                "DOWNRIGHT", "DOWNLEFT", "UPFIRE", "RIGHTFIRE", "LEFTFIRE", "DOWNFIRE",
                "UPRIGHTFIRE", "UPLEFTFIRE", "DOWNRIGHTFIRE", "DOWNLEFTFIRE")


class MultiAgent:
    """multi-agent ALE driven by player A, the other players idle: the
    interface of ale-py's ALEInterface that trace() uses."""

    def __init__(self, module):
        module.ALEInterface.setLoggerMode(module.ALEInterface.Logger.Error)
        self.ale = module.ALEInterface()

    def __getattr__(self, name):
        return getattr(self.ale, name)

    def act(self, a):
        actions = [a] + [0] * (self.ale.numPlayersActive() - 1)
        return int(self.ale.act(actions)[0])

    def lives(self):
        return int(self.ale.allLives()[0])


def trace(ale_py, rom, actions_file, output, args):
    """Trace ROM with the actions of actions_file into output ("-": stdout)."""
    names = {name: a for a, name in enumerate(ACTION_NAMES)}
    actions = []
    try:
        with open(actions_file) as f:
            for lineno, line in enumerate(f, 1):
                s = line.strip()
                if not s or s.startswith("#"):
                    continue
                a = names.get(s.upper(), None)
                if a is None:
                    try:
                        a = int(s)
                    except ValueError:
                        a = -1
                if not 0 <= a < 18:
                    print(f"ale-trace.py: error: '{actions_file}': line {lineno}: bad action '{s}'",
                          file=sys.stderr)
                    return 1
                actions.append(a)
    except OSError as e:
        print(f"ale-trace.py: error: cannot open '{actions_file}': {e.strerror}", file=sys.stderr)
        return 1
    if args.multi_agent:
        ale = MultiAgent(ale_py)
        all_actions = list(range(18))
    else:
        ale_py.ALEInterface.setLoggerMode(ale_py.LoggerMode.Error)
        ale = ale_py.ALEInterface()
        all_actions = list(ale_py.Action)
    ale.setInt("random_seed", args.seed)
    ale.setFloat("repeat_action_probability", args.sticky)
    ale.setInt("frame_skip", 1)
    ale.setInt("max_num_frames_per_episode", args.max_frames)
    try:
        ale.loadROM(rom)
    except RuntimeError as e:
        print(f"ale-trace.py: error: '{rom}': {e}", file=sys.stderr)
        return 1
    try:
        if args.mode is not None:
            ale.setMode(args.mode)
        if args.difficulty is not None:
            ale.setDifficulty(args.difficulty)
    except RuntimeError as e:
        print(f"ale-trace.py: error: '{rom}': {e}", file=sys.stderr)
        return 1
    if args.reset or args.mode is not None or args.difficulty is not None:
        ale.reset_game()
    out = sys.stdout if output == "-" else open(output, "w")
    out.write("frame,action,reward,terminal,lives,ram,screen_md5\n")
    for i, a in enumerate(actions):
        if i > 0 and ale.game_over():
            ale.reset_game()
        reward = ale.act(all_actions[a])
        terminal = int(ale.game_over())
        ram = ale.getRAM().tobytes().hex()
        md5 = hashlib.md5(ale.getScreen().tobytes()).hexdigest()
        out.write(f"{i + 1},{a},{int(reward)},{terminal},{ale.lives()},{ram},{md5}\n")
    if out is not sys.stdout:
        out.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
