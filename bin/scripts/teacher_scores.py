#!/usr/bin/env python3
"""Teacher scores from another engine's search: the input for `tusk tune --scored`.

Reads positions (one JSON object a line with a `"position": "g [<64 cells>]"` turn start, as
`data/scored/*.jsonl` and `tusk eval --batch` take them; an optional `"group"` is kept) and has
an AEI engine search each one to a fixed depth, writing one line per position:
`{"line": N, "position": ..., "score": CR, "group": ...}` (N the input's line, from 1) with the
engine's score in centirabbits from the side to move's view. `--sample N --seed S` scores N
lines drawn from the input (Python's `random.Random(S).sample`, in file order) instead of all.

The engine must log its score as sharp does (`log Depth D Eval E ...` before `bestmove`, E in
thousandths of a rabbit from gold's view) and ignore the side to move of `setposition` as
sharp does, so silver-to-move positions are mirrored to gold to move before they are sent
(colours exchanged, ranks reversed: the same position for the mover). Positions are spread
over `--workers` engine processes, each a persistent AEI session; an interrupted run resumes:
lines already in a worker's part file (`OUT.partK`) are not searched again.

Usage (from the repository root; ENGINE is an AEI command such as `path/to/sharp aei`):
    python3 bin/scripts/teacher_scores.py IN.jsonl OUT.jsonl --engine "ENGINE" --depth 6 \\
        [--workers 2] [--sample N --seed S]
"""

import argparse
import json
import random
from multiprocessing import Process

from oracle_regret import Oracle

# The engine's units per centirabbit (sharp counts a rabbit as 1,000).
UNITS_PER_CR = 10


def chosen_lines(args):
    """The (line number from 1, text) pairs to score: every line, or the seeded sample."""
    with open(args.input) as f:
        lines = [(n, text) for n, text in enumerate(f, start=1) if text.strip()]
    if args.sample is not None and args.sample < len(lines):
        picked = sorted(random.Random(args.seed).sample(range(len(lines)), args.sample))
        lines = [lines[i] for i in picked]
    return lines


def worker(args, k, path):
    done = set()
    try:
        with open(path) as f:
            done = {json.loads(line)["line"] for line in f if line.strip()}
    except FileNotFoundError:
        pass
    # oracle_regret's persistent AEI session: mirrors silver-to-move positions for sharp.
    engine = Oracle(args.engine, args.depth, mirror_silver=True)
    with open(path, "a") as out:
        for j, (n, text) in enumerate(chosen_lines(args)):
            if j % args.workers != k or n in done:
                continue
            row = json.loads(text)
            value, _ = engine.search(row["position"])
            score = value / UNITS_PER_CR
            record = {"line": n, "position": row["position"], "score": score}
            if "group" in row:
                record["group"] = row["group"]
            out.write(json.dumps(record) + "\n")
            out.flush()
    engine.send("quit")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("input")
    ap.add_argument("output")
    ap.add_argument("--engine", required=True, help="AEI engine command (run through sh)")
    ap.add_argument("--depth", type=int, default=6)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--sample", type=int, help="score this many lines drawn from the input")
    ap.add_argument("--seed", type=int, default=55, help="seeds --sample")
    args = ap.parse_args()
    parts = [f"{args.output}.part{k}" for k in range(args.workers)]
    procs = [Process(target=worker, args=(args, k, p)) for k, p in enumerate(parts)]
    for p in procs:
        p.start()
    for p in procs:
        p.join()
    rows = []
    for part in parts:
        with open(part) as f:
            rows.extend(json.loads(line) for line in f if line.strip())
    rows.sort(key=lambda r: r["line"])
    with open(args.output, "w") as out:
        out.writelines(json.dumps(r) + "\n" for r in rows)
    print(f"{len(rows)} positions scored into {args.output}")


if __name__ == "__main__":
    main()
