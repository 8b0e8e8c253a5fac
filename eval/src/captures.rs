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
//! first of those victim steps an unfrozen own piece stronger than that victim must stand
//! beside it: it must walk there (distance - 1 own steps) and, if frozen now, be freed first
//! (one more step); none of those steps is among the `2 (d + g)`, whatever else happens
//! first. One less when a pull is already open and usable; when a push must first be
//! completed, at least one more. Guards can never be captured themselves (no square next to
//! a trap is next to another trap), so they can only be dislodged.
//!
//! The last plies are cut short: two steps from the end, `two_step_captures` answers
//! directly; three steps from the end with nothing open, only steps near a lone trap guard
//! are tried.
//!
//! One search serves every kind: it keeps looking until each kind still wanted has been seen
//! captured or the bound for the rest rules them out.

use tusk_engine::{
    Bitboard, Pending, PieceKind, Position, Square, StepList, StepMask, ADJACENT_TRAP, NEIGHBOURS,
};

/// A set of piece kinds, as a bit mask indexed by [`PieceKind::index`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct KindSet(pub u8);

impl KindSet {
    /// No kinds.
    pub const EMPTY: KindSet = KindSet(0);

    /// Every kind.
    pub const ALL: KindSet = KindSet(0x3f);

    /// `kind` and every stronger kind.
    #[inline]
    pub const fn at_least(kind: PieceKind) -> KindSet {
        KindSet(KindSet::ALL.0 & !((1u8 << kind.index()) - 1))
    }

    /// Adds `kind`.
    #[inline]
    pub fn insert(&mut self, kind: PieceKind) {
        self.0 |= 1 << kind.index();
    }

    /// Removes `kind`.
    #[inline]
    pub fn remove(&mut self, kind: PieceKind) {
        self.0 &= !(1 << kind.index());
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

/// What the bound needs about the side to move, computed once per call.
struct Attackers<'a> {
    pos: &'a Position,
    /// Own pieces stronger than each kind.
    stronger: [Bitboard; PieceKind::NUM],
    frozen: Bitboard,
}

impl<'a> Attackers<'a> {
    fn new(pos: &'a Position) -> Attackers<'a> {
        let us = pos.side();
        let mut stronger = [Bitboard::EMPTY; PieceKind::NUM];
        let mut acc = Bitboard::EMPTY;
        for k in (0..PieceKind::NUM).rev() {
            stronger[k] = acc;
            acc |= pos.pieces_of(us, PieceKind::from_index(k));
        }
        Attackers {
            pos,
            stronger,
            frozen: pos.frozen(us),
        }
    }

    /// Whether the side to move can dislodge a piece of `kind` at all.
    #[inline]
    fn can_move(&self, kind: PieceKind) -> bool {
        self.stronger[kind.index()].any()
    }

    /// Steps needed before an own piece can dislodge the enemy piece on `sq`: over own pieces
    /// stronger than it, the fewest of (distance - 1, plus one if frozen); at most `cap` (<= 3).
    #[inline]
    fn approach(&self, sq: Square, kind: PieceKind, cap: u8) -> u8 {
        let attackers = self.stronger[kind.index()];
        let free = attackers - self.frozen;
        let ring1 = NEIGHBOURS[sq.index()];
        if (free & ring1).any() {
            return 0;
        }
        let inner = ring1 | Bitboard::from_square(sq);
        let ring2 = ring1.neighbours() - inner;
        if cap <= 1 || (attackers & ring1).any() || (free & ring2).any() {
            return cap.min(1);
        }
        let ring3 = ring2.neighbours() - inner - ring2;
        if cap <= 2 || (attackers & ring2).any() || (free & ring3).any() {
            return cap.min(2);
        }
        cap.min(3)
    }

    /// The fewest steps before the first of `movers` can be dislodged, at most `cap`.
    fn first(&self, movers: Bitboard, cap: u8) -> u8 {
        let mut best = cap;
        for m in movers {
            if best == 0 {
                break;
            }
            if let Some(p) = self.pos.piece_at(m) {
                best = best.min(self.approach(m, p.kind(), best));
            }
        }
        best
    }

    /// The bound for capturing on a trap once the pieces `movers` (the victim unless it is on
    /// the trap, and the guards) have been dislodged, `base` victim and partner steps in all.
    fn cost(&self, movers: Bitboard, base: u8, limit: u8) -> u8 {
        let them = !self.pos.side();
        if let Pending::Pull { square, puller } = self.pos.pending() {
            let usable = movers & NEIGHBOURS[square.index()] & self.pos.weaker_than(them, puller);
            if usable.any() {
                // The next victim step may use the step just taken as its pull.
                return base.saturating_sub(1);
            }
        }
        if base > limit {
            return base;
        }
        // Approach costs above the cap already exceed `limit`.
        let cap = (limit - base + 1).min(3);
        match self.pos.pending() {
            // The open push must be completed first; that step may also bring an attacker
            // one square nearer.
            Pending::Push { .. } => base + self.first(movers, cap).max(1),
            // Before the first victim step an attacker must stand ready beside it (an open
            // pull nobody here can use does not change that).
            Pending::Pull { .. } | Pending::None => base + self.first(movers, cap),
        }
    }
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

/// A lower bound on the steps the side to move needs to capture some enemy piece of the kinds
/// in `kinds` (`limit + 1` if above `limit`).
///
/// For a trap `T` guarded by the enemy pieces `G`: a target on `T` or in `G` needs every
/// piece of `G` (itself included) dislodged, `2 |G|` steps; a target two squares from `T`
/// needs two victim steps more, `4 + 2 |G|`. Every guard must be weaker than the strongest
/// own piece. Then the approach of the first attacker is added (see the module docs).
pub fn capture_bound(pos: &Position, kinds: KindSet, limit: u8) -> u8 {
    bound_until(pos, kinds, limit, 0)
}

/// [`capture_bound`], except that it may stop as soon as it has found a bound of at most
/// `enough` (the answer is then some bound at most `enough`, not necessarily the least).
pub(crate) fn bound_until(pos: &Position, kinds: KindSet, limit: u8, enough: u8) -> u8 {
    let wanted = targets(pos, kinds);
    bound_of_targets(pos, [wanted; 4], limit, enough)
}

/// [`bound_until`] with the kinds wanted set per trap: `kinds[t]` for captures on the trap
/// [`Square::TRAPS`]`[t]` (a generator that has already found some victims on some traps
/// bounds only the captures still wanted).
pub(crate) fn bound_by_trap(pos: &Position, kinds: [KindSet; 4], limit: u8, enough: u8) -> u8 {
    bound_of_targets(pos, kinds.map(|k| targets(pos, k)), limit, enough)
}

/// The bound of [`bound_until`] for the enemy pieces `wanted[t]` captured on the trap
/// [`Square::TRAPS`]`[t]`.
#[inline]
fn bound_of_targets(pos: &Position, wanted_at: [Bitboard; 4], limit: u8, enough: u8) -> u8 {
    let them = !pos.side();
    let mut best = limit + 1;
    if wanted_at.iter().all(|&w| w == Bitboard::EMPTY) || limit == 0 {
        return best;
    }
    let enemies = pos.occupied_by(them);
    let pull_open = matches!(pos.pending(), Pending::Pull { .. });
    let mut att: Option<Attackers<'_>> = None;
    for (t, trap) in Square::TRAPS.iter().enumerate() {
        let wanted = wanted_at[t];
        let guards = NEIGHBOURS[trap.index()] & enemies;
        let near = wanted & (guards | Bitboard::from_square(*trap));
        let far = wanted & crate::traps::RINGS[t][2];
        if near.is_empty() && far.is_empty() {
            continue;
        }
        let base = 2 * guards.count() as u8;
        // Anything cheaper than `best - 1` could still improve it.
        let cutoff = best.saturating_sub(1);
        // Without an open pull no cost here is below `base` (see `Attackers::cost`).
        if base > cutoff + u8::from(pull_open) {
            continue;
        }
        let a = att.get_or_insert_with(|| Attackers::new(pos));
        if !guards
            .into_iter()
            .all(|g| pos.piece_at(g).is_some_and(|p| a.can_move(p.kind())))
        {
            continue;
        }
        if near.any() {
            best = best.min(a.cost(guards, base, cutoff));
        }
        if far.any() && base + 4 <= cutoff + u8::from(pull_open) {
            for v in far {
                let Some(p) = pos.piece_at(v) else { continue };
                if a.can_move(p.kind()) {
                    let c = a.cost(
                        guards | Bitboard::from_square(v),
                        base + 4,
                        best.saturating_sub(1),
                    );
                    best = best.min(c);
                }
            }
        }
        if best <= enough {
            break;
        }
    }
    best.min(limit + 1)
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

/// The kinds of the enemy pieces captured when the piece on `from` is moved to `to` by the
/// side to move (a victim step): the piece itself if `to` is a trap it has no other friend
/// beside, or the piece on the trap beside `from` if it was that piece's last guard.
#[inline]
fn victim_step_captures(pos: &Position, from: Square, to: Square, kind: PieceKind) -> KindSet {
    let them = !pos.side();
    let others = pos.occupied_by(them) - Bitboard::from_square(from);
    let mut out = KindSet::EMPTY;
    if to.is_trap() {
        if (NEIGHBOURS[to.index()] & others).is_empty() {
            out.insert(kind);
        }
    } else if let Some(t) = ADJACENT_TRAP[from.index()].first() {
        // `to` is next to `from`, so never next to the same trap.
        if let Some(w) = pos.piece_at(t) {
            if w.color() == them && (NEIGHBOURS[t.index()] & others).is_empty() {
                out.insert(w.kind());
            }
        }
    }
    out
}

/// The enemy pieces that are the only enemy piece beside some trap: the only ones whose
/// dislodging can capture anything (themselves onto the trap, or the piece they guard).
#[inline]
pub(crate) fn lone_guards(pos: &Position) -> Bitboard {
    let enemies = pos.occupied_by(!pos.side());
    let mut out = Bitboard::EMPTY;
    for t in Square::TRAPS {
        let g = NEIGHBOURS[t.index()] & enemies;
        // Exactly one square.
        if g.any() && g.0 & (g.0 - 1) == 0 {
            out |= g;
        }
    }
    out
}

/// For the bound with at most three steps left: the lone trap guards of the enemy, and the
/// enemy pieces that an open pull could make cheaper (the guards of traps with one or two
/// guards, and the pieces two squares from an unguarded trap).
fn quiet_zones(pos: &Position) -> (Bitboard, Bitboard) {
    let enemies = pos.occupied_by(!pos.side());
    let mut lone = Bitboard::EMPTY;
    let mut pullable = Bitboard::EMPTY;
    for (t, trap) in Square::TRAPS.iter().enumerate() {
        let g = NEIGHBOURS[trap.index()] & enemies;
        match g.count() {
            0 => pullable |= crate::traps::RINGS[t][2] & enemies,
            1 => {
                lone |= g;
                pullable |= g;
            }
            2 => pullable |= g,
            _ => {}
        }
    }
    (lone, pullable)
}

/// Every kind the side to move can capture within two steps, computed directly: by the
/// second half of an open pull, or by a push or pull started now (a single step can capture
/// only by completing a pull, and after a push must be completed nothing is left). Exact.
fn two_step_captures(pos: &Position) -> KindSet {
    let mut out = KindSet::EMPTY;
    let us = pos.side();
    let them = !us;
    match pos.pending() {
        Pending::Push { .. } => return out,
        Pending::Pull { square, puller } => {
            for x in NEIGHBOURS[square.index()] & pos.weaker_than(them, puller) {
                if let Some(p) = pos.piece_at(x) {
                    out.0 |= victim_step_captures(pos, x, square, p.kind()).0;
                }
            }
        }
        Pending::None => {}
    }
    // A victim step captures only if the victim is the only enemy piece beside a trap (it
    // enters the trap unguarded, or leaves it unguarded).
    let candidates = lone_guards(pos);
    if candidates.is_empty() {
        return out;
    }
    let empty = pos.empty_squares();
    let own = pos.occupied_by(us);
    // The frozen own pieces, computed only once some candidate has a stronger own neighbour.
    let mut frozen: Option<Bitboard> = None;
    for x in candidates {
        let Some(xp) = pos.piece_at(x) else { continue };
        let mut attackers = NEIGHBOURS[x.index()] & own & pos.stronger_than(us, xp.kind());
        if attackers.is_empty() {
            continue;
        }
        attackers -= *frozen.get_or_insert_with(|| pos.frozen(us));
        if attackers.is_empty() {
            continue;
        }
        // Push: the victim goes to any empty square beside it.
        for y in NEIGHBOURS[x.index()] & empty {
            out.0 |= victim_step_captures(pos, x, y, xp.kind()).0;
        }
        // Pull: an attacker steps away and the victim takes its square.
        for a in attackers {
            if (NEIGHBOURS[a.index()] & empty).any() {
                out.0 |= victim_step_captures(pos, x, a, xp.kind()).0;
            }
        }
    }
    out
}

/// What a hunt is after.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// Every capturable kind.
    All,
    /// The strongest capturable kind: finding one makes every weaker kind unwanted.
    Strongest,
    /// Whether any kind is capturable: the first find ends the hunt.
    Any,
}

/// Search state: the kinds still wanted, the kinds found, the counts at the root.
///
/// It keeps no table of refuted nodes: nodes with three or more steps left are the root and
/// its children (distinct positions), and two steps from the end `two_step_captures` answers
/// directly, so such a table would never be hit.
struct Hunt {
    wanted: KindSet,
    found: KindSet,
    before: [u32; PieceKind::NUM],
    /// The enemy piece count at the root.
    total: u32,
    mode: Mode,
}

/// A small direct-mapped set of node keys, on the stack.
pub(crate) struct Fruitless([u64; Fruitless::SIZE]);

impl Fruitless {
    const SIZE: usize = 256;

    pub(crate) fn new() -> Fruitless {
        Fruitless([0; Fruitless::SIZE])
    }

    #[inline]
    fn key(pos: &Position, remaining: u8) -> u64 {
        (pos.hash() ^ u64::from(remaining).wrapping_mul(0x9E37_79B9_7F4A_7C15)) | 1
    }

    #[inline]
    pub(crate) fn contains(&self, pos: &Position, remaining: u8) -> bool {
        let k = Self::key(pos, remaining);
        self.0[(k >> 56) as usize % Self::SIZE] == k
    }

    #[inline]
    pub(crate) fn insert(&mut self, pos: &Position, remaining: u8) {
        let k = Self::key(pos, remaining);
        self.0[(k >> 56) as usize % Self::SIZE] = k;
    }
}

impl Hunt {
    /// Marks `kinds` found and drops what is no longer wanted; true when nothing more is.
    #[inline]
    fn found_kinds(&mut self, kinds: KindSet) -> bool {
        for k in PieceKind::ALL {
            if self.wanted.contains(k) && kinds.contains(k) {
                self.found.insert(k);
                match self.mode {
                    Mode::All => self.wanted.0 &= !(1 << k.index()),
                    Mode::Strongest => self.wanted.0 &= !((2u8 << k.index()) - 1),
                    Mode::Any => self.wanted = KindSet::EMPTY,
                }
            }
        }
        self.wanted.is_empty()
    }

    /// Records the captures `pos` shows; true when nothing more is wanted.
    #[inline]
    fn record(&mut self, pos: &Position) -> bool {
        let them = !pos.side();
        if pos.occupied_by(them).count() == self.total {
            return false;
        }
        let mut kinds = KindSet::EMPTY;
        for k in PieceKind::ALL {
            if pos.count(them, k) < self.before[k.index()] {
                kinds.insert(k);
            }
        }
        self.found_kinds(kinds)
    }

    /// Searches every continuation of `remaining` steps; true when nothing more is wanted.
    fn search(&mut self, pos: &mut Position, remaining: u8) -> bool {
        if remaining == 2 {
            let kinds = two_step_captures(pos);
            return self.found_kinds(kinds);
        }
        // A single step captures an enemy piece only as the second half of an open pull
        // (a push needs two steps, and own steps only ever lose own pieces).
        let last_step = remaining == 1;
        if last_step && !matches!(pos.pending(), Pending::Pull { .. }) {
            return false;
        }
        // Three steps from a position with nothing open: enemy pieces move only as victims,
        // and a victim step captures only if the victim is the lone enemy piece beside a
        // trap (`lone`). Every capture is a push or pull of a lone piece, by the first two
        // steps or the last two; an own first step can only help the last two if it starts
        // or ends within two squares of a lone piece, and a victim first step only if it
        // moves a lone piece.
        // An own step is tried when it starts in `own_from` or ends in `own_to`, an enemy
        // piece's step when it starts in `victim_zone`.
        let (own_from, own_to, victim_zone) = if remaining == 3 && pos.pending() == Pending::None {
            let lone = lone_guards(pos);
            if lone.is_empty() {
                return false;
            }
            let near = lone | lone.neighbours();
            let zone = near | near.neighbours();
            (zone, zone, lone)
        } else if remaining == 4
            && pos.pending() == Pending::None
            && bound_until(pos, self.wanted, 3, 3) > 3
        {
            // Four steps with nothing open, and no capture within three by the bound. After
            // an own step the bound (three steps left) can only drop below four through a
            // usable pull (the step starts beside a piece a pull could take) or through a
            // trap with one guard: its cost is 2 plus an approach of at most 1, which reads
            // only own pieces within two squares of the guard and their neighbours. Removing
            // own pieces (the mover's departure, a capture of an own piece) never lowers it,
            // so the step must end within three squares of such a guard.
            let (lone, pullable) = quiet_zones(pos);
            let mut reach = lone;
            for _ in 0..3 {
                reach |= reach.neighbours();
            }
            (pullable.neighbours(), reach, Bitboard::FULL)
        } else {
            (Bitboard::FULL, Bitboard::FULL, Bitboard::FULL)
        };
        let (own_from, own_to) = if last_step {
            (Bitboard::EMPTY, Bitboard::EMPTY)
        } else {
            (own_from, own_to)
        };
        let mut steps = StepList::new();
        pos.legal_steps_touching(
            StepMask {
                own_from,
                own_to,
                enemy_from: victim_zone,
                enemy_to: Bitboard::EMPTY,
            },
            &mut steps,
        );
        for &step in steps.iter() {
            let undo = pos.play_step_unchecked(step);
            let done = self.record(pos)
                || (remaining > 1
                    && (remaining > 2 || matches!(pos.pending(), Pending::Pull { .. }))
                    && (remaining == 3
                        || bound_until(pos, self.wanted, remaining - 1, remaining - 1)
                            < remaining)
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
#[inline(never)]
fn hunt(pos: &mut Position, wanted: KindSet, mode: Mode) -> KindSet {
    let limit = pos.steps_left();
    let lower = capture_bound(pos, wanted, limit);
    if limit == 0 || lower > limit {
        return KindSet::EMPTY;
    }
    let mut h = Hunt {
        wanted,
        found: KindSet::EMPTY,
        before: enemy_counts(pos),
        total: pos.occupied_by(!pos.side()).count(),
        mode,
    };
    // Iterative deepening: shallow captures are found by small searches, and what they find
    // is no longer wanted by the deeper ones.
    for depth in lower.max(1)..=limit {
        // At the first depth, with nothing found yet, `lower` already answers this.
        let unchanged = depth == lower && h.wanted == wanted;
        if h.wanted.is_empty() || (!unchanged && capture_bound(pos, h.wanted, depth) > depth) {
            continue;
        }
        if h.search(pos, depth) {
            break;
        }
    }
    h.found
}

/// Whether the side to move can capture, within the steps left in this turn, some enemy piece
/// of one of the kinds in `kinds`. Exact; allocation-free; copies the position once.
pub fn can_capture(pos: &Position, kinds: KindSet) -> bool {
    can_capture_mut(&mut pos.clone(), kinds)
}

/// [`can_capture`] searching on `pos` itself, which it leaves exactly as it found it.
pub fn can_capture_mut(pos: &mut Position, kinds: KindSet) -> bool {
    !hunt(pos, kinds, Mode::Any).is_empty()
}

/// Every kind of enemy piece the side to move can capture this turn. Exact; allocation-free;
/// copies the position once.
pub fn capturable_kinds(pos: &Position) -> KindSet {
    hunt(&mut pos.clone(), KindSet::ALL, Mode::All)
}

/// The strongest kind of enemy piece the side to move can capture this turn, if any. Exact;
/// allocation-free; copies the position once (see [`best_capture_mut`], which does not).
pub fn best_capture(pos: &Position) -> Option<PieceKind> {
    best_capture_mut(&mut pos.clone())
}

/// [`best_capture`] searching on `pos` itself, which it leaves exactly as it found it.
pub fn best_capture_mut(pos: &mut Position) -> Option<PieceKind> {
    hunt(pos, KindSet::ALL, Mode::Strongest).strongest()
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
