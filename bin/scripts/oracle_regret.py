#!/usr/bin/env python3
"""Regret against an oracle engine: how much worse, by a stronger engine's judgement, are the
turns Tusk chooses than the turns the oracle chooses itself, on a fixed set of positions.

A cheap screen beside matches: every position is judged twice by the oracle (its own turn,
then the position after that turn searched again from the opponent's side), once and for all
(`oracle`); a Tusk configuration then costs one Tusk search and at most one oracle search per
position (`tusk`), and two configurations are compared position by position (`compare`), so
the noise of whole games is gone. Regret of a turn = the oracle's value of the position after
the oracle's turn minus its value after Tusk's turn (both from the opponent's view, each clipped
to +-CLIP of the oracle's units, sized for sharp's: a rabbit about 1,000), so 0 when Tusk
plays the oracle's turn or one the oracle likes as much, and large for a turn that loses
material or allows a forced goal. It measures agreement with the
oracle's judgement, not strength: what a match does not confirm is not kept.

Usage (from the repository root, with the aei 1.4.1 venv's python; ORACLE is any AEI engine
command, e.g. `path/to/sharp aei`; sharp's `setposition` ignores the side to move, so give it
`--mirror-silver`):
    python bin/scripts/oracle_regret.py positions GAMES.jsonl... > positions.jsonl
    python bin/scripts/oracle_regret.py oracle positions.jsonl judged.jsonl --oracle "ORACLE" \\
        --depth 4 --mirror-silver
    python bin/scripts/oracle_regret.py tusk judged.jsonl out.jsonl --oracle "ORACLE" --depth 4 \\
        --mirror-silver [--cache CACHE.jsonl] -- --depth 4 [--weights FILE] [--with FEATURES]
    python bin/scripts/oracle_regret.py compare base.jsonl candidate.jsonl...
    python bin/scripts/oracle_regret.py terms judged.jsonl out.jsonl [--sharpdev SHARPDEV] \\
        [--min-regret 500] [-- --weights FILE]

`positions` samples three positions from each game of `tusk match --json` files (turn starts
from 4g to four turns before the end, a fixed seed), each position once, leaving out those of
`--exclude FILE`. The arguments after `--` of `tusk` go to `tusk analyze`. With `--cache` the
oracle's scores are kept by position across runs, so configurations that choose the same turn
get the same score (an oracle whose hash table outlives `newgame`, as sharp's does, varies by
a few points from one search of a position to the next).

`terms` says which judgement differs: over the positions of a `tusk` result where Tusk's turn
is not the oracle's (and its regret is at least `--min-regret`), the mean difference of every
term of Tusk's evaluation (`tusk eval --batch`, the arguments after `--` go to it) between the
position after the oracle's turn and the position after Tusk's, from the mover's view, with
its standard error; with `--sharpdev` (sharp's developer build) the same for every term sharp's
`evalPos` prints. A positive difference is a term that prefers the oracle's turn.
"""

import argparse
import json
import math
import random
import statistics
import subprocess
import sys
import tempfile
from multiprocessing import Pool

from pyrimaa import board

CLIP = 4000


def parse_position(text):
    """`g [64 cells]` -> pyrimaa position."""
    color = board.Color.GOLD if text[0] == "g" else board.Color.SILVER
    return board.parse_short_pos(color, 4, text[2:])


def write_position(pos):
    return ("g" if pos.color == board.Color.GOLD else "s") + " " + pos.board_to_str("short")


def after(text, turn):
    """The position after `turn` (official step notation) is played in `text`."""
    return write_position(parse_position(text).do_move(board.parse_move(turn)))


def mirror_position(text):
    """Silver to move -> gold to move with colours exchanged and ranks mirrored."""
    cells = text[3:67]
    rows = [cells[i * 8:(i + 1) * 8] for i in range(8)][::-1]
    return "g [" + "".join(rows).swapcase() + "]"


def mirror_turn(turn):
    """A turn of the mirrored position back in the real one (and the other way)."""
    flip = {"n": "s", "s": "n"}
    steps = []
    for step in turn.split():
        piece, file, rank, rest = step[0].swapcase(), step[1], 9 - int(step[2]), step[3:]
        steps.append(f"{piece}{file}{rank}{flip.get(rest, rest)}")
    return " ".join(steps)


class Oracle:
    """A persistent AEI engine searching to a fixed depth; `search` returns (value from the
    side to move's view, bestmove)."""

    def __init__(self, command, depth, mirror_silver):
        self.proc = subprocess.Popen(command, shell=True, stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True, bufsize=1)
        self.mirror_silver = mirror_silver
        self.send("aei")
        self.until("aeiok")
        # sharp's switch for searching to the depth whatever the clock; an engine without
        # it answers with an error log line and goes on.
        self.send("setoption name ignoretc value true")
        self.send(f"setoption name depth value {depth}")

    def send(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def until(self, word):
        lines = []
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError(f"the oracle closed its output while waiting for {word}")
            line = line.rstrip()
            lines.append(line)
            if line.startswith(word):
                return lines

    def search(self, text):
        mirrored = self.mirror_silver and text[0] == "s"
        self.send("newgame")
        self.send(f"setposition {mirror_position(text) if mirrored else text}")
        self.send("go")
        value, turn = None, None
        for line in self.until("bestmove"):
            fields = line.split()
            # sharp's progress lines: `log Depth: D Eval: V ...`; otherwise AEI `info score V`
            if line.startswith("log Depth") and len(fields) > 4:
                value = int(fields[4])
            elif line.startswith("info score") and len(fields) > 2:
                value = int(fields[2])
            elif line.startswith("bestmove"):
                turn = line[len("bestmove "):]
        if value is None:
            raise RuntimeError(f"the oracle gave no score for {text}")
        return value, mirror_turn(turn) if mirrored else turn


ORACLE = None
SETTINGS = {}
# The oracle's values of positions already judged (`--cache`): the same position gets the same
# value in every run, so configurations that choose the same turn are compared without noise
# (an oracle whose hash table outlives `newgame`, as sharp's does, varies by a few points).
CACHE = {}


def oracle():
    global ORACLE
    if ORACLE is None:
        ORACLE = Oracle(SETTINGS["command"], SETTINGS["depth"], SETTINGS["mirror_silver"])
    return ORACLE


def clip(value):
    return max(-CLIP, min(CLIP, value))


def judge_oracle(row):
    _, turn = oracle().search(row["pos"])
    reached = after(row["pos"], turn)
    value, _ = oracle().search(reached)
    return dict(row, oracle_turn=turn, oracle_after=reached, oracle_value=value)


def judge_tusk(job):
    row, tusk, flags = job
    out = subprocess.run([tusk, "analyze", "--setposition", row["pos"]] + flags,
                         capture_output=True, text=True, check=True).stdout
    turn = next(l for l in out.splitlines() if l.startswith("bestmove"))[len("bestmove "):]
    reached = after(row["pos"], turn)
    if reached == row["oracle_after"]:
        value = row["oracle_value"]
    elif reached in CACHE:
        value = CACHE[reached]
    else:
        value = oracle().search(reached)[0]
    return dict(pos=row["pos"], turn=turn, after=reached, value=value,
                regret=clip(value) - clip(row["oracle_value"]))


def sample_positions(files, per_game, seed):
    rng = random.Random(seed)
    for name in files:
        for line in open(name):
            game = json.loads(line)
            pos = board.Position(board.Color.GOLD, 4, board.BLANK_BOARD)
            for setup in game["moves"][:2]:
                pos = pos.do_move_str(setup.split(" ", 1)[1])
            seen = []
            for move in game["moves"][2:]:
                label, steps = (move.split(" ", 1) + [""])[:2]
                seen.append((label, write_position(pos)))
                if not steps:
                    break
                pos = pos.do_move(board.parse_move(steps))
            candidates = seen[4:-4]
            for label, text in rng.sample(candidates, min(per_game, len(candidates))):
                yield {"pos": text, "game": f"{name.split('/')[-1]}:{game['id']}", "label": label}


# sharp's `evalPos` lines read by `terms`, each from the side to move's view (its `...Pla`
# terms are the side to move's, its `...Opp` terms the other side's, added to the total with
# the opposite sign)
SHARP_TERMS = ["Material", "PieceSquare", "TDefScore", "TCScore", "PEleMobility",
               "OEleMobility", "ThreatScore", "PSum", "OSum", "StratScorePla", "StratScoreOpp",
               "SheriffScorePla", "SheriffScoreOpp", "AlignPla", "AlignOpp", "ImbalancePla",
               "ImbalanceOpp", "RabScorePla", "RabScoreOpp", "VarAdjustment", "Final Score"]


def sharp_position_block(text, steps_taken=0):
    """A position in sharp's position-file format, gold to move (silver mirrored), with
    `steps_taken` of its turn already played (sharp's `S`)."""
    if text[0] == "s":
        text = mirror_position(text)
    cells = text[3:67]
    lines = [f"P = 1, S = {steps_taken}", " +-----------------+"]
    for row in range(8):
        squares = " ".join(c if c != " " else "." for c in cells[row * 8:(row + 1) * 8])
        lines.append(f"{8 - row}| {squares} |")
    return "\n".join(lines + [" +-----------------+", "   a b c d e f g h"])


def parse_sharp_terms(output):
    """sharp's `evalPos` output -> one dict of `SHARP_TERMS` values per position."""
    evals = []
    for line in output.splitlines():
        if line.startswith("---Eval"):
            evals.append({})
        name, _, value = line.partition(":")
        if evals and name in SHARP_TERMS and value.split():
            evals[-1][name] = int(value.split()[0])
    return evals


def sharp_terms(sharpdev, positions):
    """Every `SHARP_TERMS` value of each position by sharp's `evalPos`, side to move's view."""
    with tempfile.NamedTemporaryFile("w", suffix=".pos") as f:
        f.write("\n;\n".join(sharp_position_block(p) for p in positions) + "\n")
        f.flush()
        out = subprocess.run([sharpdev, "evalPos", f.name], capture_output=True, text=True,
                             check=True).stdout
    evals = parse_sharp_terms(out)
    if len(evals) != len(positions):
        sys.exit(f"sharp's evalPos gave {len(evals)} evaluations for {len(positions)} positions")
    return evals


def tusk_terms(tusk, positions, eval_args):
    """Every term of Tusk's evaluation of each position, side to move's view (centirabbits)."""
    out = subprocess.run([tusk, "eval", "--batch", "-", *eval_args], input="\n".join(positions),
                         capture_output=True, text=True, check=True).stdout
    lines = out.splitlines()
    if len(lines) != len(positions):
        sys.exit(f"tusk eval gave {len(lines)} evaluations for {len(positions)} positions")
    evals = []
    for line, text in zip(lines, positions):
        row = json.loads(line)
        sign = 1 if text[0] == "g" else -1
        terms = {name: sign * (g - s) for name, (g, s) in row["terms"].items()}
        terms["score"] = row["score"]
        evals.append(terms)
    return evals


def term_differences(oracle_evals, tusk_evals):
    """Per term: (mean, standard error) of the oracle's turn's value minus Tusk's turn's, from
    the mover's view. The evaluations are of the positions after the turns, so from the
    opponent's view: the difference is Tusk's turn minus the oracle's turn there."""
    table = {}
    for name in oracle_evals[0]:
        diff = [t[name] - o[name] for o, t in zip(oracle_evals, tusk_evals)]
        se = statistics.stdev(diff) / math.sqrt(len(diff)) if len(diff) > 1 else 0.0
        table[name] = (statistics.mean(diff), se)
    return table


def summary(regrets):
    return (f"n {len(regrets)} mean regret {statistics.mean(regrets):.0f} "
            f"median {statistics.median(regrets):.0f} over 500: {sum(r > 500 for r in regrets)} "
            f"over 1500: {sum(r > 1500 for r in regrets)} with no regret: "
            f"{sum(r == 0 for r in regrets)}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("positions")
    p.add_argument("games", nargs="+")
    p.add_argument("--per-game", type=int, default=3)
    p.add_argument("--seed", type=int, default=16)
    p.add_argument("--exclude", help="a positions file whose positions are left out")
    for name in ("oracle", "tusk"):
        p = sub.add_parser(name)
        p.add_argument("input")
        p.add_argument("output")
        p.add_argument("--oracle", required=True, help="AEI engine command")
        p.add_argument("--depth", type=int, default=4)
        p.add_argument("--mirror-silver", action="store_true")
        p.add_argument("--jobs", type=int, default=2)
        if name == "tusk":
            p.add_argument("--tusk", default="target/release/tusk")
            p.add_argument("--cache", help="a JSON-lines file of the oracle's values, kept")
    p = sub.add_parser("compare")
    p.add_argument("base")
    p.add_argument("candidates", nargs="+")
    p = sub.add_parser("terms")
    p.add_argument("judged")
    p.add_argument("results")
    p.add_argument("--tusk", default="target/release/tusk")
    p.add_argument("--sharpdev", help="sharp's developer build, for its evalPos terms")
    p.add_argument("--min-regret", type=int, default=-CLIP)
    argv = sys.argv[1:]
    # the arguments after `--`: for `tusk analyze` (the `tusk` step) or `tusk eval` (`terms`)
    tusk_args = argv[argv.index("--") + 1:] if "--" in argv else []
    args = ap.parse_args(argv[:argv.index("--")] if "--" in argv else argv)

    if args.cmd == "positions":
        seen = {json.loads(l)["pos"] for l in open(args.exclude)} if args.exclude else set()
        for row in sample_positions(args.games, args.per_game, args.seed):
            if row["pos"] not in seen:
                seen.add(row["pos"])
                print(json.dumps(row))
        return
    if args.cmd == "compare":
        base = [json.loads(l)["regret"] for l in open(args.base)]
        print(f"{'file':40} {'mean':>6} {'>500':>5} {'diff':>7} {'se':>6} {'t':>6}")
        for name in [args.base] + args.candidates:
            cand = [json.loads(l)["regret"] for l in open(name)]
            if len(cand) != len(base):
                sys.exit(f"{name}: {len(cand)} positions, the base has {len(base)}")
            diff = [c - b for c, b in zip(cand, base)]
            se = statistics.stdev(diff) / math.sqrt(len(diff)) if any(diff) else 0.0
            t = statistics.mean(diff) / se if se else 0.0
            print(f"{name:40} {statistics.mean(cand):6.0f} {sum(c > 500 for c in cand):5} "
                  f"{statistics.mean(diff):7.1f} {se:6.1f} {t:6.2f}")
        return

    if args.cmd == "terms":
        judged = {}
        for line in open(args.judged):
            row = json.loads(line)
            judged[row["pos"]] = row
        rows = [json.loads(l) for l in open(args.results)]
        chosen = [(judged[r["pos"]]["oracle_after"], r["after"]) for r in rows
                  if r["regret"] >= args.min_regret
                  and r["after"] != judged[r["pos"]]["oracle_after"]]
        if len(chosen) < 2:
            sys.exit(f"{len(chosen)} positions where Tusk's turn differs, with regret >= "
                     f"{args.min_regret}: too few to compare")
        print(f"{len(chosen)} positions where Tusk's turn is not the oracle's, regret >= "
              f"{args.min_regret}; mean difference, oracle's turn minus Tusk's, mover's view")
        sources = [("tusk eval (centirabbits)", lambda ps: tusk_terms(args.tusk, ps, tusk_args))]
        if args.sharpdev:
            sources.append(("sharp evalPos (sharp's units)",
                            lambda ps: sharp_terms(args.sharpdev, ps)))
        for title, evaluate in sources:
            oracle_evals = evaluate([o for o, _ in chosen])
            tusk_evals = evaluate([t for _, t in chosen])
            print(f"{title:32} {'mean':>8} {'se':>7}")
            for name, (mean, se) in term_differences(oracle_evals, tusk_evals).items():
                print(f"  {name:30} {mean:8.1f} {se:7.1f}")
        return

    SETTINGS.update(command=args.oracle, depth=args.depth, mirror_silver=args.mirror_silver)
    cache = getattr(args, "cache", None)
    if cache:
        try:
            for line in open(cache):
                entry = json.loads(line)
                CACHE[entry["pos"]] = entry["value"]
        except FileNotFoundError:
            pass
    rows = [json.loads(l) for l in open(args.input)]
    with Pool(args.jobs) as pool, open(args.output, "w") as out:
        if args.cmd == "oracle":
            for row in pool.imap(judge_oracle, rows):
                out.write(json.dumps(row) + "\n")
            return
        results = list(pool.imap(judge_tusk, [(row, args.tusk, tusk_args) for row in rows]))
        for row in results:
            out.write(json.dumps(row) + "\n")
    if cache:
        with open(cache, "a") as out:
            for row in results:
                if row["after"] not in CACHE:
                    CACHE[row["after"]] = row["value"]
                    out.write(json.dumps({"pos": row["after"], "value": row["value"]}) + "\n")
    print(summary([r["regret"] for r in results]))


if __name__ == "__main__":
    main()
