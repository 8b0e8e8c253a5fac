//! The exact static capture detector: which kinds of enemy piece can the side to move capture
//! within the steps left in this turn?
//!
//! A depth-first search over legal steps, pruned by an admissible lower bound, so it answers
//! exactly what enumerating every turn would; positions with no enemy piece near an open trap
//! are rejected by the bound alone.
//!
//! The bound for an enemy piece `V` and a trap `T` at distance `d` from it, guarded by `g`
//! enemy pieces other than `V`: each of the `d` squares `V` must travel and each guard that
//! must leave costs one step of an enemy piece, and every such victim step is half of a push
//! or pull whose other half is a distinct own step, so at least `2 (d + g)` steps. Before the
//! first victim step, an unfrozen own piece stronger than the victim must stand beside it:
//! add the steps the nearest one needs to get there (at most 2, the cost of dislodging some
//! other piece first). One less when a pull is already open; one more when a push must first
//! be completed. Guards can never be captured themselves (no square next to a trap is next to
//! another trap), so they can only be dislodged.
//!
//! One search serves every kind: it keeps looking until each kind still wanted has been seen
//! captured or the bound for the rest rules them out.

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

/// Steps the side to move needs before one of its pieces can dislodge the enemy `kind` on
/// `sq`: over own pieces stronger than it, the fewest of (distance - 1, plus one if frozen),
/// capped at `cap`.
#[inline]
fn approach(pos: &Position, frozen: Bitboard, sq: Square, kind: PieceKind, cap: u8) -> u8 {
    let attackers = pos.stronger_than(pos.side(), kind);
    if attackers.is_empty() {
        return cap;
    }
    let free = attackers - frozen;
    let mut seen = Bitboard::from_square(sq);
    let mut ring = NEIGHBOURS[sq.index()];
    let mut best = cap;
    let mut delta = 1u8;
    while delta - 1 < best && ring.any() {
        if (free & ring).any() {
            best = best.min(delta - 1);
        } else if (attackers & ring).any() {
            best = best.min(delta);
        }
        seen |= ring;
        ring = ring.neighbours() - seen;
        delta += 1;
    }
    best
}

/// Whether some unfrozen piece of the side to move stands beside a weaker enemy piece (some
/// push or pull may be ready).
#[inline]
fn any_contact(pos: &Position, frozen: Bitboard) -> bool {
    let us = pos.side();
    let them = !us;
    let mut weaker = pos.pieces_of(them, PieceKind::Rabbit);
    for k in 1..PieceKind::NUM {
        let kind = PieceKind::from_index(k);
        if ((pos.pieces_of(us, kind) - frozen).neighbours() & weaker).any() {
            return true;
        }
        weaker |= pos.pieces_of(them, kind);
    }
    false
}

/// What the bound of every target shares: the strongest own kind, the own frozen pieces and
/// the least extra cost of starting with some other victim.
struct Shared {
    top: PieceKind,
    frozen: Bitboard,
    other_first: u8,
}

impl Shared {
    fn new(pos: &Position) -> Option<Shared> {
        let top = strongest_kind(pos, pos.side())?;
        let frozen = pos.frozen(pos.side());
        let other_first = 2 + u8::from(!any_contact(pos, frozen));
        Some(Shared {
            top,
            frozen,
            other_first,
        })
    }
}

/// A lower bound on the steps the side to move needs to capture the enemy piece on `sq`
/// (`limit + 1` if above `limit`).
pub fn capture_bound_at(pos: &Position, sq: Square, limit: u8) -> u8 {
    match Shared::new(pos) {
        Some(sh) => bound_at(pos, &sh, sq, limit),
        None => limit + 1,
    }
}

fn bound_at(pos: &Position, sh: &Shared, sq: Square, limit: u8) -> u8 {
    let them = !pos.side();
    let Some(victim) = pos.piece_at(sq) else {
        return limit + 1;
    };
    let enemies = pos.occupied_by(them);
    let mut best = limit + 1;
    for t in Square::TRAPS {
        let d = distance(sq, t);
        if 2 * d > limit + 1 {
            continue;
        }
        let guards = (NEIGHBOURS[t.index()] & enemies) - Bitboard::from_square(sq);
        let g = guards.count() as u8;
        let base = 2 * (d + g);
        if base > limit + 1 {
            continue;
        }
        if d > 0 && sh.top <= victim.kind() {
            continue;
        }
        if any_not_weaker(pos, guards, sh.top) {
            continue;
        }
        // The pieces whose dislodging comes first: the victim (unless on the trap) and guards.
        let movers = if d > 0 {
            guards | Bitboard::from_square(sq)
        } else {
            guards
        };
        let first_cost = |cap: u8| {
            let mut first = cap;
            for m in movers {
                if first == 0 {
                    break;
                }
                if let Some(p) = pos.piece_at(m) {
                    first = first.min(approach(pos, sh.frozen, m, p.kind(), first));
                }
            }
            first
        };
        let cost = match pos.pending() {
            // The open push must be completed first.
            Pending::Push { .. } => base + 1,
            Pending::Pull { square, puller } => {
                let usable = movers & NEIGHBOURS[square.index()] & pos.weaker_than(them, puller);
                if usable.any() {
                    // The next victim step may use the step just taken as its pull.
                    base - 1
                } else {
                    base + first_cost(1)
                }
            }
            // Before the first victim step an attacker must stand ready beside it.
            Pending::None => base + first_cost(sh.other_first),
        };
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
    if near.is_empty() {
        return best;
    }
    let Some(sh) = Shared::new(pos) else {
        return best;
    };
    for sq in near {
        best = best.min(bound_at(pos, &sh, sq, best.saturating_sub(1).min(limit)));
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

/// The enemy piece counts by kind.
#[inline]
fn enemy_counts(pos: &Position) -> [u32; PieceKind::NUM] {
    let them = !pos.side();
    let mut c = [0u32; PieceKind::NUM];
    for k in PieceKind::ALL {
        c[k.index()] = pos.count(them, k);
    }
    c
}

/// Search state: the kinds still wanted, the kinds found, the counts at the root, and whether
/// finding a kind makes every weaker kind unwanted (looking for the strongest only).
struct Hunt {
    wanted: KindSet,
    found: KindSet,
    before: [u32; PieceKind::NUM],
    strongest_only: bool,
}

impl Hunt {
    /// Records the captures `pos` shows; true when nothing more is wanted.
    #[inline]
    fn record(&mut self, pos: &Position) -> bool {
        let them = !pos.side();
        for k in PieceKind::ALL {
            if self.wanted.contains(k) && pos.count(them, k) < self.before[k.index()] {
                self.found.insert(k);
                if self.strongest_only {
                    self.wanted.0 &= !((2u8 << k.index()) - 1);
                } else {
                    self.wanted.0 &= !(1 << k.index());
                }
            }
        }
        self.wanted.is_empty()
    }

    /// Searches every continuation of `remaining` steps; true when nothing more is wanted.
    fn search(&mut self, pos: &mut Position, remaining: u8) -> bool {
        let mut steps = StepList::new();
        pos.legal_steps(&mut steps);
        for &step in steps.iter() {
            let undo = pos.play_step_unchecked(step);
            let done = self.record(pos)
                || (remaining > 1
                    && capture_bound(pos, self.wanted, remaining - 1) < remaining
                    && self.search(pos, remaining - 1));
            pos.undo_step(step, undo);
            if done {
                return true;
            }
        }
        false
    }
}

/// Runs one search for the kinds in `wanted`; returns the kinds found capturable.
fn hunt(pos: &Position, wanted: KindSet, strongest_only: bool) -> KindSet {
    let limit = pos.steps_left();
    if limit == 0 || capture_bound(pos, wanted, limit) > limit {
        return KindSet::EMPTY;
    }
    let mut h = Hunt {
        wanted,
        found: KindSet::EMPTY,
        before: enemy_counts(pos),
        strongest_only,
    };
    let mut work = pos.clone();
    h.search(&mut work, limit);
    h.found
}

/// Every kind.
const ALL_KINDS: KindSet = KindSet(0x3f);

/// Whether the side to move can capture, within the steps left in this turn, some enemy piece
/// of one of the kinds in `kinds`. Exact; allocation-free.
pub fn can_capture(pos: &Position, kinds: KindSet) -> bool {
    hunt_any(pos, kinds)
}

fn hunt_any(pos: &Position, kinds: KindSet) -> bool {
    let limit = pos.steps_left();
    if limit == 0 || capture_bound(pos, kinds, limit) > limit {
        return false;
    }
    let mut h = Hunt {
        wanted: kinds,
        found: KindSet::EMPTY,
        before: enemy_counts(pos),
        strongest_only: false,
    };
    let mut work = pos.clone();
    h.search_any(&mut work, limit)
}

impl Hunt {
    /// Like [`Hunt::search`], but stops at the first capture of any wanted kind.
    fn search_any(&mut self, pos: &mut Position, remaining: u8) -> bool {
        let mut steps = StepList::new();
        pos.legal_steps(&mut steps);
        for &step in steps.iter() {
            let undo = pos.play_step_unchecked(step);
            let hit = {
                let them = !pos.side();
                PieceKind::ALL
                    .into_iter()
                    .any(|k| self.wanted.contains(k) && pos.count(them, k) < self.before[k.index()])
            };
            let done = hit
                || (remaining > 1
                    && capture_bound(pos, self.wanted, remaining - 1) < remaining
                    && self.search_any(pos, remaining - 1));
            pos.undo_step(step, undo);
            if done {
                return true;
            }
        }
        false
    }
}

/// Every kind of enemy piece the side to move can capture this turn. Exact; allocation-free.
pub fn capturable_kinds(pos: &Position) -> KindSet {
    hunt(pos, ALL_KINDS, false)
}

/// The strongest kind of enemy piece the side to move can capture this turn, if any. Exact;
/// allocation-free.
pub fn best_capture(pos: &Position) -> Option<PieceKind> {
    hunt(pos, ALL_KINDS, true).strongest()
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
