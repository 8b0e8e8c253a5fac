//! Elephant blockades valued as structures: the enemy elephant walled in by pieces it can
//! neither step past, push nor pull, valued by where it is held, what the wall ties down on
//! both sides and the steps the enemy needs to break it.
//!
//! **The blockade** ([`blockade`], sharp's `findEBlockade`): from the enemy elephant, each
//! neighbour in a fixed order (towards the board's middle rank first, then towards its
//! middle file, then towards the near edge file, then towards the near edge rank) must hold:
//! a piece of ours at least as strong as the piece that would push it (our elephant against
//! the elephant), or one that has no empty neighbour (it cannot be pushed; its own neighbours
//! hold it, a phalanx), or an enemy piece whose own way out is held the same way
//! (recursively, against its strength), or a trap the enemy does not guard twice. An empty
//! neighbour of the elephant, or a piece of ours with one empty neighbour, is allowed (the
//! blockade is *loose*) when a piece as strong as the elephant standing there would still be
//! held. The first direction must hold; by which of the others fail the blockade is
//! **total** (none, and never loose), **almost** total (only the last, or some loosely),
//! **central** (the second or the third) or **weakly central** (both the second and the
//! third, the elephant on the fourth or fifth rank on or beside an edge file, with a closed
//! square on one of those two ways). The **held** pieces are every piece the walk counted,
//! the elephant included.
//!
//! **The value** (sharp's `Blockades::evalEleBlockade`, in sharp's units, a rabbit about
//! 1,000, then in centirabbits): a base by the elephant's square (highest on the back ranks
//! of our side and the edges), plus the enemy rabbits inside the wall by their rank, less
//! the enemy's strong pieces near the blockade (free to break it), plus the enemy's rabbits
//! near it (sharp's reading: targets, and pieces the enemy cannot spare), less what our
//! holders cost by their rank, plus our elephant and our strongest pieces far from the
//! blockade (free to act elsewhere), plus our control of the traps; times a factor by the
//! steps the enemy needs to break the wall (and whose turn it is), by the pieces we have left
//! free, by our elephant's distance, and by the balance of the strongest free pieces on both
//! sides (sharp's `EMm_BLOCKADE_SFP_FACTOR`), or more where one of our strong holders can be
//! relieved by a weaker piece (a *rotation*: the factor it would free, by the steps it takes;
//! sharp's `fillBlockadeRotationArrays`, single, swarming and chained); cut for the looser
//! kinds, reduced above 4,200.
//!
//! Feature (`blockade_value_pct`, weight in percent), for the blockading side: that value in
//! rabbits. Ships at 47 (round 19); part of the elephant line of the breakdown.
//!
//! The tables and constants are sharp's (`eval/blockades.cpp`, `eval/strats.cpp`, David Wu);
//! the code is Tusk's own. Differences: a rotation's steps are the piece's unfreezing
//! distance, its distance and a step to make room (sharp's `traverseDist` also prices each
//! square on the way), ties go to the weaker piece and chained rotations are found from the
//! single ones as first found (sharp takes its square order and updates in place: not colour
//! symmetric). Not ported: its fear of bait-and-tackle (a value that depends on which side is
//! searching, so not colour symmetric) and the overlap it subtracts with the hostages, frames
//! and elephant mobility it also counts (in Tusk the terms add up and the fitted weights share
//! it out). Sharp's walk also collects pieces it would need frozen, but
//! every path that fills that set ends in a failure whose maps it throws away, so it is
//! always empty and is left out here.

use tusk_engine::{Bitboard, Color, PieceKind, Position, Square, ADJACENT_TRAP, NEIGHBOURS};

use crate::hostage_threat::{is_open, is_open_to_push, is_open_to_step};
use crate::sfp::{approach_distance, from_side, kind_at};
use crate::trap_influence::steps_to_free;
use crate::weights::{id, Weights};
use crate::{Context, Sink};

/// How tightly a blockade holds (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BlockadeKind {
    /// Every way out held, none loose.
    Total,
    /// Every way out but the last held, or some held only loosely.
    Almost,
    /// The way to the middle rank held, and one of the next two (towards the middle file,
    /// towards the near edge file).
    Central,
    /// The way to the middle rank held but neither of the next two, the elephant on the
    /// fourth or fifth rank on or beside an edge file.
    CentralWeak,
}

/// A blockade found by [`blockade`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Blockade {
    /// The enemy elephant's square.
    pub elephant: Square,
    /// How tightly it holds.
    pub kind: BlockadeKind,
    /// The pieces of both sides the wall counts, the elephant included.
    pub held: Bitboard,
    /// Every square the walk looked at (pieces, empty squares and traps).
    pub walked: Bitboard,
}

/// The four ways out of a square in the order the walk tries them, `None` where a way would
/// leave the board (sharp's `CENTRAL_ADJ_1`, `CENTRAL_ADJ_2`, `EDGE_ADJ_1`, `EDGE_ADJ_2`).
fn ways(sq: Square) -> [Option<Square>; 4] {
    let (file, rank) = (sq.file(), sq.rank());
    let at = |f: u8, r: u8| Some(Square::new(f, r));
    let edge_file = file <= 1 || file >= 6;
    let inward_file = if file <= 3 { file + 1 } else { file - 1 };
    let towards_middle_rank = match rank {
        3 | 4 if edge_file => at(inward_file, rank),
        0..=3 => at(file, rank + 1),
        _ => at(file, rank - 1),
    };
    let towards_middle_file = match rank {
        3 if edge_file => at(file, 4),
        4 if edge_file => at(file, 3),
        _ => at(inward_file, rank),
    };
    let towards_edge_file = match file {
        0 | 7 => None,
        1..=3 => at(file - 1, rank),
        _ => at(file + 1, rank),
    };
    let towards_edge_rank = match rank {
        0 | 7 => None,
        1..=3 => at(file, rank - 1),
        _ => at(file, rank + 1),
    };
    [
        towards_middle_rank,
        towards_middle_file,
        towards_edge_file,
        towards_edge_rank,
    ]
}

/// The sets the walk fills, copied and restored as sharp does when a branch fails.
#[derive(Clone, Copy)]
struct Walk {
    /// Squares of our pieces the walk may look at again (with a stronger pusher).
    recheck: Bitboard,
    /// Every square looked at.
    walked: Bitboard,
    /// The squares that hold the blockade (empty ones filtered out at the end).
    held: Bitboard,
}

/// The board as the walk sees it: a mailbox it may change (a stand-in piece on an empty
/// square, a piece of ours pushed aside) and put back, beside the real position's piece
/// sets and trap guards, which, as in sharp, it does not update.
struct Board<'a> {
    pos: &'a Position,
    /// The holding side.
    side: Color,
    cells: [Option<(Color, PieceKind)>; 64],
    /// Each side's guards of each trap of [`Square::TRAPS`] in the real position.
    guards: [[u8; 4]; 2],
}

impl<'a> Board<'a> {
    fn new(pos: &'a Position, side: Color) -> Board<'a> {
        let mut cells = [None; 64];
        for sq in pos.occupied() {
            let p = pos.piece_at(sq).expect("occupied");
            cells[sq.index()] = Some((p.color(), p.kind()));
        }
        let mut guards = [[0; 4]; 2];
        for (t, trap) in Square::TRAPS.into_iter().enumerate() {
            for c in Color::ALL {
                guards[c.index()][t] =
                    (NEIGHBOURS[trap.index()] & pos.occupied_by(c)).count() as u8;
            }
        }
        Board {
            pos,
            side,
            cells,
            guards,
        }
    }

    fn owner(&self, sq: Square) -> Option<Color> {
        self.cells[sq.index()].map(|(c, _)| c)
    }

    fn kind(&self, sq: Square) -> Option<PieceKind> {
        self.cells[sq.index()].map(|(_, k)| k)
    }

    fn neighbours(sq: Square) -> impl Iterator<Item = Square> {
        NEIGHBOURS[sq.index()].into_iter()
    }

    fn count_open(&self, sq: Square) -> usize {
        Self::neighbours(sq)
            .filter(|&n| self.cells[n.index()].is_none())
            .count()
    }

    /// The first empty neighbour in sharp's order (south, west, east, north).
    fn find_open(&self, sq: Square) -> Option<Square> {
        let (file, rank) = (sq.file(), sq.rank());
        let candidates = [
            (rank > 0).then(|| Square::new(file, rank.wrapping_sub(1))),
            (file > 0).then(|| Square::new(file.wrapping_sub(1), rank)),
            (file < 7).then(|| Square::new(file + 1, rank)),
            (rank < 7).then(|| Square::new(file, rank + 1)),
        ];
        candidates
            .into_iter()
            .flatten()
            .find(|n| self.cells[n.index()].is_none())
    }

    fn count_owned(&self, sq: Square, c: Color) -> usize {
        Self::neighbours(sq)
            .filter(|&n| self.owner(n) == Some(c))
            .count()
    }

    /// Whether a stronger enemy of the piece on `sq` stands beside it.
    fn is_dominated(&self, sq: Square) -> bool {
        let Some((c, k)) = self.cells[sq.index()] else {
            return false;
        };
        Self::neighbours(sq)
            .any(|n| matches!(self.cells[n.index()], Some((o, ok)) if o != c && ok > k))
    }

    /// Whether the piece on `sq` has an empty neighbour it may step to (its rabbit rule).
    fn is_open_to_step(&self, sq: Square) -> bool {
        let Some((c, k)) = self.cells[sq.index()] else {
            return false;
        };
        Self::neighbours(sq).any(|n| self.cells[n.index()].is_none() && rabbit_may_go(c, k, sq, n))
    }

    /// Whether `c` guards the trap `sq` at least `n` times in the real position (true for
    /// any other square).
    fn trap_safe(&self, c: Color, sq: Square, n: u8) -> bool {
        match Square::TRAPS.iter().position(|&t| t == sq) {
            Some(t) => self.guards[c.index()][t] >= n,
            None => true,
        }
    }

    /// Whether the ways out of `sq` hold against a piece of strength `geq` coming from
    /// `prev` (sharp's `isBlockadeRec`; see the module docs).
    fn holds(
        &mut self,
        geq: PieceKind,
        prev: Square,
        sq: Square,
        walk: &mut Walk,
        allow_loose: bool,
        was_loose: &mut bool,
    ) -> bool {
        if (walk.walked - walk.recheck).contains(sq) {
            return true;
        }
        walk.walked |= Bitboard::from_square(sq);
        let side = self.side;
        let enemy = !side;
        let owner = self.owner(sq);
        if owner != Some(enemy) && !self.trap_safe(enemy, sq, 2) {
            return true;
        }
        let next_ways = |from: Square| ways(from).into_iter().flatten().filter(move |&n| n != prev);
        match owner {
            Some(c) if c == enemy => self.holds_enemy(prev, sq, walk, was_loose),
            None => {
                if !allow_loose {
                    return false;
                }
                self.cells[sq.index()] = Some((enemy, geq));
                *was_loose = true;
                let ok = next_ways(sq)
                    .collect::<SmallSquares>()
                    .iter()
                    .all(|&n| self.holds(geq, sq, n, walk, false, was_loose));
                self.cells[sq.index()] = None;
                ok
            }
            Some(_) => {
                walk.held |= Bitboard::from_square(sq);
                let kind = self.kind(sq).expect("occupied");
                if kind >= geq {
                    return true;
                }
                walk.recheck -= Bitboard::from_square(sq);
                let open = self.count_open(sq);
                if open > 0 {
                    if !allow_loose || open >= 2 {
                        return false;
                    }
                    let to = self.find_open(sq).expect("an empty neighbour");
                    self.cells[to.index()] = self.cells[sq.index()];
                    self.cells[sq.index()] = Some((enemy, geq));
                    *was_loose = true;
                    let ok = next_ways(sq)
                        .collect::<SmallSquares>()
                        .iter()
                        .all(|&n| self.holds(geq, sq, n, walk, false, was_loose));
                    self.cells[sq.index()] = self.cells[to.index()];
                    self.cells[to.index()] = None;
                    return ok;
                }
                if !self.trap_safe(enemy, sq, 3) {
                    walk.held |= around(sq, self.pos.occupied_by(side));
                    return true;
                }
                for n in next_ways(sq).collect::<SmallSquares>().iter().copied() {
                    if self.owner(n) == Some(enemy) {
                        let saved = *walk;
                        let strength = self.kind(n).expect("occupied");
                        if self.holds(strength, sq, n, walk, false, was_loose) {
                            walk.held |= Bitboard::from_square(n);
                        } else {
                            *walk = saved;
                            return false;
                        }
                    } else {
                        walk.held |= Bitboard::from_square(n);
                    }
                }
                true
            }
        }
    }

    /// [`Board::holds`] on an enemy piece: its own ways out must hold against it; when it is
    /// dominated with at most one friend beside it, one way may fail.
    fn holds_enemy(
        &mut self,
        prev: Square,
        sq: Square,
        walk: &mut Walk,
        was_loose: &mut bool,
    ) -> bool {
        let side = self.side;
        let enemy = !side;
        walk.held |= Bitboard::from_square(sq);
        let (mut one_may_fail, mut one_enemy_may_fail) = (false, false);
        if self.is_dominated(sq) {
            match self.count_owned(sq, enemy) {
                0 => one_may_fail = true,
                1 => one_enemy_may_fail = true,
                _ => {}
            }
        }
        let kind = self.kind(sq).expect("occupied");
        if kind == PieceKind::Rabbit && (one_may_fail || one_enemy_may_fail) {
            let ours = around(sq, self.pos.occupied_by(side));
            let behind = sq
                .step(tusk_engine::Direction::backward(enemy))
                .map_or(Bitboard::EMPTY, Bitboard::from_square);
            if one_may_fail {
                if !self.is_open_to_step(sq) {
                    walk.held |= ours - behind;
                    return true;
                }
                if self.count_open(sq) >= 2 {
                    return false;
                }
                walk.held |= ours;
                return true;
            }
            if self.is_open_to_step(sq) {
                return false;
            }
            walk.held |= ours - behind;
            return true;
        }
        let allowed = |n: Square| n != prev && rabbit_may_go(enemy, kind, sq, n);
        if !one_may_fail && !one_enemy_may_fail {
            for n in ways(sq).into_iter().flatten() {
                if allowed(n) && !self.holds(kind, sq, n, walk, false, was_loose) {
                    return false;
                }
            }
            return true;
        }
        // One way may fail: the edge ways first, so that the failure allowed falls on a
        // middle way where it can.
        let [middle_rank, middle_file, edge_file, edge_rank] = ways(sq);
        let order = [edge_rank, edge_file, middle_file, middle_rank];
        let mut saved = *walk;
        let mut failed = false;
        for (i, n) in order.into_iter().enumerate() {
            let Some(n) = n else { continue };
            if !allowed(n) {
                continue;
            }
            let may_fail_here = one_may_fail || self.owner(n) == Some(enemy);
            if i == 3 && !failed && may_fail_here {
                failed = true;
            } else if self.owner(n).is_none() {
                if !failed && one_may_fail {
                    failed = true;
                } else {
                    return false;
                }
            } else if self.holds(kind, sq, n, walk, false, was_loose) {
                saved = *walk;
            } else if !failed && may_fail_here {
                failed = true;
                *walk = saved;
            } else {
                return false;
            }
        }
        true
    }
}

/// A fixed list of at most four squares, so that the walk can change the board while it
/// goes through a square's ways out without holding a borrow of it.
#[derive(Default)]
struct SmallSquares {
    squares: [Option<Square>; 4],
}

impl FromIterator<Square> for SmallSquares {
    fn from_iter<I: IntoIterator<Item = Square>>(iter: I) -> Self {
        let mut s = SmallSquares::default();
        for (slot, sq) in s.squares.iter_mut().zip(iter) {
            *slot = Some(sq);
        }
        s
    }
}

impl SmallSquares {
    fn iter(&self) -> impl Iterator<Item = &Square> {
        self.squares.iter().flatten()
    }
}

/// Whether a piece of `color` and `kind` on `from` may ever get to `to` by its rabbit rule
/// (sharp's `isRabOkay`: a rabbit never moves towards its own home rank).
fn rabbit_may_go(color: Color, kind: PieceKind, from: Square, to: Square) -> bool {
    kind != PieceKind::Rabbit
        || match color {
            Color::Gold => to.rank() >= from.rank(),
            Color::Silver => to.rank() <= from.rank(),
        }
}

/// `pieces` on `sq` and its neighbours.
fn around(sq: Square, pieces: Bitboard) -> Bitboard {
    (NEIGHBOURS[sq.index()] | Bitboard::from_square(sq)) & pieces
}

/// The blockade `side` holds around the enemy elephant, if any (see the module docs).
pub fn blockade(pos: &Position, side: Color) -> Option<Blockade> {
    let elephant = pos.pieces_of(!side, PieceKind::Elephant).first()?;
    if first_way_open(pos, side, elephant) {
        return None;
    }
    walk_blockade(pos, side, elephant)
}

/// The walk of [`blockade`] from the enemy elephant on `elephant`, without the precheck.
fn walk_blockade(pos: &Position, side: Color, elephant: Square) -> Option<Blockade> {
    let mut board = Board::new(pos, side);
    let ele = Bitboard::from_square(elephant);
    let mut walk = Walk {
        recheck: pos.occupied_by(side),
        walked: ele,
        held: ele,
    };
    let finish = |walk: Walk, kind| {
        Some(Blockade {
            elephant,
            kind,
            held: walk.held & pos.occupied(),
            walked: walk.walked,
        })
    };
    // Whether the elephant's way out to `to` holds (loosely allowed), and whether loosely.
    let mut holds = |to: Square, walk: &mut Walk| {
        let mut loose = false;
        let held = board.holds(PieceKind::Elephant, elephant, to, walk, true, &mut loose);
        (held, loose)
    };
    let [middle_rank, middle_file, edge_file, edge_rank] = ways(elephant);
    let first = middle_rank.expect("every square has a way towards the middle rank");
    let (held, mut ever_loose) = holds(first, &mut walk);
    if !held {
        return None;
    }
    let mut kind = BlockadeKind::Total;
    let mut trial = walk;
    let second = middle_file.expect("every square has a way towards the middle file");
    match holds(second, &mut trial) {
        (true, loose) => {
            walk = trial;
            ever_loose |= loose;
        }
        (false, _) => {
            trial = walk;
            kind = BlockadeKind::Central;
        }
    }
    if let Some(third) = edge_file {
        match holds(third, &mut trial) {
            (true, loose) => {
                walk = trial;
                ever_loose |= loose;
            }
            (false, _) if kind == BlockadeKind::Central => {
                let closed = |sq: Square| pos.piece_at(sq).is_some() && !is_open(pos, sq);
                let weak_square =
                    matches!(elephant.rank(), 3 | 4) && matches!(elephant.file(), 0 | 1 | 6 | 7);
                return (weak_square && (closed(second) || closed(third)))
                    .then(|| finish(walk, BlockadeKind::CentralWeak))
                    .flatten();
            }
            (false, _) => return finish(walk, BlockadeKind::Central),
        }
    }
    if kind == BlockadeKind::Central {
        return finish(walk, kind);
    }
    if let Some(fourth) = edge_rank {
        match holds(fourth, &mut trial) {
            (true, loose) => {
                walk.walked = trial.walked;
                walk.held = trial.held;
                ever_loose |= loose;
            }
            (false, _) => return finish(walk, BlockadeKind::Almost),
        }
    }
    if ever_loose {
        kind = BlockadeKind::Almost;
    }
    finish(walk, kind)
}

/// Whether the elephant's first way out (towards the middle rank), which every blockade must
/// hold, certainly does not: a cheap look at the bitboards before the walk builds its board,
/// for the common case of an elephant in the open. It answers true only where the walk
/// would fail at once: the square is neither an enemy piece nor a trap the enemy guards
/// fewer than twice, and it is empty with an empty way out of its own that is not such a
/// trap either (a stand-in elephant there walks on), or holds a piece of ours weaker than
/// an elephant with two or more empty neighbours (it can be pushed and not loosely held).
fn first_way_open(pos: &Position, side: Color, elephant: Square) -> bool {
    let enemy = !side;
    let [first, ..] = ways(elephant);
    let first = first.expect("every square has a way towards the middle rank");
    let empty = !pos.occupied();
    let weak_trap = |sq: Square| {
        Bitboard::TRAPS.contains(sq)
            && (NEIGHBOURS[sq.index()] & pos.occupied_by(enemy)).count() < 2
    };
    if weak_trap(first) {
        return false;
    }
    match pos.piece_at(first) {
        None => ways(first)
            .into_iter()
            .flatten()
            .any(|n| n != elephant && empty.contains(n) && !weak_trap(n)),
        Some(p) if p.color() == side => {
            p.kind() != PieceKind::Elephant && (NEIGHBOURS[first.index()] & empty).count() >= 2
        }
        Some(_) => false,
    }
}

/// The base value of holding the enemy elephant by its square, from our side, rank 1 first
/// (sharp's `E_IMMO_VAL`).
const BASE: [[i32; 8]; 8] = [
    [4800, 4200, 3700, 3800, 3800, 3700, 4200, 4800],
    [4000, 3250, 3600, 2900, 2900, 3600, 3250, 4000],
    [3000, 2200, 1500, 1000, 1000, 1500, 2200, 3000],
    [2100, 1300, 1300, 800, 800, 1300, 1300, 2100],
    [2100, 1300, 1000, 800, 800, 1000, 1300, 2100],
    [2200, 1500, 1000, 700, 700, 1000, 1500, 2200],
    [2700, 1900, 1700, 1200, 1200, 1700, 1900, 2700],
    [3200, 2500, 2000, 1800, 1800, 2000, 2500, 3200],
];

/// The value kept by the steps to break the blockade, in percent, by whether we are to move
/// and the steps taken in the turn (rows) and the steps (columns, 8 or more last) (sharp's
/// `IMMO_BREAKSTEPS_FACTOR`).
const BREAK_FACTOR: [[i32; 9]; 8] = [
    [50, 55, 62, 59, 76, 87, 94, 102, 107],
    [52, 57, 63, 69, 79, 88, 95, 102, 107],
    [56, 63, 66, 73, 81, 89, 96, 102, 107],
    [58, 63, 69, 76, 83, 90, 96, 102, 107],
    [62, 67, 74, 82, 86, 91, 96, 102, 107],
    [61, 65, 72, 80, 85, 91, 96, 102, 107],
    [59, 64, 70, 78, 84, 90, 96, 102, 107],
    [58, 63, 69, 74, 82, 90, 96, 102, 107],
];

/// An enemy rabbit inside the wall, by its rank from our side (sharp's
/// `OPP_RAB_IN_BLOCKADE_BONUS`).
const RABBIT_INSIDE: [i32; 8] = [0, 100, 200, 130, 110, 110, 150, 50];

/// Extra distance by the file difference from the blockade's centre (sharp's
/// `ADV_RABBIT_XDIST_BONUS`), indexed by the difference + 7.
const FILE_EXTRA: [i32; 15] = [5, 4, 3, 2, 1, 0, 0, 0, 0, 0, 1, 2, 3, 4, 5];
/// Extra distance by the rank difference (sharp's `ADV_RABBIT_YDIST_BONUS`).
const RANK_EXTRA: [i32; 15] = [7, 6, 5, 4, 3, 2, 1, 0, 1, 2, 3, 4, 5, 6, 7];
/// An enemy rabbit near the blockade by that distance (sharp's
/// `BLOCKADE_ADVANCE_RABBIT_BONUS`).
const NEAR_RABBIT: [i32; 32] = [
    144, 144, 144, 144, 140, 130, 120, 100, 80, 64, 48, 34, 22, 11, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0,
];
/// A strong enemy piece near the blockade by that distance (sharp's
/// `BLOCKADE_ADVANCE_MHH_PENALTY`).
const NEAR_PIECE: [i32; 32] = [
    200, 200, 200, 200, 194, 182, 168, 140, 118, 96, 74, 52, 32, 16, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0,
];
/// How much of the near-rabbit bonus counts, in 16ths, by the elephant's ranks to its own
/// goal (sharp's `RAB_ADV_BONUS_FACTOR_OUT_OF_16`).
const NEAR_RABBIT_SHARE: [i32; 8] = [16, 16, 14, 10, 7, 6, 5, 2];

/// What a holder of ours costs by how many enemy pieces outrank it, a rabbit last (sharp's
/// `PLA_HOLDER_COST`).
const HOLDER_COST: [i32; 8] = [160, 90, 65, 50, 45, 40, 35, 30];

/// The value kept by twice the number of our pieces not in the wall, in percent (sharp's
/// `NUM_LEFTOVER_PIECES_FACTOR`).
const LEFTOVER: [i32; 34] = [
    0, 0, 0, 0, 10, 16, 22, 36, 50, 60, 70, 76, 82, 89, 95, 97, 99, 100, 100, 100, 100, 100, 100,
    100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100,
];

/// The value kept by the strongest free pieces, in percent, by whether our elephant is free,
/// and our and the enemy's free pieces of the next tier (0 to 3) (sharp's
/// `EMm_BLOCKADE_SFP_FACTOR`).
const FREE_PIECES: [[[i32; 4]; 4]; 2] = [
    [
        [30, 15, 5, 5],
        [100, 30, 15, 15],
        [120, 50, 30, 30],
        [120, 50, 30, 30],
    ],
    [
        [110, 98, 85, 85],
        [120, 101, 87, 87],
        [130, 110, 90, 90],
        [130, 110, 90, 90],
    ],
];

/// Extra distance for our pieces by their square, from our side, rank 1 first: an advanced
/// piece counts as farther from the blockade (sharp's `DISTANCE_ADJ`).
const DISTANCE_EXTRA: [[i32; 8]; 8] = [
    [0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 1, 1, 1, 1, 0, 0],
    [0, 1, 2, 3, 3, 2, 1, 0],
    [0, 1, 2, 2, 2, 2, 1, 0],
    [1, 1, 2, 3, 3, 2, 1, 1],
    [1, 2, 3, 4, 4, 3, 2, 1],
    [3, 3, 3, 3, 3, 3, 3, 3],
    [3, 3, 3, 3, 3, 3, 3, 3],
];

/// The value kept by our elephant's distance from the blockade, in percent (sharp's
/// `EDISTANCE_FACTOR`).
const ELEPHANT_DISTANCE_FACTOR: [i32; 21] = [
    0, 84, 84, 84, 86, 90, 95, 100, 103, 105, 106, 106, 106, 106, 106, 106, 106, 106, 106, 106, 106,
];
/// Our elephant free far from the blockade (sharp's `EDISTANCE_BONUS`).
const ELEPHANT_DISTANCE_BONUS: [i32; 21] = [
    0, 0, 0, 0, 60, 105, 145, 185, 200, 205, 205, 205, 205, 205, 205, 205, 205, 205, 205, 205, 205,
];
/// Each of our next-tier pieces far from the blockade (sharp's `MDISTANCE_BONUS`).
const TIER_DISTANCE_BONUS: [i32; 21] = [
    0, 0, 0, 25, 45, 65, 85, 95, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100,
];

/// The steps the enemy needs to break blockade `b` (sharp's `getBlockadeBreakDistance`), 0
/// to 16: the easiest square of the wall.
fn break_steps(pos: &Position, ctx: &Context, side: Color, b: &Blockade) -> i32 {
    let enemy = !side;
    let key_trap = ADJACENT_TRAP[b.elephant.index()].first();
    let near_elephant = NEIGHBOURS[b.elephant.index()];
    // A wall square beside the trap by the elephant that touches it only once.
    let lone_by_trap = |sq: Square| {
        key_trap.is_some_and(|t| NEIGHBOURS[t.index()].contains(sq))
            && (NEIGHBOURS[sq.index()] & near_elephant).count() == 1
    };
    let held_enemy = b.held & pos.occupied_by(enemy);
    let guards = |sq: Square| (NEIGHBOURS[sq.index()] & pos.occupied_by(enemy)).count();
    let mut least = 16;
    for sq in b.held | b.walked {
        let steps = match pos.piece_at(sq) {
            Some(p) if p.color() == enemy => {
                // A held piece that is free anyway stands for the wall: as if far from free.
                let free = if ctx.frozen[enemy].contains(sq) {
                    steps_to_free(pos, enemy, ctx.frozen[enemy], sq) as i32
                } else {
                    8
                };
                let mut s = if is_open_to_step(pos, sq) {
                    free + 3
                } else if is_open_to_push(pos, sq) {
                    free + 4
                } else {
                    16
                };
                if lone_by_trap(sq) {
                    s = 7;
                }
                s
            }
            Some(p) => {
                let dominated = (NEIGHBOURS[sq.index()] & pos.stronger_than(enemy, p.kind())).any();
                if !is_open(pos, sq) && !dominated {
                    continue;
                }
                let attackers = pos.stronger_than(enemy, p.kind()) - held_enemy;
                let mut s = approach_distance(pos, ctx, enemy, attackers, sq, 5.min(least - 3)) + 3;
                if sq.is_trap() && (guards(sq) < 2 || !is_open(pos, sq)) {
                    s += 2;
                }
                if lone_by_trap(sq) {
                    s = 16;
                }
                s
            }
            None => {
                if !sq.is_trap() {
                    continue;
                }
                if guards(sq) >= 2 && is_open(pos, sq) {
                    2
                } else {
                    let helpers = pos.occupied_by(enemy) - held_enemy;
                    approach_distance(pos, ctx, enemy, helpers, sq, 5.min(least - 3)) + 3
                }
            }
        };
        least = least.min(steps);
    }
    least.max(0)
}

/// A tier of the strongest kinds from `top` down (a kind either side has, merged with the
/// kinds below it while one side has none of it): our count, the enemy's, and the weakest
/// kind in it (sharp's `mPiece` and `hPiece`); a Cat tier with no pieces when no kind from
/// `top` down to the cats is left.
fn tier(pos: &Position, side: Color, top: usize) -> (i32, i32, PieceKind) {
    let enemy = !side;
    let count = |c: Color, k: usize| pos.count(c, PieceKind::from_index(k)) as i32;
    let (mut ours, mut theirs) = (0, 0);
    let mut k = top;
    while k > PieceKind::Rabbit.index() {
        if count(side, k) > 0 || count(enemy, k) > 0 {
            ours = count(side, k);
            theirs = count(enemy, k);
            let first = k;
            k -= 1;
            if count(enemy, first) == 0 {
                while count(enemy, k) == 0 && k > PieceKind::Rabbit.index() {
                    ours += count(side, k);
                    k -= 1;
                }
            } else if count(side, first) == 0 {
                while count(side, k) == 0 && k > PieceKind::Rabbit.index() {
                    theirs += count(enemy, k);
                    k -= 1;
                }
            }
            break;
        }
        k -= 1;
    }
    (ours, theirs, PieceKind::from_index(k + 1))
}

/// How much of the free-piece factor a rotation gains, in percent, by twice its steps (plus
/// sharp's adjustments), 0 to 32 (sharp's `ROTATION_INTERP`).
const ROTATION_SHARE: [i32; 33] = [
    99, 99, 99, 98, 97, 95, 92, 89, 86, 84, 81, 78, 75, 71, 67, 63, 60, 56, 52, 48, 45, 41, 37, 33,
    30, 26, 22, 18, 14, 10, 6, 2, 0,
];

/// Extra steps for a rotation that brings several pieces in, by twice the number of our
/// pieces not in the wall (sharp's `NUM_LEFTOVER_PIECES_ROTATE_MULTI_ADD`).
const SWARM_EXTRA: [i32; 34] = [
    33, 33, 33, 26, 19, 15, 11, 9, 7, 5, 4, 3, 2, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0,
];

/// A way to free one of our holders: a weaker piece of ours takes its place.
#[derive(Clone, Copy, Debug)]
struct Rotation {
    /// The holder freed.
    holder: Square,
    /// The piece that takes its place, if one was found.
    blocker: Option<Square>,
    /// Whether several pieces must come (a swarm) instead of one.
    swarm: bool,
    /// The steps it takes (16: none found).
    steps: i32,
    /// The weakest kind that can hold the square alone (`None`: any, a rabbit included).
    needed: Option<PieceKind>,
}

impl Rotation {
    /// No rotation found yet for the holder on `holder`: no blocker, the steps sharp starts
    /// its search with (10 for one piece, 16 for a swarm).
    fn unfound(holder: Square, swarm: bool) -> Rotation {
        Rotation {
            holder,
            blocker: None,
            swarm,
            steps: if swarm { 16 } else { 10 },
            needed: None,
        }
    }
}

/// The steps our piece on `from` needs to stand on `to`: its unfreezing distance, the
/// distance, and a step for the holder it relieves to make room (a stand-in for sharp's
/// `traverseDist`, which also prices every square on the way); `None` when a rabbit would
/// have to go backwards.
fn traverse(pos: &Position, ctx: &Context, side: Color, from: Square, to: Square) -> Option<i32> {
    let kind = kind_at(pos, from);
    if !rabbit_may_go(side, kind, from, to) {
        return None;
    }
    let occupied = i32::from(pos.piece_at(to).is_some());
    Some(
        steps_to_free(pos, side, ctx.frozen[side], from) as i32
            + i32::from(from.distance(to))
            + occupied,
    )
}

/// The best single-piece (or swarm) rotation freeing our holder on `sq` (sharp's
/// `getBlockadeSingleRotation`), and whether a several-piece rotation is worth trying.
fn single_rotation(
    pos: &Position,
    ctx: &Context,
    side: Color,
    sq: Square,
    held: Bitboard,
    holders: Bitboard,
) -> (Rotation, bool) {
    let enemy = !side;
    let kind = kind_at(pos, sq);
    let mut rotation = Rotation::unfound(sq, false);
    let open = is_open(pos, sq);
    let guards = (NEIGHBOURS[sq.index()] & pos.occupied_by(enemy)).count();
    let movable = is_open_to_step(pos, sq) || is_open_to_push(pos, sq);
    if sq.is_trap() && movable && (guards < 2 || !open) {
        rotation.steps = 2;
        return (rotation, false);
    }
    let mut try_swarm = true;
    let blocked = !open;
    let mut can_swarm = blocked;
    let mut needed: Option<PieceKind> = None;
    let beside = NEIGHBOURS[sq.index()] & held & pos.occupied_by(enemy);
    let frozen = ctx.frozen[enemy];
    for e in beside - frozen {
        let k = kind_at(pos, e);
        if k != PieceKind::Rabbit {
            needed = needed.max(Some(k));
        }
    }
    for e in beside & frozen {
        let k = kind_at(pos, e);
        // Still dominated without our holder: it stays frozen whoever stands there.
        let others = NEIGHBOURS[e.index()] - Bitboard::from_square(sq);
        if (others & pos.stronger_than(side, k)).any() {
            continue;
        }
        if k == PieceKind::Rabbit {
            if !rabbit_may_go(enemy, k, e, sq) {
                continue;
            }
            let room = (NEIGHBOURS[e.index()] - Bitboard::from_square(sq)) & pos.empty_squares();
            if Iterator::any(&mut room.into_iter(), |to| rabbit_may_go(enemy, k, e, to)) {
                can_swarm = false;
                try_swarm = false;
                needed = needed.max(Some(PieceKind::Cat));
            }
        } else {
            can_swarm = false;
            try_swarm = false;
            let above = PieceKind::from_index((k.index() + 1).min(PieceKind::Elephant.index()));
            needed = needed.max(Some(above));
        }
    }
    rotation.needed = needed;
    let ours = pos.occupied_by(side);
    let strong_enough = match needed {
        None => ours,
        Some(k) => ours & pos.stronger_than(side, PieceKind::from_index(k.index() - 1)),
    };
    let weaker = ours & pos.weaker_than(side, kind);
    let candidates = strong_enough & (weaker - holders);
    // The nearest single piece, one step more beside a closed holder (two beyond).
    let extra = |rad: i32| match (blocked, rad) {
        (false, _) => 0,
        (true, 1) => 1,
        (true, _) => 2,
    };
    closer_blocker(
        pos,
        ctx,
        side,
        sq,
        candidates,
        1,
        extra,
        false,
        &mut rotation,
    );
    if can_swarm && needed.is_some() {
        // A swarm of weaker pieces: four steps of shuffling more.
        try_swarm = false;
        let swarmers = ours - holders - candidates;
        closer_blocker(pos, ctx, side, sq, swarmers, 2, |_| 4, true, &mut rotation);
    }
    if needed.is_none() {
        try_swarm = false;
    }
    if rotation.steps >= 10 {
        rotation.steps = 16;
    }
    (rotation, try_swarm)
}

/// Looks for a nearer piece of `pieces` to relieve the holder on `sq` than `rotation`'s, ring
/// by ring from `first` to five steps away, `extra(ring)` steps added to each; a tie of the
/// same sort (single or `swarm`) goes to the weaker piece.
#[allow(clippy::too_many_arguments)]
fn closer_blocker(
    pos: &Position,
    ctx: &Context,
    side: Color,
    sq: Square,
    pieces: Bitboard,
    first: i32,
    extra: impl Fn(i32) -> i32,
    swarm: bool,
    rotation: &mut Rotation,
) {
    let kind = |s: Square| pos.piece_at(s).map(|p| p.kind());
    for rad in first..6 {
        let extra = extra(rad);
        if rad >= rotation.steps - extra {
            break;
        }
        for c in pieces {
            if i32::from(c.distance(sq)) != rad {
                continue;
            }
            let Some(steps) = traverse(pos, ctx, side, c, sq).map(|t| t + extra) else {
                continue;
            };
            let weaker =
                rotation.swarm == swarm && rotation.blocker.is_some_and(|b| kind(c) < kind(b));
            if steps < rotation.steps || (steps == rotation.steps && weaker) {
                rotation.blocker = Some(c);
                rotation.steps = steps;
                rotation.swarm = swarm;
            }
        }
    }
}

/// The rotation freeing our holder on `sq` by bringing a piece to every empty square beside
/// it as well (sharp's `getBlockadeMultiRotation`).
fn swarm_rotation(pos: &Position, side: Color, sq: Square, holders: Bitboard) -> Rotation {
    let kind = kind_at(pos, sq);
    let mut rotation = Rotation::unfound(sq, true);
    let needed = 1 + (NEIGHBOURS[sq.index()] & pos.empty_squares()).count() as i32;
    if needed == 1 {
        rotation.swarm = false;
        return rotation;
    }
    let candidates = pos.occupied_by(side) & (pos.weaker_than(side, kind) - holders);
    let (mut found, mut total) = (0, 0);
    let slack = 5;
    for rad in 2..=4 {
        if total + (needed - found) * (rad - 1) + slack >= 11 {
            break;
        }
        let ring = candidates
            .into_iter()
            .filter(|c| i32::from(c.distance(sq)) == rad)
            .fold(Bitboard::EMPTY, |acc, c| acc | Bitboard::from_square(c));
        let new = (ring.count() as i32).min(needed - found);
        found += new;
        total += new * (rad - 1);
        if found >= needed {
            // The weakest of the ring (sharp takes the first in its square order; the
            // weakest keeps the colours symmetric).
            rotation.blocker = ring
                .into_iter()
                .min_by_key(|&c| pos.piece_at(c).map(|p| p.kind()));
            break;
        }
    }
    if found >= needed && total + slack < 11 {
        rotation.steps = total + slack;
    }
    rotation
}

/// Every rotation of our holders in `rotatable` (sharp's `fillBlockadeRotationArrays`):
/// for each, the best single-piece one and, where worth trying, the several-piece one; then
/// the chained ones (a holder replaced by another holder that is itself replaced). At most
/// two a holder, on the stack.
fn rotations(
    pos: &Position,
    ctx: &Context,
    side: Color,
    b: &Blockade,
    rotatable: Bitboard,
) -> ([Option<Rotation>; 32], usize) {
    let held = b.held & pos.occupied_by(!side);
    let holders = b.held & pos.occupied_by(side);
    let mut list = [None; 32];
    let mut n = 0;
    for sq in rotatable & pos.occupied_by(side) {
        let (single, try_swarm) = single_rotation(pos, ctx, side, sq, held, holders);
        list[n] = Some(single);
        n += 1;
        if try_swarm {
            list[n] = Some(swarm_rotation(pos, side, sq, holders));
            n += 1;
        }
    }
    // Chained from the single rotations as found (sharp updates in place, in its square
    // order; from a copy the result does not depend on the order, nor on the colours).
    let found = list;
    for i in 0..n {
        let Some(ri) = found[i] else { continue };
        let Some(needed) = ri.needed else { continue };
        let mut best = ri;
        for (j, rj) in found.iter().enumerate().take(n) {
            let Some(rj) = *rj else { continue };
            let kj = kind_at(pos, rj.holder);
            if j == i || kj < needed || kj >= kind_at(pos, ri.holder) || rj.steps > best.steps - 2 {
                continue;
            }
            let Some(t) = traverse(pos, ctx, side, rj.holder, ri.holder) else {
                continue;
            };
            let steps = t + 1 + rj.steps;
            if steps < best.steps {
                best.steps = steps;
                best.blocker = rj.blocker;
                best.swarm = rj.swarm;
            }
        }
        list[i] = Some(best);
    }
    (list, n)
}

/// Our control of trap `t` in sharp's unit (positive: ours).
fn control(ctx: &Context, side: Color, t: usize) -> i32 {
    match side {
        Color::Gold => ctx.influence[t],
        Color::Silver => -ctx.influence[t],
    }
}

/// The value of blockade `b` held by `side`, in centirabbits (see the module docs).
pub fn blockade_value(pos: &Position, ctx: &Context, side: Color, b: &Blockade) -> i32 {
    let enemy = !side;
    let ele = b.elephant;
    let base = from_side(&BASE, side, ele);

    let steps = break_steps(pos, ctx, side, b).min(8) as usize;
    let steps_taken = usize::from(4 - pos.steps_left().min(4));
    let row = usize::from(pos.side() == side) * 4 + steps_taken.min(3);
    let break_factor = BREAK_FACTOR[row][steps];

    let ours = pos.occupied_by(side);
    let holders = b.held & (ours - Bitboard::TRAPS);
    let by_trap = match ADJACENT_TRAP[ele.index()].first() {
        Some(t) if pos.piece_at(t).is_none_or(|p| p.color() == side) => {
            (NEIGHBOURS[t.index()] | Bitboard::from_square(t)) & (ours - holders)
        }
        _ => Bitboard::EMPTY,
    };
    let used_x2 = 2 * holders.count() as i32 + by_trap.count() as i32;
    let leftover_x2 = (2 * ours.count() as i32 - used_x2).clamp(0, 33) as usize;
    let leftover = LEFTOVER[leftover_x2];
    let cost_of = |sq: Square| {
        let kind = kind_at(pos, sq);
        let idx = if kind == PieceKind::Rabbit {
            7
        } else {
            usize::from(ctx.stronger[side][kind.index()]).min(7)
        };
        HOLDER_COST[idx]
    };
    let holder_cost: i32 = holders.into_iter().map(cost_of).sum::<i32>()
        + by_trap.into_iter().map(|s| cost_of(s) / 2).sum::<i32>();

    let enemy_rabbits = pos.pieces_of(enemy, PieceKind::Rabbit);
    let rabbits_inside: i32 = (enemy_rabbits & b.walked)
        .into_iter()
        .map(|sq| RABBIT_INSIDE[usize::from(sq.ranks_from_home(side))])
        .sum();

    let home = tusk_engine::Direction::backward(side);
    let centre = if ele.ranks_to_goal(side) < 4 {
        ele.step(home).unwrap_or(ele)
    } else {
        ele
    };
    let mut near_penalty = 0;
    let mut near_rabbits = 0;
    let candidates = (pos.stronger_than(enemy, PieceKind::Cat) - b.held) | enemy_rabbits;
    for sq in candidates {
        if sq.distance(centre) > 7 {
            continue;
        }
        let df = i32::from(sq.file()) - i32::from(centre.file()) + 7;
        let dr = i32::from(sq.rank()) - i32::from(centre.rank()) + 7;
        let mut dist =
            i32::from(sq.distance(centre)) + FILE_EXTRA[df as usize] + RANK_EXTRA[dr as usize];
        let kind = kind_at(pos, sq);
        if kind == PieceKind::Rabbit {
            if is_behind_trap(sq) {
                dist += 2;
            }
            near_rabbits += NEAR_RABBIT[dist.min(31) as usize];
            if sq.is_trap() && sq.ranks_from_home(side) < 4 && b.held.contains(sq) {
                near_rabbits += 40;
            }
        } else {
            let p = NEAR_PIECE[dist.min(31) as usize];
            near_penalty += match ctx.stronger[enemy][kind.index()] {
                1 => p,
                2 => p * 2 / 3,
                0 | 3 | 4 => p / 3,
                _ => 0,
            };
        }
    }
    near_rabbits = near_rabbits * 3 * (80 + 100 - leftover) / 160;
    near_rabbits =
        near_rabbits * NEAR_RABBIT_SHARE[usize::from(ele.ranks_to_goal(enemy)).min(7)] / 16;

    let (tier_ours, tier_theirs, tier_kind) = tier(pos, side, PieceKind::Camel.index());
    let tier_members = |c: Color| {
        (b.held
            & pos.occupied_by(c)
            & pos.stronger_than(c, PieceKind::from_index(tier_kind.index() - 1)))
            - pos.pieces_of(c, PieceKind::Elephant)
    };
    let tier_ours = (tier_ours - tier_members(side).count() as i32).clamp(0, 3) as usize;
    let tier_theirs = (tier_theirs - tier_members(enemy).count() as i32).clamp(0, 3) as usize;
    let our_elephant = pos.pieces_of(side, PieceKind::Elephant);
    let free_elephant = usize::from((our_elephant - b.held).any());
    let free_factor = FREE_PIECES[free_elephant][tier_ours][tier_theirs];
    // A holder of ours freed by a weaker piece taking its place is worth some of what it
    // would then free: the best rotation's factor, by its steps.
    let (_, _, next_kind) = tier(pos, side, tier_kind.index() - 1);
    let rotatable = match b.kind {
        BlockadeKind::Central | BlockadeKind::CentralWeak => {
            pos.pieces_of(side, PieceKind::Elephant) | pos.pieces_of(side, PieceKind::Camel)
        }
        _ => ours - pos.pieces_of(side, PieceKind::Rabbit) - pos.pieces_of(side, PieceKind::Cat),
    } & b.held
        & pos.stronger_than(side, PieceKind::from_index(next_kind.index() - 1));
    let (list, n) = rotations(pos, ctx, side, b, rotatable);
    let mut rotated_factor = free_factor;
    let kind_on = |sq: Square| pos.piece_at(sq).map(|p| p.kind());
    for r in list.iter().take(n).flatten() {
        let piece = kind_at(pos, r.holder);
        let mut blocker = r.blocker.and_then(kind_on);
        if r.swarm {
            let beside = NEIGHBOURS[r.holder.index()] & ours;
            blocker = blocker.max(beside.into_iter().filter_map(kind_on).max());
        }
        let tier_blocker = blocker >= Some(tier_kind);
        let other = if piece == PieceKind::Elephant {
            let ms = if tier_blocker {
                tier_ours.saturating_sub(1)
            } else {
                tier_ours
            };
            FREE_PIECES[(free_elephant + 1).min(1)][ms][tier_theirs]
        } else if piece >= tier_kind {
            if tier_blocker {
                free_factor
            } else {
                FREE_PIECES[free_elephant][(tier_ours + 1).min(2)][tier_theirs]
            }
        } else {
            continue;
        };
        let mut rotate = r.steps * 2 + 2;
        if r.swarm {
            if leftover_x2 == 0 {
                continue;
            }
            rotate += SWARM_EXTRA[leftover_x2];
        }
        if pos.side() == side {
            rotate -= 3 - steps_taken.min(3) as i32;
        }
        let share = ROTATION_SHARE[rotate.clamp(0, 32) as usize];
        let mut factor = (other * share + free_factor * (100 - share)) / 100;
        if r.swarm {
            factor = factor * LEFTOVER[leftover_x2.saturating_sub(2)] / (LEFTOVER[leftover_x2] + 1);
        }
        rotated_factor = rotated_factor.max(factor);
    }

    let mut elephant_factor = 100;
    let mut distance_bonus = 0;
    let spread = |sq: Square| {
        (from_side(&DISTANCE_EXTRA, side, sq) + i32::from(sq.distance(ele))).min(20) as usize
    };
    for sq in our_elephant {
        distance_bonus += ELEPHANT_DISTANCE_BONUS[spread(sq)];
        elephant_factor = ELEPHANT_DISTANCE_FACTOR[spread(sq)];
    }
    for k in (tier_kind.index()..PieceKind::Elephant.index()).rev() {
        for sq in pos.pieces_of(side, PieceKind::from_index(k)) {
            distance_bonus += TIER_DISTANCE_BONUS[spread(sq)];
        }
    }

    let mut tc = [0; 2];
    let mut tc_home = [0; 2];
    let (mut away, mut home_i) = (0, 0);
    for (t, trap) in Square::TRAPS.into_iter().enumerate() {
        if trap.ranks_from_home(side) < 4 {
            tc_home[home_i] = control(ctx, side, t);
            home_i += 1;
        } else {
            tc[away] = control(ctx, side, t);
            away += 1;
        }
    }
    let square_pos = |x: i32| if x > 0 { x * x } else { 0 };
    let square_neg = |x: i32| if x < 0 { x * x } else { 0 };
    let tc_bonus = 60
        + (tc[0] + tc[1] + tc_home[0] / 2 + tc_home[1] / 2)
        + (square_pos(tc[0]) + square_pos(tc[1]) - square_neg(tc_home[0]) - square_neg(tc_home[1]))
            / 30;

    let sum = i64::from(
        base + rabbits_inside - near_penalty + near_rabbits - holder_cost
            + distance_bonus
            + tc_bonus,
    );
    let mut value = (sum * i64::from(break_factor) * i64::from(leftover) / 10_000
        * i64::from(elephant_factor)
        * i64::from(rotated_factor.max(0))
        / 10_000) as i32;
    value = match b.kind {
        BlockadeKind::Total => value,
        BlockadeKind::Almost => (value - 200) * 6 / 7,
        BlockadeKind::Central => (value - 500) / 9 + distance_bonus / 3 + tc_bonus / 2,
        BlockadeKind::CentralWeak => (value - 500) / 15 + distance_bonus / 4 + tc_bonus / 2,
    };
    value = value.max(0);
    if value > 4200 {
        value = 4200 + (value - 4200) / 2;
    }
    value / 10
}

/// Whether `sq` is the square behind a trap, towards its side's home rank (c2, f2, c7, f7).
fn is_behind_trap(sq: Square) -> bool {
    matches!(sq.file(), 2 | 5) && matches!(sq.rank(), 1 | 6)
}

/// Whether the blockade value's weight is not zero (the smooth trap control it reads is then
/// computed).
pub fn is_used(w: &Weights) -> bool {
    w[id::blockade_value_pct] != 0
}

/// The blockade-value features of both sides (see the module docs). Reads the smooth
/// control, `ctx.influence`.
pub fn blockade_value_features<S: Sink>(pos: &Position, ctx: &Context, sink: &mut S) {
    if !sink.wants(id::blockade_value_pct) {
        return;
    }
    for side in Color::ALL {
        if let Some(b) = blockade(pos, side) {
            let value = blockade_value(pos, ctx, side, &b);
            if value > 0 {
                sink.add_share(side, id::blockade_value_pct, value, 100);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_util::{opening, pos};
    use crate::{ScoreSink, Weights};
    use tusk_engine::ByColor;

    fn sq(s: &str) -> Square {
        Square::parse(s).unwrap()
    }

    /// Silver's elephant on b2 walled in by gold: its elephant on b3, rabbits on a2 (closed
    /// by a1 and a3) and b1 (closed by a1 and c1), a horse on c2 (closed by c1, d2 and the
    /// camel on c3); the rest of both armies elsewhere. `without` leaves pieces out.
    fn walled(without: &[&str]) -> Position {
        walled_with(without, &[])
    }

    /// [`walled`] with `extra` pieces added.
    fn walled_with(without: &[&str], extra: &[(&'static str, &'static str)]) -> Position {
        let all = [
            ("e", "b2"),
            ("E", "b3"),
            ("R", "a2"),
            ("R", "a1"),
            ("R", "a3"),
            ("R", "b1"),
            ("R", "c1"),
            ("H", "c2"),
            ("D", "d2"),
            ("C", "c3"),
            ("M", "f4"),
            ("H", "g2"),
            ("R", "h2"),
            ("m", "d7"),
            ("h", "b7"),
            ("h", "g7"),
            ("d", "c7"),
            ("c", "f7"),
            ("r", "a8"),
            ("r", "h8"),
            ("r", "e8"),
        ];
        let pieces: Vec<_> = all
            .into_iter()
            .filter(|(_, s)| !without.contains(s))
            .chain(extra.iter().copied())
            .collect();
        pos("g", &pieces)
    }

    #[test]
    fn the_precheck_rejects_only_elephants_the_walk_finds_free() {
        // Every scored turn start (91,938, both sides): where the cheap look says the first
        // way out is open, the walk finds no blockade; and it spares the walk in most of them.
        let path = format!(
            "{}/../data/scored/sharp-eval-turn-starts.jsonl",
            env!("CARGO_MANIFEST_DIR")
        );
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        let (mut asked, mut rejected, mut found) = (0, 0, 0);
        for line in text.lines() {
            let aei = line.split('"').nth(3).expect("a position field");
            let p = tusk_engine::notation::board::parse_aei(aei).expect("a valid position");
            for side in Color::ALL {
                let Some(e) = p.pieces_of(!side, PieceKind::Elephant).first() else {
                    continue;
                };
                asked += 1;
                let walked = walk_blockade(&p, side, e);
                found += usize::from(walked.is_some());
                if first_way_open(&p, side, e) {
                    rejected += 1;
                    assert_eq!(walked, None, "{aei}, {side:?} holding");
                }
            }
        }
        assert!(found > 3_000, "{found} blockades");
        assert!(
            rejected * 2 > asked,
            "{rejected} of {asked} rejected by the precheck"
        );
    }

    fn values(p: &Position) -> ByColor<i32> {
        let mut w = Weights::default();
        w[id::blockade_value_pct] = 100;
        let ctx = Context::new(p, &w);
        let mut sink = ScoreSink::new(&w);
        blockade_value_features(p, &ctx, &mut sink);
        sink.totals()
    }

    #[test]
    fn the_ways_out_go_to_the_middle_rank_then_the_middle_file_then_the_edges() {
        let named = |s: &str| ways(sq(s)).map(|w| w.map(|x| x.to_string()));
        let some = |names: [&str; 4]| names.map(|n| (!n.is_empty()).then(|| n.to_string()));
        assert_eq!(named("b2"), some(["b3", "c2", "a2", "b1"]));
        assert_eq!(named("a1"), some(["a2", "b1", "", ""]));
        assert_eq!(named("g5"), some(["f5", "g4", "h5", "g6"]));
        assert_eq!(named("e4"), some(["e5", "d4", "f4", "e3"]));
        // Mirrored top to bottom, the ways mirror.
        for s in Square::all() {
            let flipped = ways(s.flip_rank()).map(|w| w.map(Square::flip_rank));
            assert_eq!(ways(s), flipped, "{s:?}");
        }
    }

    #[test]
    fn an_elephant_walled_in_on_every_side_is_a_total_blockade() {
        let p = walled(&[]);
        let b = blockade(&p, Color::Gold).expect("a blockade");
        assert_eq!(b.elephant, sq("b2"));
        assert_eq!(b.kind, BlockadeKind::Total);
        for s in ["b2", "b3", "a2", "b1", "c2", "a1", "a3", "c1", "d2", "c3"] {
            assert!(b.held.contains(sq(s)), "{s} held");
        }
        assert!(!b.held.contains(sq("f4")));
        // Gold's elephant is free: silver holds nothing.
        assert!(blockade(&p, Color::Silver).is_none());
        // Nothing is walled in at the start.
        assert!(blockade(&opening(), Color::Gold).is_none());
        assert!(blockade(&opening(), Color::Silver).is_none());
    }

    #[test]
    fn a_wall_with_a_gap_the_elephant_can_push_through_is_looser_or_none() {
        // Without a3 the rabbit on a2 has room to be pushed: that way fails, the other two
        // middle ways hold, a central blockade.
        let b = blockade(&walled(&["a3"]), Color::Gold).expect("a central blockade");
        assert_eq!(b.kind, BlockadeKind::Central);
        // Without d2 the horse on c2 can be pushed too: both middle-file and edge ways fail.
        assert!(blockade(&walled(&["a3", "d2"]), Color::Gold).is_none());
        // Without gold's elephant on b3 the way to the middle rank is open.
        assert!(blockade(&walled(&["b3"]), Color::Gold).is_none());
    }

    #[test]
    fn a_blockade_is_worth_something_to_the_holder_only_and_more_when_total() {
        let total = values(&walled(&[]));
        assert!(total[Color::Gold] > 0, "{total:?}");
        assert_eq!(total[Color::Silver], 0);
        let twin = values(&walled(&[]).flip());
        assert_eq!(twin[Color::Silver], total[Color::Gold]);
        assert_eq!(twin[Color::Gold], 0);
        let central = values(&walled(&["a3"]));
        assert!(
            central[Color::Gold] < total[Color::Gold],
            "{central:?} < {total:?}"
        );
    }

    /// From a game of Tusk against sharp (the ladder set, silver to move): Tusk's elephant
    /// went to c2 and sharp walled it in: dog b2, camel d2, rabbit c1, the c3 trap guarded
    /// twice by gold and once by silver.
    #[test]
    fn the_blockade_sharp_built_in_a_ladder_game_is_found_and_valued() {
        let p = tusk_engine::notation::board::parse_aei(
            "s [r     r r    rHr              c     dER  H M    RDeCRCD  RRRR  R]",
        )
        .unwrap();
        let b = blockade(&p, Color::Gold).expect("a blockade");
        assert_eq!(b.elephant, sq("c2"));
        assert_eq!(b.kind, BlockadeKind::Total);
        assert!(b.walked.contains(sq("c3")));
        let v = values(&p);
        // Sharp's strategic score here is 4,414 of its units (a rabbit about 1,000) for gold.
        assert!(v[Color::Gold] >= 300, "{v:?}");
        assert_eq!(v[Color::Silver], 0);
    }

    /// Gold's elephant holds the wall on b3: a rotation (gold's camel and horse coming to
    /// take its place and close b4) would free it, worth more the nearer they stand; with
    /// gold's army mostly free (leftover pieces), as a rotation needs.
    #[test]
    fn a_wall_our_elephant_holds_is_worth_more_when_pieces_can_come_to_relieve_it() {
        let value = |camel: &'static str, horse: &'static str| {
            let extra = [
                ("M", camel),
                ("H", horse),
                ("R", "g1"),
                ("D", "f2"),
                ("C", "h3"),
            ];
            values(&walled_with(&["f4", "g2"], &extra))[Color::Gold]
        };
        let near = value("c4", "d3");
        let far = value("h5", "h4");
        assert!(near > far, "{near} > {far}");
    }
}
