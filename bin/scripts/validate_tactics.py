#!/usr/bin/env python3
"""Keeps the lines of a tactics set (search/tests/data format) where an oracle engine plays
one of the accepted turns.

A candidate set made by brute force (for example by the example
`gen_capture_defence_games`) says which turns meet a rule ("keeps the camel"); whether
meeting it is the right play is a judgement. This script asks an AEI engine searching to a
fixed depth (sharp with `ignoretc`, built by hand outside the repository) for its turn in
each position and keeps the line when the board after that turn is the board after one of
the listed turns. Header lines are copied, with one more saying how the lines were kept.
Every answer is also written to a log (`--log`, JSON lines) and read back on a rerun, so an
interrupted run resumes.

    python bin/scripts/validate_tactics.py candidates.txt search/tests/data/SET.txt \\
        --oracle "path/to/sharp aei" --depth 8 --log validate.jsonl

Needs the `aei` package (pyrimaa) for the boards; sharp's `setposition` ignores the side to
move, so silver positions are mirrored (`oracle_regret.py`).
"""

import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import oracle_regret as oracle  # noqa: E402


def board_after(position, turn):
    """The board (short string, side to move included) after `turn` in `position`."""
    return oracle.after(position, turn)


def accepted(position, turn, listed):
    """Whether `turn` reaches the board of one of the `listed` turns."""
    after = board_after(position, turn)
    return any(board_after(position, t) == after for t in listed)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("candidates")
    p.add_argument("out")
    p.add_argument("--oracle", required=True, help="the AEI engine's command line")
    p.add_argument("--depth", type=int, default=8)
    p.add_argument("--log", help="JSON lines of every answer, read back to resume")
    args = p.parse_args()

    done = {}
    if args.log and os.path.exists(args.log):
        with open(args.log) as f:
            for line in f:
                row = json.loads(line)
                done[row["line"]] = row
    log = open(args.log, "a") if args.log else None
    engine = None
    header, kept, total = [], [], 0
    with open(args.candidates) as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("#"):
                header.append(line)
                continue
            if not line.strip():
                continue
            total += 1
            fields = line.split("\t")
            position, listed = fields[0], fields[4:]
            row = done.get(line)
            if row is None:
                if engine is None:
                    engine = oracle.Oracle(args.oracle, args.depth, True)
                value, turn = engine.search(position)
                row = {"line": line, "turn": turn, "value": value,
                       "kept": accepted(position, turn, listed)}
                if log:
                    log.write(json.dumps(row) + "\n")
                    log.flush()
            print(f"{total}\t{fields[1]}\t{'kept' if row['kept'] else 'dropped'}\t"
                  f"{row['value']}\t{row['turn']}", flush=True)
            if row["kept"]:
                kept.append(line)
    header.append(f"# Kept {len(kept)} of {total} candidates: those where the oracle at depth "
                  f"{args.depth} plays an accepted turn (bin/scripts/validate_tactics.py).")
    with open(args.out, "w") as f:
        for h in header:
            f.write(h + "\n")
        for line in kept:
            f.write(line + "\n")
    print(f"kept {len(kept)} of {total}")


if __name__ == "__main__":
    main()
