#!/usr/bin/env python3
"""Tusk against Tusk under pyrimaa's roundrobin, one game at a time, with the controller's own
clock watched: for every turn, the time the controller waited for the bestmove against the
deadline it enforces (tcmove + the mover's reserve), plus the result codes (timeouts 't' and
illegal moves 'i' are the failures).

Usage (from the repository root, with the aei 1.4.1 venv's python; a summary follows every game):
    python bin/scripts/selfplay_clock.py --games 100 --tc 2s/10s/100 [--tusk target/release/tusk]

The turn time measured here starts before the controller sends the clock options and `go`
and ends after it has read the bestmove, so it slightly overstates the engine's time.
"""

import argparse
import collections
import contextlib
import io
import os
import sys
import tempfile
import time

from pyrimaa import game as pgame
from pyrimaa import roundrobin

turns = []  # (game index, side, insetup, used, deadline)
game_index = [0]

_play_next_move = pgame.Game.play_next_move


def timed_play_next_move(self, starttime):
    side = self.position.color
    tc = self.side_tc[side]
    deadline = None
    if tc:
        deadline = tc.move + self.reserves[side]
        if tc.max_turntime:
            deadline = min(deadline, tc.max_turntime)
    insetup = self.insetup
    t0 = time.time()
    result = _play_next_move(self, starttime)
    turns.append((game_index[0], side, insetup, time.time() - t0, deadline))
    return result


_play = pgame.Game.play


def counted_play(self):
    result = _play(self)
    game_index[0] += 1
    return result


def tc_move(tc):
    from pyrimaa.util import TimeControl

    return TimeControl(tc).move


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--tc", default="2s/10s/100")
    ap.add_argument("--tusk", default="target/release/tusk")
    ap.add_argument("--depth", type=int, default=0)
    args = ap.parse_args()
    pgame.Game.play_next_move = timed_play_next_move
    pgame.Game.play = counted_play
    tusk = os.path.abspath(args.tusk)
    codes = collections.Counter()
    start = time.time()
    with tempfile.TemporaryDirectory() as d:
        cfg = os.path.join(d, "roundrobin.cfg")
        with open(cfg, "w") as f:
            f.write(
                "[global]\n"
                "rounds = 1\n"
                "loglevel = WARN\n"
                f"timecontrol = {args.tc}\n"
                "strict_setup = True\n"
                "bots = Tusk TuskToo\n"
                + (f"bot_depth = {args.depth}\n" if args.depth else "")
                + f"\n[Tusk]\ncmdline = '{tusk}' aei\n"
                f"\n[TuskToo]\ncmdline = '{tusk}' aei\n"
            )
        # One game per roundrobin run, so a summary is printed after every game.
        for _ in range(args.games):
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                roundrobin.main(["--config", cfg])
            for line in out.getvalue().splitlines():
                if " because of " in line:
                    codes[line.split(" because of ")[1].split()[0]] += 1
            summary(args, codes, time.time() - start)
    return 0 if codes.get("t", 0) == 0 and codes.get("i", 0) == 0 else 1


def summary(args, codes, wall):
    moves = [t for t in turns if not t[2]]
    worst = max(moves, key=lambda t: t[3] / t[4] if t[4] else 0)
    longest = max(moves, key=lambda t: t[3])
    print(f"--- after {game_index[0]} games, {wall:.0f} s at {args.tc}")
    print("results by code:", dict(codes))
    print(f"timeouts: {codes.get('t', 0)}, illegal moves: {codes.get('i', 0)}")
    print(f"turns (setups excluded): {len(moves)}, mean time {sum(t[3] for t in moves) / len(moves):.3f} s")
    print(
        f"largest share of the deadline used: {worst[3]:.3f} s of {worst[4]:.3f} s "
        f"({100 * worst[3] / worst[4]:.1f}%) in game {worst[0] + 1}"
    )
    print(f"longest turn: {longest[3]:.3f} s (deadline {longest[4]:.3f} s) in game {longest[0] + 1}")
    print(f"smallest margin left: {min(t[4] - t[3] for t in moves):.3f} s")
    used = sorted(t[3] for t in moves)
    pct = lambda q: used[min(len(used) - 1, int(q * len(used)))]
    print(f"turn time percentiles: 50% {pct(0.5):.2f} s, 90% {pct(0.9):.2f} s, 99% {pct(0.99):.2f} s")
    spare = sorted(t[4] - tc_move(args.tc) for t in moves)
    print(f"reserve at turn start: min {spare[0]:.2f} s, median {spare[len(spare) // 2]:.2f} s")
    setups = [t for t in turns if t[2]]
    if setups:
        print(f"longest setup: {max(t[3] for t in setups):.3f} s")
    sys.stdout.flush()


if __name__ == "__main__":
    sys.exit(main())
