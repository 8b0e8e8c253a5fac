//! The exact static capture detector: which kinds of enemy piece can the side to move capture
//! within the steps left in this turn?
//!
//! A depth-first search over legal steps, pruned by an admissible lower bound, so it answers
//! exactly what enumerating every turn would; positions with no enemy piece near an open trap
//! are rejected by the bound alone.
//!
//! The bound for an enemy piece `V` and a trap `T` at distance `d` from it, guarded by `g`
//! enemy pieces other than `V`: each of the `d` squares `V` must travel and each guard that
//! must leave costs one step of an enemy piece, and every such step is half of a push or pull
//! whose other half is a distinct own step, so at least `2 (d + g)` steps; one more when
//! `g = 0`, `d > 0` and no unfrozen own piece stronger than `V` stands next to it yet; one
//! less when a pull is already open. Guards can never be captured themselves (no square next
//! to a trap is next to another trap), so they can only be dislodged.

use tusk_engine::{Bitboard, Color, Pending, PieceKind, Position, Square, StepList, NEIGHBOURS};

/// A set of piece kinds, as a bit mask indexed by [`PieceKind::index`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct KindSet(pub u8);

impl KindSet {
    /// No kinds.
    pub const EMPTY: KindSet = KindSet(0);

    /// Adds `kind`.
    #[inline]
    pub fn insert(&mut self, kind: PieceKind) {
        self.0 |= 1 << kind.index();
    }

    /// Whether `kind` is in the set.
    #[inline]
    pub const fn contains(self, kind: PieceKind) -> bool {
        self.0 & (1 << kind.index()) != 0
    }

    /// Whether the set is empty.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The strongest kind in the set.
    #[inline]
    pub fn strongest(self) -> Option<PieceKind> {
        if self.0 == 0 {
            None
        } else {
            Some(PieceKind::from_index(7 - self.0.leading_zeros() as usize))
        }
    }
}

/// Manhattan distance between two squares.
#[inline]
const fn distance(a: Square, b: Square) -> u8 {
    a.file().abs_diff(b.file()) + a.rank().abs_diff(b.rank())
}

/// The strongest kind `color` has on the board, if any.
#[inline]
fn strongest_kind(pos: &Position, color: Color) -> Option<PieceKind> {
    PieceKind::ALL
        .into_iter()
        .rev()
        .find(|&k| pos.pieces_of(color, k).any())
}

/// A lower bound on the steps the side to move needs to capture the enemy piece on `sq`
/// (`limit + 1` if above `limit`).
pub fn capture_bound_at(pos: &Position, sq: Square, limit: u8) -> u8 {
    let us = pos.side();
    let them = !us;
    let Some(victim) = pos.piece_at(sq) else {
        return limit + 1;
    };
    let Some(top) = strongest_kind(pos, us) else {
        return limit + 1;
    };
    let pull_open = matches!(pos.pending(), Pending::Pull { .. });
    let enemies = pos.occupied_by(them);
    let mut best = limit + 1;
    for t in Square::TRAPS {
        let d = distance(sq, t);
        if 2 * d > limit + 1 {
            continue;
        }
        let guards = (NEIGHBOURS[t.index()] & enemies) - Bitboard::from_square(sq);
        let g = guards.count() as u8;
        let mut cost = 2 * (d + g);
        if cost > limit + 1 {
            continue;
        }
        if d > 0 && top <= victim.kind() {
            continue;
        }
        if any_not_weaker(pos, guards, top) {
            continue;
        }
        if pull_open {
            cost -= 1;
        } else if d > 0 && g == 0 {
            let ready = pos.stronger_than(us, victim.kind()) - pos.frozen(us);
            if (ready & NEIGHBOURS[sq.index()]).is_empty() {
                cost += 1;
            }
        }
        best = best.min(cost);
    }
    best
}

/// Whether some square of `set` holds a piece at least as strong as `top`.
#[inline]
fn any_not_weaker(pos: &Position, set: Bitboard, top: PieceKind) -> bool {
    let mut it = set;
    Iterator::any(&mut it, |s| {
        pos.piece_at(s).is_some_and(|p| p.kind() >= top)
    })
}

/// The enemy pieces of the kinds in `kinds`.
#[inline]
fn targets(pos: &Position, kinds: KindSet) -> Bitboard {
    let them = !pos.side();
    let mut b = Bitboard::EMPTY;
    for k in PieceKind::ALL {
        if kinds.contains(k) {
            b |= pos.pieces_of(them, k);
        }
    }
    b
}

/// A lower bound on the steps needed to capture some enemy piece of the kinds in `kinds`.
pub fn capture_bound(pos: &Position, kinds: KindSet, limit: u8) -> u8 {
    let mut best = limit + 1;
    // Only pieces within two squares of a trap can be captured in four steps.
    let near = targets(pos, kinds) & trap_zone(limit);
    for sq in near {
        best = best.min(capture_bound_at(pos, sq, best.saturating_sub(1).min(limit)));
        if best == 0 {
            break;
        }
    }
    best
}

/// The squares within `(limit + 1) / 2` of some trap: pieces farther off cannot be captured
/// within `limit` steps (each square costs two steps, one less when a pull is open).
#[inline]
fn trap_zone(limit: u8) -> Bitboard {
    let mut z = Bitboard::TRAPS;
    for _ in 0..limit.div_ceil(2) {
        z |= z.neighbours();
    }
    z
}

/// The total number of enemy pieces of the kinds in `kinds`.
#[inline]
fn count_targets(pos: &Position, kinds: KindSet) -> u32 {
    targets(pos, kinds).count()
}

fn search(pos: &mut Position, kinds: KindSet, before: u32, remaining: u8) -> bool {
    let mut steps = StepList::new();
    pos.legal_steps(&mut steps);
    for &step in steps.iter() {
        let undo = pos.play_step_unchecked(step);
        let found = count_targets(pos, kinds) < before
            || (remaining > 1
                && capture_bound(pos, kinds, remaining - 1) < remaining
                && search(pos, kinds, before, remaining - 1));
        pos.undo_step(step, undo);
        if found {
            return true;
        }
    }
    false
}

/// Whether the side to move can capture, within the steps left in this turn, some enemy piece
/// of one of the kinds in `kinds`. Exact; allocation-free.
pub fn can_capture(pos: &Position, kinds: KindSet) -> bool {
    let limit = pos.steps_left();
    if limit == 0 || capture_bound(pos, kinds, limit) > limit {
        return false;
    }
    let mut work = pos.clone();
    search(&mut work, kinds, count_targets(pos, kinds), limit)
}

/// Every kind of enemy piece the side to move can capture this turn. Exact.
pub fn capturable_kinds(pos: &Position) -> KindSet {
    let mut out = KindSet::EMPTY;
    for k in PieceKind::ALL {
        let mut one = KindSet::EMPTY;
        one.insert(k);
        if can_capture(pos, one) {
            out.insert(k);
        }
    }
    out
}

/// The strongest kind of enemy piece the side to move can capture this turn, if any. Exact.
pub fn best_capture(pos: &Position) -> Option<PieceKind> {
    let limit = pos.steps_left();
    let mut all = KindSet::EMPTY;
    for k in PieceKind::ALL {
        all.insert(k);
    }
    if limit == 0 || capture_bound(pos, all, limit) > limit {
        return None;
    }
    PieceKind::ALL.into_iter().rev().find(|&k| {
        let mut one = KindSet::EMPTY;
        one.insert(k);
        can_capture(pos, one)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_util::pos;

    #[test]
    fn push_onto_an_unguarded_trap() {
        // Silver to move: the elephant d5 pushes the gold horse d6 onto c6 (seed diagram).
        let p = pos(
            "s",
            &[
                ("e", "d5"),
                ("H", "d6"),
                ("R", "a2"),
                ("r", "h7"),
                ("E", "h1"),
            ],
        );
        assert_eq!(best_capture(&p), Some(PieceKind::Horse));
        assert!(capturable_kinds(&p).contains(PieceKind::Horse));
        assert_eq!(best_capture(&p.flip()), Some(PieceKind::Horse));
    }

    #[test]
    fn two_guards_are_too_many_for_a_weak_attacker() {
        let p = pos(
            "s",
            &[
                ("e", "a5"),
                ("c", "b6"),
                ("H", "c7"),
                ("R", "d6"),
                ("R", "b5"),
                ("E", "h1"),
                ("r", "h7"),
            ],
        );
        // The silver cat on b6 cannot dislodge anything but rabbits; the elephant is far.
        assert!(!capturable_kinds(&p).contains(PieceKind::Horse));
    }

    #[test]
    fn the_opening_has_no_captures() {
        let p = crate::test_util::opening();
        assert_eq!(best_capture(&p), None);
        assert_eq!(capturable_kinds(&p), KindSet::EMPTY);
    }
}
