#!/usr/bin/env python3
"""Generate differential-test fixtures for Tusk from the independent Arimaa
implementation ``pyrimaa.board`` (PyPI package ``aei``, version 1.4.1).

pyrimaa is only imported here to produce data; none of its code is part of
Tusk.  The output is deterministic (fixed seeds, stdlib + pyrimaa only).

Usage (from the repository root):

    python3 tests/data/gen_fixtures.py            # writes into tests/data/
    python3 tests/data/gen_fixtures.py --out DIR  # writes into DIR

Writes turn_counts.txt, moves.txt and games.txt (see README.md).
"""

import argparse
import os
import random
import statistics
import sys
import time
from importlib import metadata

from pyrimaa import board as pb

SEED = 20250117
MAX_TURNS = 150_000  # positions with more distinct turns are left out
GAME_TURN_LIMIT = 300
N_POOL_GAMES = 360  # random games played for the position / move pools
BASIC_EVERY = 12  # every 12th pool game starts from pyrimaa's BASIC_SETUP

PIECE_LIMITS = {"E": 1, "M": 1, "H": 2, "D": 2, "C": 2, "R": 8}
STRENGTH = {"R": 1, "C": 2, "D": 3, "H": 4, "M": 5, "E": 6}
TRAPS = (18, 21, 42, 45)  # c3 f3 c6 f6
GOLD, SILVER = pb.Color.GOLD, pb.Color.SILVER
SIDE_CH = "gs"

T_START = time.perf_counter()


def log(msg):
    print(f"[{time.perf_counter() - T_START:8.1f}s] {msg}", flush=True)


# ---------------------------------------------------------------------------
# board helpers (our own representation: list of 64 chars, index = rank*8+file,
# a1 = 0, h8 = 63, ' ' = empty, upper case gold, lower case silver)
# ---------------------------------------------------------------------------


def neighbours(sq):
    f, r = sq % 8, sq // 8
    out = []
    if f > 0:
        out.append(sq - 1)
    if f < 7:
        out.append(sq + 1)
    if r > 0:
        out.append(sq - 8)
    if r < 7:
        out.append(sq + 8)
    return out


NBRS = [neighbours(i) for i in range(64)]


def color_of(ch):
    if ch == " ":
        return None
    return GOLD if ch.isupper() else SILVER


def strength(ch):
    return STRENGTH[ch.upper()]


def short_str(cells):
    return "[" + "".join(cells[r * 8 + f] for r in range(7, -1, -1) for f in range(8)) + "]"


def cells_of(pos):
    s = pos.board_to_str("short")
    assert s[0] == "[" and s[-1] == "]" and len(s) == 66, s
    body = s[1:-1]
    cells = [" "] * 64
    for place, ch in enumerate(body):
        cells[(7 - place // 8) * 8 + place % 8] = ch
    return cells


def pos_of(side, cells):
    return pb.parse_short_pos(side, 4, short_str(cells))


def piece_count(cells):
    return sum(1 for c in cells if c != " ")


def available(cells, col):
    """piece letters (upper case) that colour col may still add"""
    out = []
    for p, lim in PIECE_LIMITS.items():
        ch = p if col == GOLD else p.lower()
        n = cells.count(ch)
        out.extend([p] * (lim - n))
    return out


def piece_ch(p, col):
    return p if col == GOLD else p.lower()


def problems(cells):
    """None when the board is an acceptable start-of-turn board"""
    for p, lim in PIECE_LIMITS.items():
        if cells.count(p) > lim or cells.count(p.lower()) > lim:
            return "too many " + p
    if not any(c.isupper() for c in cells) or not any(c.islower() for c in cells):
        return "a side has no pieces"
    if "R" in cells[56:64] or "r" in cells[0:8]:
        return "goal"
    for t in TRAPS:
        c = cells[t]
        if c != " ":
            col = color_of(c)
            if not any(color_of(cells[n]) == col for n in NBRS[t]):
                return "unguarded piece on trap"
    return None


def is_frozen(cells, sq):
    c = cells[sq]
    col = color_of(c)
    friend = enemy_stronger = False
    for n in NBRS[sq]:
        d = cells[n]
        if d == " ":
            continue
        if color_of(d) == col:
            friend = True
        elif strength(d) > strength(c):
            enemy_stronger = True
    return enemy_stronger and not friend


def features(side, cells):
    n = piece_count(cells)
    frozen = sum(1 for i in range(64) if cells[i] != " " and is_frozen(cells, i))
    on_trap = sum(1 for t in TRAPS if cells[t] != " ")
    # mover rabbit one step from goal
    if side == GOLD:
        mover_near = "R" in cells[48:56]
        opp_near = "r" in cells[8:16]
    else:
        mover_near = "r" in cells[8:16]
        opp_near = "R" in cells[48:56]
    return dict(n=n, frozen=frozen, on_trap=on_trap, mover_near=mover_near, opp_near=opp_near)


# ---------------------------------------------------------------------------
# games
# ---------------------------------------------------------------------------


def random_setup_cells(rng):
    g = list("RRRRRRRRCCDDHHME")
    s = list("rrrrrrrrccddhhme")
    rng.shuffle(g)
    rng.shuffle(s)
    cells = [" "] * 64
    for i, p in enumerate(g):
        cells[i] = p  # a1..h2
    for i, p in enumerate(s):
        cells[48 + i] = p  # a7..h8
    return cells


def play_game(start, game_seed, max_turns=GAME_TURN_LIMIT):
    """Play with get_rnd_step_move.  pyrimaa uses the global random module,
    so it is reseeded per game for reproducibility."""
    random.seed(game_seed)
    turns = []
    pos = start
    while True:
        end = pos.is_end_state()
        if end:
            return turns, pos, end
        if len(turns) >= max_turns:
            return turns, pos, None
        steps, nxt = pos.get_rnd_step_move()
        assert steps is not None
        turns.append((pos, tuple(steps), nxt))
        pos = nxt


def end_reason(pos):
    if pos.is_goal():
        return "goal"
    if pos.is_rabbit_loss():
        return "elimination"
    assert len(pos.get_steps()) == 0
    return "immobilization"


# ---------------------------------------------------------------------------
# turn analysis (for moves.txt)
# ---------------------------------------------------------------------------


def analyse_turn(pos, steps):
    """Return (notation, after_pos, info dict)"""
    notation = pos.steps_to_str(steps)
    info = dict(nsteps=len(steps), enemy_steps=0, pull=0, push=0, capture=0,
                capture_in_push=0, guard_left_own=0, guard_left_enemy=0,
                capture_on_dest=0, goal=False)
    cur = pos
    mover = pos.color
    for st in steps:
        before = cells_of(cur)
        mover_piece_col = color_of(before[st[0]])
        was_pull_possible = cur.last_piece != pb.Piece.EMPTY and cur.last_from == st[1]
        nxt = cur.do_step(st)
        after = cells_of(nxt)
        # captures caused by this step
        for t in TRAPS:
            if before[t] != " " and after[t] == " " and t != st[0]:
                info["capture"] += 1
                if t == st[1]:
                    pass
                else:
                    if color_of(before[t]) == mover:
                        info["guard_left_own"] += 1
                    else:
                        info["guard_left_enemy"] += 1
                if nxt.inpush:
                    info["capture_in_push"] += 1
            if t == st[1] and after[t] == " ":
                info["capture"] += 1
                info["capture_on_dest"] += 1
                if nxt.inpush:
                    info["capture_in_push"] += 1
        if mover_piece_col != mover:
            info["enemy_steps"] += 1
            if nxt.inpush:
                info["push"] += 1
            else:
                assert was_pull_possible
                info["pull"] += 1
        cur = nxt
    after_pos = pos.do_move(list(steps))
    # consistency checks: notation capture tokens, replay through parse_move
    ntok = sum(1 for tok in notation.split() if tok.endswith("x"))
    assert ntok == info["capture"], (notation, info)
    replay = pos.do_move(pb.parse_move(notation))
    assert replay.bitBoards == after_pos.bitBoards
    assert after_pos.color != pos.color and after_pos.stepsLeft == 4
    info["goal"] = bool(after_pos.is_goal())
    return notation, after_pos, info


# ---------------------------------------------------------------------------
# constructed positions
# ---------------------------------------------------------------------------


def thin(rng, cells, n_target):
    cells = list(cells)
    occ = [i for i in range(64) if cells[i] != " "]
    rng.shuffle(occ)
    for sq in occ:
        if piece_count(cells) <= n_target:
            break
        col = color_of(cells[sq])
        if sum(1 for c in cells if c != " " and color_of(c) == col) <= 1:
            continue
        cells[sq] = " "
    return cells


def random_sparse(rng, npieces):
    cells = [" "] * 64
    # pieces clustered around a random centre most of the time
    cf, cr = rng.randrange(8), rng.randrange(8)
    cols = [GOLD, SILVER] + [rng.randrange(2) for _ in range(npieces - 2)]
    for col in cols:
        for _ in range(50):
            if rng.random() < 0.75:
                f = min(7, max(0, cf + rng.randint(-2, 2)))
                r = min(7, max(0, cr + rng.randint(-2, 2)))
                sq = r * 8 + f
            else:
                sq = rng.randrange(64)
            if cells[sq] == " ":
                break
        else:
            continue
        avail = available(cells, col)
        # bias towards rabbits a bit (they have the special rules)
        p = "R" if rng.random() < 0.3 and "R" in avail else rng.choice(avail)
        cells[sq] = piece_ch(p, col)
    return cells


def place_random(rng, cells, col, squares, types=None):
    """put a random piece of colour col on one of squares (if any empty)"""
    sqs = [s for s in squares if cells[s] == " "]
    if not sqs:
        return None
    avail = available(cells, col)
    if types is not None:
        avail = [p for p in avail if p in types]
    if not avail:
        return None
    sq = rng.choice(sqs)
    cells[sq] = piece_ch(rng.choice(avail), col)
    return sq


def rabbit_stress(rng, base):
    cells = list(base)
    col = rng.randrange(2)
    # ranks (0-based) 1,2,5,6 = ranks 2,3,6,7; near-goal rank more likely
    near_goal = 6 if col == GOLD else 1
    rank = rng.choice([near_goal, near_goal, near_goal, 1, 2, 5, 6])
    f = rng.randrange(8)
    sq = rank * 8 + f
    cells[sq] = " "
    for n in NBRS[sq]:
        if rng.random() < 0.5:
            cells[n] = " "
    if cells.count(piece_ch("R", col)) >= 8:
        return None
    cells[sq] = piece_ch("R", col)
    enemy = col ^ 1
    for _ in range(rng.choice([1, 1, 2])):
        place_random(rng, cells, enemy, NBRS[sq], types="CDHME")
    if rng.random() < 0.4:
        place_random(rng, cells, col, NBRS[sq])
    if rng.random() < 0.5:
        # an enemy rabbit near its own goal as well
        erank = 1 if enemy == SILVER else 6
        esq = erank * 8 + rng.randrange(8)
        if cells[esq] == " " and cells.count(piece_ch("R", enemy)) < 8:
            cells[esq] = piece_ch("R", enemy)
            place_random(rng, cells, col, NBRS[esq], types="CDHME")
    # occasionally a rabbit directly in front of another on the goal side
    if rng.random() < 0.3:
        place_random(rng, cells, rng.randrange(2), [s for s in range(64) if s // 8 in (0, 1, 6, 7)])
    return cells


def trap_one_guard(rng, base):
    cells = list(base)
    t = rng.choice(TRAPS)
    col = rng.randrange(2)
    cells[t] = " "
    for n in NBRS[t]:
        if color_of(cells[n]) == col or rng.random() < 0.3:
            cells[n] = " "
    avail = available(cells, col)
    if len(avail) < 2:
        return None
    cells[t] = piece_ch(rng.choice(avail), col)
    g = rng.choice(NBRS[t])
    cells[g] = " "
    avail = available(cells, col)
    cells[g] = piece_ch(rng.choice(avail), col)
    enemy = col ^ 1
    for _ in range(rng.choice([1, 2, 2, 3])):
        target = rng.choice([g, g, t])
        place_random(rng, cells, enemy, NBRS[target])
    if rng.random() < 0.3:
        # a second trap with one guard for the other side
        t2 = rng.choice([x for x in TRAPS if x != t])
        if cells[t2] == " " and not any(cells[n] != " " for n in NBRS[t2]):
            c2 = rng.randrange(2)
            g2 = rng.choice(NBRS[t2])
            if available(cells, c2):
                place_random(rng, cells, c2, [t2])
                place_random(rng, cells, c2, [g2])
                place_random(rng, cells, c2 ^ 1, NBRS[g2])
    guards = sum(1 for n in NBRS[t] if color_of(cells[n]) == col)
    if guards != 1:
        return None
    return cells


def frozen_construct(rng):
    """side to move has few pieces, each (ideally) frozen or blocked"""
    side = rng.randrange(2)
    enemy = side ^ 1
    cells = [" "] * 64
    k = rng.choice([1, 1, 2, 2, 3, 4])
    for _ in range(k):
        p = rng.choice("RRRRCCDDHM")
        if p not in available(cells, side):
            continue
        for _ in range(30):
            sq = rng.randrange(64)
            if cells[sq] != " " or sq in TRAPS:
                continue
            if any(color_of(cells[n]) == side for n in NBRS[sq]):
                continue
            break
        else:
            continue
        cells[sq] = piece_ch(p, side)
        stronger = [q for q in "CDHME" if STRENGTH[q] > STRENGTH[p]]
        if rng.random() < 0.25 and p == "R":
            # rabbit blocked by anything (incl. enemy rabbits) on its
            # forward/side squares
            fwd = 8 if side == GOLD else -8
            for n in NBRS[sq]:
                if n - sq == -fwd:
                    continue
                if cells[n] == " ":
                    place_random(rng, cells, enemy, [n], types="RRRRC")
        else:
            place_random(rng, cells, enemy, NBRS[sq], types=stronger)
    # a few other enemy pieces, maybe blocking
    for _ in range(rng.choice([0, 1, 2, 3])):
        occ = [i for i in range(64) if color_of(cells[i]) == side]
        if not occ:
            break
        target = rng.choice(occ)
        place_random(rng, cells, enemy, NBRS[target])
    if rng.random() < 0.5:
        place_random(rng, cells, enemy, range(64), types="R")
    return side, cells


# ---------------------------------------------------------------------------
# main
# ---------------------------------------------------------------------------


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default=os.path.dirname(os.path.abspath(__file__)))
    args = ap.parse_args()
    out = args.out
    os.makedirs(out, exist_ok=True)
    rng = random.Random(SEED)

    # ------------------------------------------------------------------ games
    log(f"playing {N_POOL_GAMES} random games (pyrimaa {metadata.version('aei')})")
    games = []  # dicts
    for k in range(N_POOL_GAMES):
        if k % BASIC_EVERY == 0:
            start = pb.Position(GOLD, 4, pb.BASIC_SETUP)
            kind = "basic"
        else:
            start = pos_of(GOLD, random_setup_cells(rng))
            kind = "random"
        game_seed = SEED * 1000 + k
        turns, final, end = play_game(start, game_seed)
        games.append(dict(k=k, kind=kind, seed=game_seed, start=start, turns=turns,
                          final=final, end=end,
                          reason=end_reason(final) if end else None))
    n_ended = sum(1 for g in games if g["end"])
    lens = sorted(len(g["turns"]) for g in games)
    reasons = {}
    for g in games:
        reasons[g["reason"]] = reasons.get(g["reason"], 0) + 1
    log(f"games done: {n_ended} ended, turns min/median/max "
        f"{lens[0]}/{lens[len(lens) // 2]}/{lens[-1]}, reasons {reasons}")

    # ------------------------------------------------- turn_counts candidates
    seen = set()
    entries = []  # (category, pos)
    cat_order = []

    def key_of(pos):
        return (pos.color, pos.board_to_str("short"))

    def add(cat, pos):
        assert pos.stepsLeft == 4 and not pos.inpush
        k = key_of(pos)
        if k in seen:
            return False
        cells = cells_of(pos)
        pr = problems(cells)
        if pr is not None:
            return False
        # round-trip through the short format
        rt = pb.parse_short_pos(pos.color, 4, k[1])
        assert rt.bitBoards == pos.bitBoards, k
        if cat not in cat_order:
            cat_order.append(cat)
        seen.add(k)
        entries.append((cat, rt))
        return True

    pool = []  # (game index, ply, pos, features)
    for gi, g in enumerate(games):
        for ply, (pos, _, _) in enumerate(g["turns"]):
            pool.append((gi, ply, pos, features(pos.color, cells_of(pos))))
    log(f"position pool: {len(pool)} start-of-turn positions")

    def take(cat, cands, n):
        cands = list(cands)
        rng.shuffle(cands)
        got = 0
        for c in cands:
            if got >= n:
                break
            if add(cat, c[2]):
                got += 1
        return got

    take("game: uniform sample of all plies", pool, 300)
    take("game-opening (plies 0-1)", [c for c in pool if c[1] <= 1], 260)
    take("game-opening (plies 2-7)", [c for c in pool if 2 <= c[1] <= 7], 200)
    take("game 25-32 pieces", [c for c in pool if c[1] > 7 and c[3]["n"] >= 25], 170)
    take("game 17-24 pieces", [c for c in pool if c[1] > 7 and 17 <= c[3]["n"] <= 24], 300)
    take("game 9-16 pieces", [c for c in pool if c[1] > 7 and 9 <= c[3]["n"] <= 16], 300)
    take("game 2-8 pieces", [c for c in pool if c[3]["n"] <= 8], 120)
    take("game: mover rabbit on 7th rank", [c for c in pool if c[3]["mover_near"]], 100)
    take("game: opponent rabbit on 7th rank", [c for c in pool if c[3]["opp_near"]], 80)
    take("game: piece on trap", [c for c in pool if c[3]["on_trap"]], 100)
    take("game: >=3 frozen pieces", [c for c in pool if c[3]["frozen"] >= 3], 80)
    # few first steps needs get_steps: only check a sample
    few = []
    cand = list(pool)
    rng.shuffle(cand)
    for c in cand[:8000]:
        if c[3]["n"] <= 20 and len(c[2].get_steps()) <= 6:
            few.append(c)
    take("game: mover has <=6 steps", few, 80)
    finals = [(0, 0, g["final"], None) for g in games if g["reason"] == "immobilization"]
    take("game final: immobilized (0 turns)", finals, 40)
    log(f"game positions selected: {len(entries)}")

    # thinned game positions
    cand = [c for c in pool if c[3]["n"] >= 8]
    got = tries = 0
    while got < 260 and tries < 20000:
        tries += 1
        c = rng.choice(cand)
        cells = thin(rng, cells_of(c[2]), rng.choice([2, 3, 4, 5, 6, 7, 8, 10, 12]))
        if problems(cells) is None and add("thinned game position (2-12 pieces)",
                                           pos_of(rng.randrange(2), cells)):
            got += 1
    # random sparse boards
    got = tries = 0
    while got < 260 and tries < 20000:
        tries += 1
        cells = random_sparse(rng, rng.choice([2, 2, 3, 3, 4, 4, 5, 6]))
        if problems(cells) is None and add("random sparse (2-6 pieces)",
                                           pos_of(rng.randrange(2), cells)):
            got += 1
    # rabbit stress
    got = tries = 0
    while got < 220 and tries < 20000:
        tries += 1
        if rng.random() < 0.5:
            base = thin(rng, cells_of(rng.choice(cand)[2]), rng.choice([0, 2, 4, 6, 8, 12]))
        else:
            base = random_sparse(rng, rng.choice([2, 3, 4]))
        cells = rabbit_stress(rng, base)
        if cells is not None and problems(cells) is None and add(
                "rabbits on ranks 2/3/6/7 next to enemies", pos_of(rng.randrange(2), cells)):
            got += 1
    # traps with exactly one guard
    got = tries = 0
    while got < 200 and tries < 20000:
        tries += 1
        if rng.random() < 0.5:
            base = thin(rng, cells_of(rng.choice(cand)[2]), rng.choice([2, 4, 6, 8, 12, 16]))
        else:
            base = random_sparse(rng, rng.choice([2, 3, 4]))
        cells = trap_one_guard(rng, base)
        if cells is not None and problems(cells) is None and add(
                "piece on trap with exactly one guard", pos_of(rng.randrange(2), cells)):
            got += 1
    # frozen / immobilised side to move
    got0 = got_few = tries = 0
    while (got0 < 70 or got_few < 70) and tries < 200000:
        tries += 1
        side, cells = frozen_construct(rng)
        if problems(cells) is not None:
            continue
        pos = pos_of(side, cells)
        ns = len(pos.get_steps())
        if ns == 0 and got0 < 70:
            if add("constructed: side to move immobilised (0 steps)", pos):
                got0 += 1
        elif 1 <= ns <= 4 and got_few < 70:
            if add("constructed: side to move has 1-4 steps", pos):
                got_few += 1
    log(f"constructed positions done ({len(entries)} candidates total, frozen tries {tries})")
    # keep every category contiguous in the file (stable sort by first appearance)
    entries.sort(key=lambda e: cat_order.index(e[0]))

    # ------------------------------------------------------ count the turns
    results = []  # (cat, pos, nturns, nsteps)
    extra_moves = []  # (pos, steps) random keys of get_moves
    skipped_big = 0
    t_moves = 0.0
    worst = (0.0, None)
    for i, (cat, pos) in enumerate(entries):
        t0 = time.perf_counter()
        moves = pos.get_moves()
        dt = time.perf_counter() - t0
        t_moves += dt
        if dt > worst[0]:
            worst = (dt, len(moves))
        if len(moves) > MAX_TURNS:
            skipped_big += 1
            continue
        nsteps = len(pos.get_steps())
        results.append((cat, pos, len(moves), nsteps))
        if moves and i % 5 == 0:
            bylen = {}
            for mpos, msteps in moves.items():
                bylen.setdefault(len(msteps), []).append(msteps)
            ln = rng.choice(sorted(bylen))
            extra_moves.append((pos, rng.choice(bylen[ln])))
        if (i + 1) % 250 == 0:
            log(f"  counted {i + 1}/{len(entries)} positions, get_moves time {t_moves:.1f}s")
    log(f"turn counting: {len(results)} positions, {skipped_big} skipped (> {MAX_TURNS}), "
        f"get_moves total {t_moves:.1f}s, slowest {worst[0]:.2f}s ({worst[1]} turns)")

    cats = []
    for cat, _, _, _ in results:
        if cat not in cats:
            cats.append(cat)
    ranges = {}
    for idx, (cat, _, _, _) in enumerate(results, 1):
        lo, hi = ranges.get(cat, (idx, idx))
        ranges[cat] = (min(lo, idx), max(hi, idx))
    counts = [r[2] for r in results]
    with open(os.path.join(out, "turn_counts.txt"), "w") as fh:
        fh.write("# Tusk differential-test fixture: distinct legal turns per position.\n")
        fh.write(f"# Generated by tests/data/gen_fixtures.py (seed {SEED}) with pyrimaa.board "
                 f"from aei {metadata.version('aei')}, Python {sys.version.split()[0]}.\n")
        fh.write("# Every position is at the start of a turn (4 steps left, no pending push).\n")
        fh.write("# Line format: <side> [<64 cells>] <distinct_turns> <first_steps>\n")
        fh.write("#   side: g or s (side to move).\n")
        fh.write("#   board: pyrimaa board_to_str('short'): '[' + 64 cells + ']', rank 8 first,\n")
        fh.write("#     files a..h within a rank; ' ' empty, RCDHME gold, rcdhme silver.\n")
        fh.write("#     The board contains spaces: locate it by the brackets.\n")
        fh.write("#   distinct_turns: len(pos.get_moves()) = number of distinct positions\n")
        fh.write("#     reachable by a legal turn of 1-4 steps (the null turn excluded).\n")
        fh.write("#   first_steps: len(pos.get_steps()) = legal first steps: own single steps\n")
        fh.write("#     plus first halves of pushes (enemy piece moved one square).\n")
        fh.write("# Positions where a side has already reached goal are excluded; positions\n")
        fh.write("# where a side has no rabbits or no moves are kept (counts only).\n")
        fh.write(f"# {len(results)} positions, distinct_turns min {min(counts)} median "
                 f"{statistics.median(counts)} max {max(counts)}.\n")
        fh.write("# Data line ranges by category (1-based index among data lines):\n")
        for cat in cats:
            lo, hi = ranges[cat]
            fh.write(f"#   {lo:5d}-{hi:5d} ({hi - lo + 1:4d}) {cat}\n")
        for cat, pos, nt, ns in results:
            fh.write(f"{SIDE_CH[pos.color]} {pos.board_to_str('short')} {nt} {ns}\n")
    log("wrote turn_counts.txt")
    for cat in cats:
        cs = [r[2] for r in results if r[0] == cat]
        log(f"  {cat}: {len(cs)} positions, turns min/median/max "
            f"{min(cs)}/{statistics.median(cs)}/{max(cs)}")
    log(f"  ALL: {len(results)} positions, turns min/median/max "
        f"{min(counts)}/{statistics.median(counts)}/{max(counts)}, "
        f"zero-turn positions {sum(1 for c in counts if c == 0)}")

    # ------------------------------------------------------------ moves.txt
    turn_pool = []
    for g in games:
        for pos, steps, _ in g["turns"]:
            turn_pool.append((pos, steps))
    analysed = []
    for pos, steps in turn_pool:
        notation, after, info = analyse_turn(pos, steps)
        analysed.append((pos, notation, after, info))
    log(f"analysed {len(analysed)} played turns")
    chosen = []
    chosen_keys = set()
    sel_counts = []

    def pick(label, pred, n, src):
        cands = [a for a in src if pred(a[3])]
        rng.shuffle(cands)
        got = 0
        for a in cands:
            if got >= n:
                break
            k = (a[0].color, a[0].board_to_str("short"), a[1])
            if k in chosen_keys:
                continue
            chosen_keys.add(k)
            chosen.append(a)
            got += 1
        sel_counts.append((label, got, len(cands)))

    pick("capture while a push is under way", lambda i: i["capture_in_push"] > 0, 70, analysed)
    pick("own guard steps away from a trap", lambda i: i["guard_left_own"] > 0, 50, analysed)
    pick("enemy guard pushed/pulled away from a trap", lambda i: i["guard_left_enemy"] > 0, 50,
         analysed)
    pick("two or more captures", lambda i: i["capture"] >= 2, 30, analysed)
    pick("piece steps onto unguarded trap", lambda i: i["capture_on_dest"] > 0, 50, analysed)
    pick("pull", lambda i: i["pull"] > 0, 70, analysed)
    pick("push", lambda i: i["push"] > 0, 70, analysed)
    pick("push and pull in one turn", lambda i: i["push"] > 0 and i["pull"] > 0, 25, analysed)
    pick("1-step turn", lambda i: i["nsteps"] == 1, 40, analysed)
    pick("2-step turn", lambda i: i["nsteps"] == 2, 40, analysed)
    pick("3-step turn", lambda i: i["nsteps"] == 3, 40, analysed)
    pick("turn ends with a rabbit on goal", lambda i: i["goal"], 40, analysed)
    pick("any other played turn", lambda i: True, 200, analysed)
    n_played = len(chosen)
    extra = []
    for pos, steps in extra_moves:
        notation, after, info = analyse_turn(pos, steps)
        extra.append((pos, notation, after, info))
    pick("random key of get_moves() (steps as returned)", lambda i: True, 400, extra)
    totals = dict(capture=0, pushpull=0, s1=0, s2=0, s3=0, s4=0, cip=0, guard=0)
    for _, notation, _, info in chosen:
        totals["capture"] += info["capture"] > 0
        totals["pushpull"] += info["enemy_steps"] > 0
        totals["s%d" % info["nsteps"]] += 1
        totals["cip"] += info["capture_in_push"] > 0
        totals["guard"] += (info["guard_left_own"] + info["guard_left_enemy"]) > 0
    with open(os.path.join(out, "moves.txt"), "w") as fh:
        fh.write("# Tusk differential-test fixture: legal turns in official notation.\n")
        fh.write(f"# Generated by tests/data/gen_fixtures.py (seed {SEED}) with pyrimaa.board "
                 f"from aei {metadata.version('aei')}.\n")
        fh.write("# Line format (3 TAB-separated fields):\n")
        fh.write("#   <side> [<64 cells before>] TAB <move> TAB [<64 cells after>]\n")
        fh.write("# side = side to move before the turn; boards in pyrimaa short format (see\n")
        fh.write("# turn_counts.txt); after = position after the whole turn (other side to\n")
        fh.write("# move). move = pyrimaa steps_to_str(): steps like Ee2n, pushes/pulls move\n")
        fh.write("# the enemy piece with its own letter, captures as e.g. rc3x right after\n")
        fh.write("# the step that caused them.\n")
        fh.write(f"# {len(chosen)} turns: {n_played} played in random games "
                 f"(get_rnd_step_move), {len(chosen) - n_played} random get_moves() keys.\n")
        fh.write(f"# with capture {totals['capture']}, with push/pull {totals['pushpull']}, "
                 f"capture during a push {totals['cip']}, capture by a guard leaving "
                 f"{totals['guard']}, steps 1/2/3/4: {totals['s1']}/{totals['s2']}/"
                 f"{totals['s3']}/{totals['s4']}\n")
        fh.write("# Selection buckets, in file order (selected / candidates):\n")
        for label, got, nc in sel_counts:
            fh.write(f"#   {got:4d} / {nc:6d}  {label}\n")
        for pos, notation, after, info in chosen:
            fh.write(f"{SIDE_CH[pos.color]} {pos.board_to_str('short')}\t{notation}\t"
                     f"{after.board_to_str('short')}\n")
    log(f"wrote moves.txt: {len(chosen)} turns {totals}")
    for label, got, nc in sel_counts:
        log(f"  {label}: {got} / {nc}")

    # ------------------------------------------------------------ games.txt
    quota = {"immobilization": 4, "elimination": 6, "goal": 30}
    sel = []
    used = {"immobilization": 0, "elimination": 0, "goal": 0}
    basic_used = 0
    # make sure two games from BASIC_SETUP are in
    for g in games:
        if g["end"] and g["kind"] == "basic" and basic_used < 2 and g["reason"] == "goal":
            sel.append(g)
            used["goal"] += 1
            basic_used += 1
    for reason in ("immobilization", "elimination"):
        for g in games:
            if g["end"] and g["reason"] == reason and used[reason] < quota[reason] and g not in sel:
                sel.append(g)
                used[reason] += 1
    for g in games:
        if len(sel) >= 30:
            break
        if g["end"] and g["reason"] == "goal" and g not in sel:
            sel.append(g)
    sel.sort(key=lambda g: g["k"])
    with open(os.path.join(out, "games.txt"), "w") as fh:
        fh.write("# Tusk differential-test fixture: complete random games.\n")
        fh.write(f"# Generated by tests/data/gen_fixtures.py (seed {SEED}) with pyrimaa.board "
                 f"from aei {metadata.version('aei')}.\n")
        fh.write("# Every turn is pyrimaa's get_rnd_step_move(); a game stops when\n")
        fh.write("# is_end_state() is non-false (checked before each turn). pyrimaa does not\n")
        fh.write("# apply the third-repetition rule.\n")
        fh.write("# Block format:\n")
        fh.write("#   # game N result <g|s> <goal|elimination|immobilization>\n")
        fh.write("#   1g <gold setup>   e.g. 1g Ra1 Rb1 ... (placements)\n")
        fh.write("#   1s <silver setup>\n")
        fh.write("#   2g <move>  2s <move>  3g ...  (one turn per line, official notation)\n")
        fh.write("#   final <side to move> [<64 cells>]\n")
        fh.write("#   (blank line)\n")
        fh.write("# Source of each game (pool game index, setup, random.seed before play):\n")
        for n, g in enumerate(sel, 1):
            fh.write(f"#   source of game {n}: pool game {g['k']}, {g['kind']} setup, "
                     f"seed {g['seed']}, {len(g['turns'])} turns\n")
        for n, g in enumerate(sel, 1):
            res = "g" if g["end"] > 0 else "s"
            fh.write(f"# game {n} result {res} {g['reason']}\n")
            gold_setup, silver_setup = g["start"].to_placing_move()
            fh.write("1g " + " ".join(gold_setup.split()[1:]) + "\n")
            fh.write("1s " + " ".join(silver_setup.split()[1:]) + "\n")
            for i, (pos, steps, nxt) in enumerate(g["turns"]):
                num = 2 + i // 2
                side = "gs"[i % 2]
                assert SIDE_CH[pos.color] == side
                fh.write(f"{num}{side} {pos.steps_to_str(steps)}\n")
            fin = g["final"]
            fh.write(f"final {SIDE_CH[fin.color]} {fin.board_to_str('short')}\n\n")
    rs = {}
    for g in sel:
        rs[g["reason"]] = rs.get(g["reason"], 0) + 1
    log(f"wrote games.txt: {len(sel)} games {rs}")
    log(f"total time {time.perf_counter() - T_START:.1f}s")


if __name__ == "__main__":
    main()
