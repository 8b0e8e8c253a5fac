#!/usr/bin/env python3
"""The time an AEI engine takes to search the positions of a recorded game at a fixed node
budget, one engine process for the whole game as under a controller (so what the engine keeps
from one search to the next counts), and the bestmoves it gave: two builds that search the
same nodes give the same bestmoves, and the times compare their speed on real play.

Usage (from the repository root; no package needed):
    python bin/scripts/replay_time.py ENGINE GAMES.jsonl [--nodes 100000] [--positions 50]
        [--game 0] [--bestmoves OUT.txt]

GAMES.jsonl is a `tusk match --json` or `tusk datagen` file; the first `--positions` positions
after the setups of game `--game` (0-based line) are searched, each after `makemove` of the
recorded moves before it. Prints the positions searched and the seconds from the first `go`
to the last bestmove.
"""

import argparse
import json
import subprocess
import sys
import time


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("engine", help="the engine's command, e.g. target/release/tusk")
    ap.add_argument("games", help="a JSON-lines game file")
    ap.add_argument("--nodes", type=int, default=100000)
    ap.add_argument("--positions", type=int, default=50)
    ap.add_argument("--game", type=int, default=0)
    ap.add_argument("--bestmoves", help="write the bestmoves here, one a line")
    args = ap.parse_args()
    with open(args.games) as f:
        lines = [l for l in f if l.strip()]
    if not 0 <= args.game < len(lines):
        sys.exit(f"{args.games}: no game {args.game} (it holds {len(lines)})")
    game = json.loads(lines[args.game])
    moves = [" ".join(m.split()[1:]) for m in game["moves"]]
    engine = subprocess.Popen(
        [args.engine, "aei"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )

    def send(line):
        engine.stdin.write(line + "\n")
        engine.stdin.flush()

    def wait(prefix):
        while True:
            line = engine.stdout.readline()
            if not line:
                sys.exit(f"{args.engine} ended before answering {prefix!r}")
            if line.startswith(prefix):
                return line.strip()

    send("aei")
    wait("aeiok")
    send(f"setoption name nodes value {args.nodes}")
    send("newgame")
    send("isready")
    wait("readyok")
    best = []
    started = time.monotonic()
    for i, move in enumerate(moves):
        if i >= 2 and len(best) < args.positions:
            send("go")
            best.append(wait("bestmove"))
        send(f"makemove {move}")
    elapsed = time.monotonic() - started
    send("quit")
    engine.wait()
    print(f"{args.engine}: {len(best)} positions, {elapsed:.2f} s")
    if args.bestmoves:
        with open(args.bestmoves, "w") as f:
            f.write("\n".join(best) + "\n")


if __name__ == "__main__":
    main()
