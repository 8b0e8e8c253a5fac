//! Move ordering: the hash move, then captures (winning first), goal steps and goal-defence
//! steps, killers, and the history table; captures that lose material go last. Also the
//! material a node move wins and the region a goal threat makes relevant.

use tusk_engine::{Bitboard, Color, Position, Square, Step};
use tusk_eval::goal;

use crate::moves::{capture_kind, value, Scored};
use crate::node_move::{NodeMove, HISTORY_SIZE};

const TT_MOVE: i32 = 1 << 30;
const GOOD_CAPTURE: i32 = 1 << 28;
const GOAL_STEP: i32 = 1 << 27;
const KILLER: i32 = 1 << 26;
/// History values stay below this, so they never pass a killer.
pub(crate) const HISTORY_MAX: i32 = 1 << 20;

/// Material won minus material lost by `m` (ordering values), as seen from `pos`.
#[inline]
pub(crate) fn capture_gain(pos: &Position, m: NodeMove) -> i32 {
    match m.len() {
        1 => -capture_kind(pos, m.first()).map_or(0, value),
        2 => {
            let a = capture_kind(pos, m.first());
            let b = capture_kind(pos, m.second());
            let us = pos.side();
            let mover_a = pos.piece_at(m.first().from()).map(|p| p.color());
            let sign = |c: Option<Color>| if c == Some(us) { -1 } else { 1 };
            // The second step moves the other colour from the first.
            let ga = a.map_or(0, |k| sign(mover_a) * value(k));
            let gb = b.map_or(0, |k| -sign(mover_a) * value(k));
            ga + gb
        }
        _ => 0,
    }
}

/// Per-thread move history for ordering: two killers per height and a history-heuristic table
/// per side.
pub(crate) struct MoveHistory {
    killers: Vec<[NodeMove; 2]>,
    history: Vec<[i32; HISTORY_SIZE]>,
}

impl MoveHistory {
    pub(crate) fn new(heights: usize) -> MoveHistory {
        MoveHistory {
            killers: vec![[NodeMove::NONE; 2]; heights],
            history: vec![[0; HISTORY_SIZE]; 2],
        }
    }

    /// Records that quiet `m` refuted a node at `height` searched `depth` steps deep.
    #[inline]
    pub(crate) fn cutoff(&mut self, side: Color, height: usize, m: NodeMove, depth: i32) {
        let k = &mut self.killers[height];
        if k[0] != m {
            k[1] = k[0];
            k[0] = m;
        }
        let h = &mut self.history[side.index()][m.history_index()];
        *h += depth * depth;
        if *h >= HISTORY_MAX {
            for v in self.history[side.index()].iter_mut() {
                *v /= 2;
            }
        }
    }

    /// Lowers the history of a quiet move that was searched and did not refute.
    #[inline]
    pub(crate) fn failed(&mut self, side: Color, m: NodeMove, depth: i32) {
        let h = &mut self.history[side.index()][m.history_index()];
        *h = (*h - depth).max(-HISTORY_MAX);
    }

    /// Whether `m` is a killer at `height`.
    #[inline]
    pub(crate) fn is_killer(&self, height: usize, m: NodeMove) -> bool {
        let k = &self.killers[height];
        k[0] == m || k[1] == m
    }

    /// Gives every move of `list` its ordering score (it does not sort: [`pick`] brings the
    /// moves forward as they are needed); `ordering` false scores everything but the hash move
    /// the same, so the moves go in the order of their bits.
    pub(crate) fn score(
        &self,
        pos: &Position,
        list: &mut [Scored],
        tt_mv: NodeMove,
        height: usize,
        threat: Bitboard,
        ordering: bool,
    ) {
        let us = pos.side();
        let pressure = if ordering {
            goal::goal_pressure(pos, us)
        } else {
            Bitboard::EMPTY
        };
        let fwd = goal::forward(us);
        for (m, s) in list.iter_mut() {
            if *m == tt_mv {
                *s = TT_MOVE;
                continue;
            }
            if !ordering {
                *s = 0;
                continue;
            }
            let gain = capture_gain(pos, *m);
            *s = if gain > 0 {
                GOOD_CAPTURE + gain
            } else if m.len() >= 1 && is_goal_step(pos, *m, pressure, fwd) {
                GOAL_STEP
            } else if m.len() >= 1 && touches(*m, threat) {
                GOAL_STEP - 1 + self.history[us.index()][m.history_index()] / 64
            } else if self.is_killer(height, *m) {
                KILLER + i32::from(self.killers[height][0] == *m)
            } else {
                self.history[us.index()][m.history_index()] + gain * 64
            };
        }
    }
}

/// How many moves [`pick`] selects one by one before it sorts the rest: most nodes are cut
/// by one of the first few moves, and need no sort at all.
const PICKED: usize = 4;

/// The search order: higher ordering score first, ties by move bits (a total order, so the
/// order is the same however it is reached).
#[inline]
fn before(a: &Scored, b: &Scored) -> std::cmp::Ordering {
    b.1.cmp(&a.1).then(a.0.bits().cmp(&b.0.bits()))
}

/// Puts the move to search `i`-th (scored by [`MoveHistory::score`]) at `list[i]`, given that
/// `list[..i]` already holds the first `i` in order: the first [`PICKED`] are selected one at
/// a time, then the rest sorted at once. The result is the order of a full sort.
#[inline]
pub(crate) fn pick(list: &mut [Scored], i: usize) {
    if i < PICKED {
        let mut best = i;
        for j in i + 1..list.len() {
            if before(&list[j], &list[best]).is_lt() {
                best = j;
            }
        }
        list.swap(i, best);
    } else if i == PICKED {
        list[i..].sort_unstable_by(before);
    }
}

/// A forward step of a rabbit under goal pressure.
#[inline]
fn is_goal_step(
    pos: &Position,
    m: NodeMove,
    pressure: Bitboard,
    fwd: tusk_engine::Direction,
) -> bool {
    let s = m.first();
    pressure.contains(s.from())
        && s.dir() == fwd
        && pos
            .piece_at(s.from())
            .is_some_and(|p| p.color() == pos.side())
}

/// The three ranks before gold's goal (6 to 8); silver's are their mirror image.
const GOAL_ZONE_GOLD: Bitboard = Bitboard(0xFFFF_FF00_0000_0000);
/// The goal zone and the rank below it (5 to 8), where a gold rabbit makes the zone matter.
const RABBIT_ZONE_GOLD: Bitboard = Bitboard(0xFFFF_FFFF_0000_0000);

/// Whether `m` moves a piece on the three ranks before the side to move's goal while that
/// side has a rabbit on them or the rank below: a move that may complete a goal threat, which
/// late-move pruning spares with [`crate::Feature::LmpGoalZone`].
#[inline]
pub(crate) fn near_goal(pos: &Position, m: NodeMove) -> bool {
    let side = pos.side();
    let (zone, rabbit_zone) = match side {
        Color::Gold => (GOAL_ZONE_GOLD, RABBIT_ZONE_GOLD),
        Color::Silver => (GOAL_ZONE_GOLD.flip_ranks(), RABBIT_ZONE_GOLD.flip_ranks()),
    };
    (pos.pieces_of(side, tusk_engine::PieceKind::Rabbit) & rabbit_zone).any() && touches(m, zone)
}

/// Whether a step of `m` starts or ends in `region`.
#[inline]
pub(crate) fn touches(m: NodeMove, region: Bitboard) -> bool {
    if region.is_empty() || m.len() == 0 {
        return false;
    }
    let hit = |s: Step| region.contains(s.from()) || region.contains(s.to());
    hit(m.first()) || (m.len() == 2 && hit(m.second()))
}

/// Where the opponent of the side to move could goal next turn if the side to move passed now,
/// the squares on or beside the threatening rabbits' ways to goal; empty if there is no threat.
/// `pos` must be at a turn start; it is left unchanged.
pub(crate) fn threat_region(pos: &mut Position) -> Bitboard {
    let undo = pos.end_turn();
    let them = pos.side();
    let region = if goal::can_goal(pos) {
        let mut r = Bitboard::EMPTY;
        let rabbits = goal::goal_pressure(pos, them);
        for sq in rabbits {
            r |= cone(them, sq);
        }
        if r.is_empty() {
            // The bound found no single rabbit (cannot happen for a real goal); be safe.
            Bitboard::FULL
        } else {
            r | r.neighbours()
        }
    } else {
        Bitboard::EMPTY
    };
    pos.undo_end_turn(undo);
    region
}

/// The squares a rabbit of `color` on `sq` could cross on its way to goal within four steps:
/// the ranks from it to the goal, as many files aside as the steps to spare.
fn cone(color: Color, sq: Square) -> Bitboard {
    let rank = sq.rank() as i32;
    let file = sq.file() as i32;
    let goal_rank = if color == Color::Gold { 7 } else { 0 };
    let dist = (goal_rank - rank).abs();
    let spare = (4 - dist).max(0);
    let mut b = Bitboard::EMPTY;
    let (lo, hi) = if rank <= goal_rank {
        (rank, goal_rank)
    } else {
        (goal_rank, rank)
    };
    for r in lo..=hi {
        for f in (file - spare).max(0)..=(file + spare).min(7) {
            b |= Bitboard::from_square(Square::new(f as u8, r as u8));
        }
    }
    b
}

/// `region` grown by `rings` neighbour rings.
#[inline]
pub(crate) fn grow(mut region: Bitboard, rings: u8) -> Bitboard {
    for _ in 0..rings {
        region |= region.neighbours();
    }
    region
}

#[cfg(test)]
mod tests {
    use super::*;
    use tusk_engine::notation::board::parse_aei;
    use tusk_engine::StepList;

    /// A step on the three ranks before the mover's goal counts only while the mover has a
    /// rabbit on its fifth rank or beyond; a pass never; silver's zone is gold's mirrored.
    #[test]
    fn near_goal_needs_the_zone_and_an_advanced_rabbit() {
        let step = |from: &str, to: &str| {
            let sq = |s: &str| Square::parse(s).expect("a square");
            NodeMove::one(Step::between(sq(from), sq(to)).expect("a step"))
        };
        // Gold, with a rabbit on h5 and a dog on h6 (the goal-defence extension's test
        // position after silver's turn).
        let p = parse_aei("g [  r      rr  r  rh  crdD     dMR H  EDhRRR  e     C C R  RR     ]")
            .unwrap();
        // The same board without that rabbit: gold's others stand on ranks 1 to 4.
        let q = parse_aei("g [  r      rr  r  rh  crdD     dM  H  EDhRRR  e     C C R  RR     ]")
            .unwrap();
        let cases = [
            (&p, step("h6", "h7"), true),
            (&p, step("g5", "h5"), false),
            (&p, step("c2", "c3"), false),
            (&p, NodeMove::PASS, false),
            (&q, step("h6", "h7"), false),
        ];
        for (pos, m, near) in cases {
            assert_eq!(near_goal(pos, m), near, "{m:?}");
            // Mirrored, silver to move: the same answer.
            let mirrored = if m.is_pass() {
                m
            } else {
                NodeMove::one(m.first().flip_rank())
            };
            assert_eq!(near_goal(&pos.flip(), mirrored), near, "{m:?} mirrored");
        }
    }

    /// Picking the moves one at a time gives exactly the order of a full sort, also when the
    /// search goes back to the start of a list it has partly ordered (a goal-threat node that
    /// found nothing near the threat).
    #[test]
    fn picking_gives_the_order_of_a_full_sort() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand::rngs::StdRng::seed_from_u64(5);
        let p = parse_aei("g [ D      c   r HcR   M r rC  r R r  r E R R C  R R    D      R  R]")
            .unwrap();
        let mut moves = Vec::new();
        crate::moves::generate(&mut p.clone(), &mut moves, &mut StepList::new());
        assert!(moves.len() > 40);
        for len in [0, 1, 3, 4, 5, 9, moves.len()] {
            for _ in 0..20 {
                // Few distinct scores, so ties are common and broken by the move.
                let mut list: Vec<Scored> = moves[..len]
                    .iter()
                    .map(|&(m, _)| (m, rng.gen_range(0..4)))
                    .collect();
                let mut sorted = list.clone();
                sorted.sort_by(before);
                let stop = rng.gen_range(0..=len);
                for i in 0..stop {
                    pick(&mut list, i);
                }
                for i in 0..len {
                    pick(&mut list, i);
                    assert_eq!(list[i], sorted[i], "length {len}, restarted after {stop}");
                }
            }
        }
    }

    #[test]
    fn a_rabbit_two_steps_from_goal_is_a_threat() {
        // Silver to move; a gold rabbit on d6 with an open file goals in two.
        let mut p =
            parse_aei("s [r   e              R                                    E       ]")
                .unwrap();
        let before = p.clone();
        let r = threat_region(&mut p);
        assert_eq!(p, before);
        assert!(r.contains(Square::parse("d7").unwrap()));
        assert!(r.contains(Square::parse("d8").unwrap()));
        let mut q =
            parse_aei("s [r   e                                      R                 E  ]")
                .unwrap();
        assert!(threat_region(&mut q).is_empty());
    }
}
