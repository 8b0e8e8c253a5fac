#!/usr/bin/env python3
"""Time pyrimaa's get_moves() on the first N positions of turn_counts.txt.

Usage: python3 tests/data/bench_pyrimaa.py [N]     (default N = 200)

Prints one line:
    pyrimaa: N positions, T turns, S seconds, X positions/s
and asserts that every count equals the fixture.  Single-threaded.
"""

import os
import sys
import time

from pyrimaa import board as pb


def read_fixture(path):
    out = []
    with open(path) as fh:
        for line in fh:
            if line.startswith("#") or not line.strip():
                continue
            lo, hi = line.index("["), line.index("]")
            side = {"g": pb.Color.GOLD, "s": pb.Color.SILVER}[line[:lo].strip()]
            board = line[lo:hi + 1]
            turns, steps = (int(x) for x in line[hi + 1:].split())
            out.append((side, board, turns, steps))
    return out


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "turn_counts.txt")
    rows = read_fixture(path)[:n]
    positions = [(pb.parse_short_pos(side, 4, board), turns) for side, board, turns, _ in rows]
    total = 0
    elapsed = 0.0
    for pos, expected in positions:
        t0 = time.perf_counter()
        moves = pos.get_moves()
        elapsed += time.perf_counter() - t0
        assert len(moves) == expected, (pos.board_to_str("short"), len(moves), expected)
        total += len(moves)
    rate = len(positions) / elapsed if elapsed > 0 else float("inf")
    print(f"pyrimaa: {len(positions)} positions, {total} turns, {elapsed:.3f} seconds, "
          f"{rate:.2f} positions/s")


if __name__ == "__main__":
    main()
