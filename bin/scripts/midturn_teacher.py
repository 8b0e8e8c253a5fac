#!/usr/bin/env python3
"""Teacher scores in the middle of a turn: the input for `tusk tune --scored` with `"steps"`.

Rounds 41 and 55 place the gap to sharp in how positions a few steps into a turn are judged,
and AEI cannot set such a position (`teacher_scores.py` scores turn starts only). This script
makes them and has a developer build of sharp search them from a position file, where a
board carries the steps already taken (`S = k`).

For each turn start drawn from the input (one JSON object a line with a `"position"`, as
`data/scored/*.jsonl`; `--sample N --seed S`), silver-to-move positions are first mirrored to
gold to move (the same position for the mover); then 1 to 3 steps (uniformly) are played by
the mover, each drawn uniformly from its single steps (own pieces only, so never half a push
or a pull; a piece may step into a trap and be lost), which is what a search's leaves a few
steps into a turn look like, not only the steps a player would choose. Each board is
searched by `SHARPDEV searchPos FILE -d D` with D the steps left in the turn plus
`--opponent-steps` (4 by default: to the end of the opponent's reply), all boards of a
chunk in one run. Output, one line a position:
`{"line": N, "position": "g [...]", "steps": "Ee2n Ee3n", "score": CR, "group": G}`, the
score from the mover's view in centirabbits (sharp's thousandths of a rabbit / 10); N is
the input's line, from 1. An interrupted run resumes: lines already written are skipped.

Usage (from the repository root, with the aei 1.4.1 venv's python; SHARPDEV is sharp built in
its developer mode, outside the repository):
    python3 bin/scripts/midturn_teacher.py data/scored/sharp-eval-turn-starts.jsonl OUT.jsonl \\
        --sharpdev SHARPDEV --sample 4000 --seed 56
then `tusk tune --scored OUT.jsonl --k 638 ...`.
"""

import argparse
import json
import os
import random
import subprocess
import tempfile

from oracle_regret import mirror_position, parse_position, sharp_position_block

# sharp counts a rabbit as 1,000; Tusk's centirabbit is 10 of those.
UNITS_PER_CR = 10


def mid_turn(text, rng):
    """(turn start mirrored to gold to move, steps text, mid-turn pyrimaa position) or None
    when the mover has no single step."""
    if text[0] == "s":
        text = mirror_position(text)
    pos = parse_position(text)
    start = text
    steps = []
    for _ in range(rng.randint(1, 3)):
        own = [(s, p) for s, p in pos.get_single_steps() if not p.inpush]
        if not own:
            return None
        step, nxt = rng.choice(own)
        steps.append(pos.steps_to_str([step]))
        pos = nxt
    return start, " ".join(steps), pos


def sharp_block(pos):
    """sharp's position-file block of a gold-to-move board with steps already taken."""
    return sharp_position_block("g " + pos.board_to_str("short"), 4 - pos.stepsLeft)


def search_chunk(sharpdev, blocks, depths):
    """sharp's search score (mover's view, its units) of each block, searched to its depth:
    one run per distinct depth."""
    scores = [None] * len(blocks)
    for depth in sorted(set(depths)):
        idx = [i for i, d in enumerate(depths) if d == depth]
        with tempfile.NamedTemporaryFile("w", suffix=".pos", delete=False) as f:
            f.write("\n;\n".join(blocks[i] for i in idx) + "\n")
            path = f.name
        try:
            out = subprocess.run([sharpdev, "searchPos", path, "-d", str(depth)],
                                 capture_output=True, text=True, check=True).stdout
        finally:
            os.unlink(path)
        for line in out.splitlines():
            parts = line.split("\t")
            # "idx depth eval mnodes qnodes evals time pv" for a multi-board file.
            if len(parts) >= 7 and parts[0].isdigit() and parts[1].isdigit():
                scores[idx[int(parts[0])]] = int(parts[2])
    return scores


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("input")
    ap.add_argument("output")
    ap.add_argument("--sharpdev", required=True, help="sharp's developer build")
    ap.add_argument("--sample", type=int, help="lines drawn from the input (all if unset)")
    ap.add_argument("--seed", type=int, default=56)
    ap.add_argument("--opponent-steps", type=int, default=4)
    ap.add_argument("--chunk", type=int, default=200, help="boards per sharp run")
    args = ap.parse_args()

    with open(args.input) as f:
        lines = [(n, json.loads(t)) for n, t in enumerate(f, start=1) if t.strip()]
    rng = random.Random(args.seed)
    if args.sample is not None and args.sample < len(lines):
        picked = sorted(rng.sample(range(len(lines)), args.sample))
        lines = [lines[i] for i in picked]
    done = set()
    if os.path.exists(args.output):
        with open(args.output) as f:
            done = {json.loads(t)["line"] for t in f if t.strip()}
    # Every line draws its steps from its own seeded generator, so a resumed run makes the
    # same positions.
    jobs = []
    for n, row in lines:
        made = mid_turn(row["position"], random.Random(args.seed * 1_000_003 + n))
        if made is not None and n not in done:
            jobs.append((n, row.get("group"), made))
    print(f"{len(lines)} turn starts, {len(done)} done before, {len(jobs)} to search")
    with open(args.output, "a") as out:
        for at in range(0, len(jobs), args.chunk):
            chunk = jobs[at:at + args.chunk]
            blocks = [sharp_block(pos) for _, _, (_, _, pos) in chunk]
            depths = [pos.stepsLeft + args.opponent_steps for _, _, (_, _, pos) in chunk]
            scores = search_chunk(args.sharpdev, blocks, depths)
            for (n, group, (start, steps, _)), score in zip(chunk, scores):
                if score is None:
                    continue
                row = {"line": n, "position": start, "steps": steps,
                       "score": round(score / UNITS_PER_CR, 1)}
                if group is not None:
                    row["group"] = group
                out.write(json.dumps(row) + "\n")
            out.flush()
            print(f"{min(at + args.chunk, len(jobs))} of {len(jobs)}", flush=True)


if __name__ == "__main__":
    main()
