#!/usr/bin/env python3
"""Write the frame-by-frame trace of ALE (ale-py) for a ROM and an action list.

The CSV has the columns of `cule-bench trace`:
    frame,action,reward,terminal,lives,ram,screen_md5
one row after every frame, with frame skip 1 and no sticky actions; after a
terminal row the next action starts a new episode (ALE's reset_game).

usage: ale-trace.py --rom FILE --actions FILE [--seed S] [--max-frames N] [-o FILE]

Exit status: 0 success, 1 bad input, 3 ale-py is not installed.
"""
import argparse
import hashlib
import sys


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rom", required=True, help="ROM image")
    p.add_argument("--actions", required=True, help="one ALE action number or name per line")
    p.add_argument("--seed", type=int, default=0, help="ALE random_seed (default 0)")
    p.add_argument("--max-frames", type=int, default=108000,
                   help="frames per episode before truncation, 0 for none (default 108000)")
    p.add_argument("-o", "--output", default="-", help="output file (default: standard output)")
    args = p.parse_args()
    try:
        import ale_py
    except ImportError:
        print("ale-trace.py: error: python module 'ale_py' is not installed", file=sys.stderr)
        return 3
    names = {a.name: a.value for a in ale_py.Action}
    actions = []
    try:
        with open(args.actions) as f:
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
                    print(f"ale-trace.py: error: '{args.actions}': line {lineno}: bad action '{s}'",
                          file=sys.stderr)
                    return 1
                actions.append(a)
    except OSError as e:
        print(f"ale-trace.py: error: cannot open '{args.actions}': {e.strerror}", file=sys.stderr)
        return 1
    ale_py.ALEInterface.setLoggerMode(ale_py.LoggerMode.Error)
    ale = ale_py.ALEInterface()
    ale.setInt("random_seed", args.seed)
    ale.setFloat("repeat_action_probability", 0.0)
    ale.setInt("frame_skip", 1)
    ale.setInt("max_num_frames_per_episode", args.max_frames)
    try:
        ale.loadROM(args.rom)
    except RuntimeError as e:
        print(f"ale-trace.py: error: '{args.rom}': {e}", file=sys.stderr)
        return 1
    out = sys.stdout if args.output == "-" else open(args.output, "w")
    out.write("frame,action,reward,terminal,lives,ram,screen_md5\n")
    all_actions = list(ale_py.Action)
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
