//! Hostage threats: an enemy piece caught in the corner behind one of our home traps, held
//! there by a stronger piece of ours, graded by the steps we would need to drag it into the
//! trap.
//!
//! For each of our home traps, an enemy piece on one of nine squares between the trap and
//! its corner ([`HOSTAGE_SQUARES`]) is a **hostage** when a stronger piece of ours stands
//! beside it (the **holder**: the weakest such, then the most central; the next one is the
//! second holder), or, on the three squares nearest the corner, two steps away off the edge
//! ranks; and, unless it is frozen, it has no step to a square that takes it away from the
//! holders, out of the corner and not behind the trap (`can_escape`).
//!
//! Its **threat distance** ([`threat_distance`]) starts at twice its distance to the trap, plus
//! what stands in the way on the path (our pieces no stronger than it, or frozen, cost one
//! each), one more when our piece on the trap is too weak to capture it, the holder's
//! unfreezing distance, more when the holder is two steps away (one, plus what the squares
//! between them cost), three when pulling it nearer would leave it guarded, up to four when
//! it can walk away, and less when the enemy elephant has buried itself in the corner too.
//!
//! Feature (`hostage_threat_pct`, weight in percent), for the holding side, per hostage:
//! [`THREAT_FACTOR`]`[distance] / 1024` × the hostage's value, in rabbits. Ships at 0 for the
//! tuner.
//!
//! The idea, the squares, the distance terms and the factor come from sharp's
//! `eval/hostages.cpp` (David Wu); the code is Tusk's own, and it leaves out what sharp then
//! does with the threat (the strongest-free-piece balance with and without the hostage and
//! its holders, the trap's stability, the steps to break the hold, a swarm of defenders).

use tusk_engine::{Bitboard, Color, PieceKind, Position, Square, NEIGHBOURS};

use crate::trap_influence::{self, DISK2, DISK3};
use crate::weights::id;
use crate::{Context, Sink};

/// The squares where an enemy piece can be held hostage by each trap (in
/// [`Square::TRAPS`] order), nearest the trap first (sharp's `hostageLocs`).
pub const HOSTAGE_SQUARES: [[Square; 9]; 4] = {
    // (file, rank) for the c3 trap; the others mirror it.
    const C3: [(u8, u8); 9] = [
        (1, 3),
        (0, 2),
        (2, 0),
        (1, 1),
        (3, 1),
        (0, 1),
        (1, 0),
        (0, 0),
        (3, 0),
    ];
    let mut out = [[Square::new(0, 0); 9]; 4];
    let mut t = 0;
    while t < 4 {
        let mut i = 0;
        while i < 9 {
            let (f, r) = C3[i];
            let f = if t % 2 == 1 { 7 - f } else { f };
            let r = if t >= 2 { 7 - r } else { r };
            out[t][i] = Square::new(f, r);
            i += 1;
        }
        t += 1;
    }
    out
};

/// Whether the holder may stand two steps away, by index into [`HOSTAGE_SQUARES`].
const FAR_HOLDER: [bool; 9] = [false, false, false, false, false, true, true, true, false];

/// The share of the hostage's value (in 1024ths) by threat distance (sharp's
/// `HOSTAGE_THREAT_FACTOR`).
pub const THREAT_FACTOR: [i32; 24] = [
    800, 760, 750, 740, 730, 590, 560, 500, 460, 390, 340, 280, 210, 150, 100, 60, 20, 0, 0, 0, 0,
    0, 0, 0,
];

/// The squares behind the traps (c2, f2, c7, f7): no escape for a hostage.
const BEHIND_TRAPS: Bitboard = Bitboard((1 << 10) | (1 << 13) | (1 << 50) | (1 << 53));

/// A hostage found by [`hostages`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hostage {
    /// Where the hostage stands.
    pub square: Square,
    /// The trap it is threatened at.
    pub trap: Square,
    /// That trap's index in [`Square::TRAPS`].
    pub trap_index: usize,
    /// The weakest (then most central) stronger piece holding it.
    pub holder: Square,
    /// The next holder, if any.
    pub second: Option<Square>,
}

/// Manhattan distance between two squares, signed for the sums below.
#[inline]
fn distance(a: Square, b: Square) -> i32 {
    i32::from(a.distance(b))
}

/// How central a rank or file index is: 0 at the edge, 3 in the middle.
#[inline]
fn centrality(x: u8) -> u8 {
    [0, 1, 2, 3, 3, 2, 1, 0][usize::from(x)]
}

/// Whether `holder` is a better holder than `than`: weaker, then more central by rank, then
/// by file.
fn is_better_holder(pos: &Position, holder: Square, than: Option<Square>) -> bool {
    let Some(than) = than else {
        return true;
    };
    let kind = |s: Square| pos.piece_at(s).map(|p| p.kind());
    let (a, b) = (kind(holder), kind(than));
    a < b
        || (a == b
            && (centrality(holder.rank()), centrality(holder.file()))
                > (centrality(than.rank()), centrality(than.file())))
}

/// The best two holders among `candidates`.
fn best_holders(pos: &Position, candidates: Bitboard) -> (Option<Square>, Option<Square>) {
    let (mut first, mut second) = (None, None);
    for s in candidates {
        if is_better_holder(pos, s, first) {
            second = first;
            first = Some(s);
        } else if is_better_holder(pos, s, second) {
            second = Some(s);
        }
    }
    (first, second)
}

/// Whether a piece of `color` of kind `kind` may step from `from` to `to` as far as the
/// rabbit rule goes.
#[inline]
pub(crate) fn rabbit_may_step(color: Color, kind: PieceKind, from: Square, to: Square) -> bool {
    kind != PieceKind::Rabbit || to.ranks_from_home(color) >= from.ranks_from_home(color)
}

/// Whether some square of `set` satisfies `f`.
#[inline]
fn some_square(set: Bitboard, mut f: impl FnMut(Square) -> bool) -> bool {
    for s in set {
        if f(s) {
            return true;
        }
    }
    false
}

/// Whether the square has an empty neighbour.
#[inline]
pub(crate) fn is_open(pos: &Position, sq: Square) -> bool {
    (NEIGHBOURS[sq.index()] & pos.empty_squares()).any()
}

/// Whether a piece of `color` and kind `kind` on `at` would be unfrozen, counting no piece on
/// `ignore`: a friend beside it, or no stronger enemy beside it.
pub(crate) fn would_be_unfrozen(
    pos: &Position,
    color: Color,
    kind: PieceKind,
    at: Square,
    ignore: Square,
) -> bool {
    let around = NEIGHBOURS[at.index()] - Bitboard::from_square(ignore);
    (around & pos.occupied_by(color)).any() || (around & pos.stronger_than(!color, kind)).is_empty()
}

/// Whether the piece on `sq` could step somewhere (its rabbit rule kept).
pub(crate) fn is_open_to_step(pos: &Position, sq: Square) -> bool {
    let Some(p) = pos.piece_at(sq) else {
        return false;
    };
    some_square(NEIGHBOURS[sq.index()] & pos.empty_squares(), |to| {
        rabbit_may_step(p.color(), p.kind(), sq, to)
    })
}

/// Whether the piece on `sq` could push a weaker enemy neighbour that has room.
pub(crate) fn is_open_to_push(pos: &Position, sq: Square) -> bool {
    let Some(p) = pos.piece_at(sq) else {
        return false;
    };
    p.kind() != PieceKind::Rabbit
        && some_square(
            NEIGHBOURS[sq.index()] & pos.weaker_than(!p.color(), p.kind()),
            |s| is_open(pos, s),
        )
}

/// Whether the hostage of `enemy` on `from` could get to `to` in a move or two: an empty
/// square, a weaker piece of ours it could push away, or a friend that could make way while
/// the hostage stays unfrozen.
fn can_step_to(pos: &Position, enemy: Color, from: Square, to: Square) -> bool {
    let Some(hostage) = pos.piece_at(from) else {
        return false;
    };
    match pos.piece_at(to) {
        None => true,
        Some(p) if p.color() != enemy => p.kind() < hostage.kind() && is_open(pos, to),
        Some(_) => {
            would_be_unfrozen(pos, enemy, hostage.kind(), from, to)
                && (is_open_to_step(pos, to) || is_open_to_push(pos, to))
        }
    }
}

/// Whether the unfrozen hostage candidate of `enemy` on `sq` (held at `trap` by `holder`
/// and maybe `second`) has a way out: a step that takes it no nearer a holder, not behind a
/// trap, and out towards the opposite trap rather than into the corner.
fn can_escape(
    pos: &Position,
    enemy: Color,
    sq: Square,
    trap_index: usize,
    holder: Square,
    second: Option<Square>,
) -> bool {
    let Some(hostage) = pos.piece_at(sq) else {
        return false;
    };
    let opposite = Square::TRAPS[3 - trap_index];
    some_square(NEIGHBOURS[sq.index()], |to| {
        rabbit_may_step(enemy, hostage.kind(), sq, to)
            && distance(to, holder) >= distance(sq, holder)
            && second.is_none_or(|h| distance(to, h) >= distance(sq, h))
            && !BEHIND_TRAPS.contains(to)
            && distance(to, opposite) <= distance(sq, opposite)
            && can_step_to(pos, enemy, sq, to)
    })
}

/// The hostages `side` holds at its home traps (see the module docs), trap by trap.
pub fn hostages(
    pos: &Position,
    frozen: Bitboard,
    side: Color,
) -> impl Iterator<Item = Hostage> + '_ {
    crate::traps::home_traps(side)
        .into_iter()
        .flat_map(move |t| hostages_at(pos, frozen, side, t))
}

/// The hostages `side` holds at trap `t` (index into [`Square::TRAPS`], one of `side`'s home
/// traps), nearest the trap first.
pub fn hostages_at(
    pos: &Position,
    frozen: Bitboard,
    side: Color,
    t: usize,
) -> impl Iterator<Item = Hostage> + '_ {
    let enemy = !side;
    HOSTAGE_SQUARES[t]
        .iter()
        .enumerate()
        .filter_map(move |(i, &sq)| {
            let p = pos.piece_at(sq)?;
            if p.color() != enemy {
                return None;
            }
            let stronger = pos.stronger_than(side, p.kind());
            let (mut holder, mut second) = best_holders(pos, stronger & NEIGHBOURS[sq.index()]);
            if holder.is_none() && FAR_HOLDER[i] {
                let ring2 = DISK2[sq.index()]
                    - NEIGHBOURS[sq.index()]
                    - Bitboard::from_square(sq)
                    - Bitboard::RANK_1
                    - Bitboard::RANK_8;
                (holder, second) = best_holders(pos, stronger & ring2);
            }
            let holder = holder?;
            if !frozen.contains(sq) && can_escape(pos, enemy, sq, t, holder, second) {
                return None;
            }
            Some(Hostage {
                square: sq,
                trap: Square::TRAPS[t],
                trap_index: t,
                holder,
                second,
            })
        })
}

/// What a piece of `side` on `at` adds to the cost of the path: 1 if it is no stronger than
/// the hostage on `hostage`, 1 if it is frozen.
fn interfere_cost(
    pos: &Position,
    frozen: Bitboard,
    side: Color,
    hostage: Square,
    at: Square,
) -> i32 {
    match (pos.piece_at(at), pos.piece_at(hostage)) {
        (Some(p), Some(h)) if p.color() == side => {
            i32::from(p.kind() <= h.kind()) + i32::from(frozen.contains(at))
        }
        _ => 0,
    }
}

/// The square one step from `from` towards `to` along a file or rank (`from` when equal).
fn towards(from: Square, df: i32, dr: i32) -> Square {
    Square::new(
        (i32::from(from.file()) + df.signum()) as u8,
        (i32::from(from.rank()) + dr.signum()) as u8,
    )
}

/// What our pieces in the way cost on the path from the hostage on `hostage` to `trap`.
fn path_cost(pos: &Position, frozen: Bitboard, side: Color, trap: Square, hostage: Square) -> i32 {
    let df = i32::from(hostage.file()) - i32::from(trap.file());
    let dr = i32::from(hostage.rank()) - i32::from(trap.rank());
    let d = df.abs() + dr.abs();
    if d < 2 {
        return 0;
    }
    let cost = |s: Square| interfere_cost(pos, frozen, side, hostage, s);
    // The trap itself, then the trap's neighbour towards the hostage (the cheaper of two on a
    // diagonal), then, when farther, the hostage's neighbour towards the trap.
    let mut total = cost(trap);
    total += if df == 0 || dr == 0 {
        cost(towards(trap, df, dr))
    } else {
        cost(towards(trap, df, 0)).min(cost(towards(trap, 0, dr)))
    };
    if d > 2 {
        total += if df == 0 || dr == 0 {
            cost(towards(hostage, -df, -dr))
        } else {
            cost(towards(hostage, -df, 0)).min(cost(towards(hostage, 0, -dr)))
        };
    }
    total
}

/// The unfreezing distance of a piece of `color` on `sq` (0 when it is not frozen), signed.
fn freedom(pos: &Position, frozen: Bitboard, color: Color, sq: Square) -> i32 {
    trap_influence::steps_to_free(pos, color, frozen, sq) as i32
}

/// The steps `side` needs to capture hostage `h` (see the module docs), at least 0.
pub fn threat_distance(pos: &Position, ctx: &Context, side: Color, h: &Hostage) -> i32 {
    let enemy = !side;
    let frozen = ctx.frozen[Color::Gold] | ctx.frozen[Color::Silver];
    let Some(hostage) = pos.piece_at(h.square) else {
        return 0;
    };
    let to_trap = distance(h.square, h.trap);
    let mut d = to_trap * 2 + path_cost(pos, frozen, side, h.trap, h.square);
    if let Some(p) = pos.piece_at(h.trap) {
        if p.color() == side && p.kind() <= hostage.kind() {
            d += 1;
        }
    }
    // The holder's unfreezing distance (the second holder's when smaller).
    let mut holder_free = freedom(pos, ctx.frozen[side], side, h.holder);
    if let Some(s) = h.second {
        if holder_free > 0 {
            holder_free = holder_free.min(freedom(pos, ctx.frozen[side], side, s));
        }
    }
    d += holder_free;
    if distance(h.square, h.holder) >= 2 {
        // A holder two steps away: one more, plus the cheapest square between them.
        d += 1;
        let between = NEIGHBOURS[h.square.index()] & NEIGHBOURS[h.holder.index()];
        let mut extra = 6;
        for s in between {
            let mut e = 0;
            if let Some(p) = pos.piece_at(s) {
                e += 1;
                if !is_open(pos, s) {
                    e += 1;
                }
                if p.color() == enemy {
                    e += 2;
                }
            }
            if would_be_unfrozen(pos, enemy, hostage.kind(), s, h.square) {
                e += 3;
            }
            extra = extra.min(e);
        }
        d += extra;
    } else if to_trap >= 3 {
        // Pulled onto the holder's square, it would be guarded there.
        let guards = NEIGHBOURS[h.holder.index()] - Bitboard::from_square(h.square);
        if (guards & pos.occupied_by(enemy)).any() {
            d += 3;
        }
    }
    // A hostage that can walk away.
    if freedom(pos, ctx.frozen[enemy], enemy, h.square) <= 1 {
        let guarded = (NEIGHBOURS[h.square.index()] & pos.occupied_by(enemy)).any();
        let trap_ring = NEIGHBOURS[h.trap.index()];
        let mut most = 0;
        for to in NEIGHBOURS[h.square.index()] {
            if !rabbit_may_step(enemy, hostage.kind(), h.square, to)
                || distance(to, h.holder) < distance(h.square, h.holder)
            {
                continue;
            }
            let mut e = 0;
            if can_step_to(pos, enemy, h.square, to) {
                e += 2;
                if guarded && !trap_ring.contains(to) {
                    e += 2;
                }
            }
            most = most.max(e);
        }
        d += most;
    }
    // The enemy elephant buried in the corner near its hostage.
    let holder_is_elephant = pos
        .piece_at(h.holder)
        .is_some_and(|p| p.kind() == PieceKind::Elephant);
    if holder_is_elephant {
        let opposite = Square::TRAPS[3 - h.trap_index];
        let elephant = pos.pieces_of(enemy, PieceKind::Elephant);
        if (elephant & DISK3[h.square.index()]).any() {
            if let Some(e) = elephant.first() {
                let far = distance(e, opposite);
                if far > 5 {
                    d = (d - (far - 5)).max(0);
                }
            }
        }
    }
    d.max(0)
}

/// The hostage-threat features of both sides (see the module docs).
pub fn hostage_threat_features<S: Sink>(pos: &Position, ctx: &Context, sink: &mut S) {
    if !sink.wants(id::hostage_threat_pct) {
        return;
    }
    let frozen = ctx.frozen[Color::Gold] | ctx.frozen[Color::Silver];
    for side in Color::ALL {
        for h in hostages(pos, frozen, side) {
            let d = threat_distance(pos, ctx, side, &h) as usize;
            let factor = THREAT_FACTOR.get(d).copied().unwrap_or(0);
            if factor == 0 {
                continue;
            }
            let Some(p) = pos.piece_at(h.square) else {
                continue;
            };
            let value = ctx.values[!side][p.kind().index()];
            sink.add_share(side, id::hostage_threat_pct, factor * value, 1024 * 100);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_util::pos;
    use crate::{ScoreSink, Weights};
    use tusk_engine::ByColor;

    fn sq(s: &str) -> Square {
        Square::parse(s).unwrap()
    }

    /// Gold to move with `pieces`, silver's elephant and a rabbit of each side far off.
    fn corner(pieces: &[(&'static str, &'static str)]) -> Position {
        let mut all = pieces.to_vec();
        all.extend([("e", "h8"), ("r", "h7"), ("R", "g1")]);
        pos("g", &all)
    }

    fn found(p: &Position, side: Color) -> Vec<Hostage> {
        let frozen = p.frozen(Color::Gold) | p.frozen(Color::Silver);
        hostages(p, frozen, side).collect()
    }

    fn distance_of(p: &Position, side: Color, at: &str) -> i32 {
        let w = Weights::default();
        let ctx = Context::new(p, &w);
        let h = found(p, side)
            .into_iter()
            .find(|h| h.square == sq(at))
            .expect("a hostage there");
        threat_distance(p, &ctx, side, &h)
    }

    fn threat(p: &Position) -> ByColor<i32> {
        let mut w = Weights::default();
        w[id::hostage_threat_pct] = 100;
        let ctx = Context::new(p, &w);
        let mut sink = ScoreSink::new(&w);
        hostage_threat_features(p, &ctx, &mut sink);
        sink.totals()
    }

    #[test]
    fn the_hostage_squares_lie_between_each_trap_and_its_corner() {
        assert_eq!(HOSTAGE_SQUARES[0][0], sq("b4"));
        assert_eq!(HOSTAGE_SQUARES[0][7], sq("a1"));
        assert_eq!(HOSTAGE_SQUARES[1][0], sq("g4"));
        assert_eq!(HOSTAGE_SQUARES[2][0], sq("b5"));
        assert_eq!(HOSTAGE_SQUARES[3][7], sq("h8"));
        for (t, squares) in HOSTAGE_SQUARES.iter().enumerate() {
            for s in squares {
                assert!(distance(*s, Square::TRAPS[t]) <= 4, "{s:?}");
            }
        }
    }

    #[test]
    fn a_frozen_enemy_piece_beside_a_stronger_one_of_ours_near_our_trap_is_a_hostage() {
        // Silver's dog on b2, frozen by gold's elephant on b3, by gold's c3 trap.
        let p = corner(&[("d", "b2"), ("E", "b3")]);
        let h = found(&p, Color::Gold);
        assert_eq!(h.len(), 1);
        assert_eq!(h[0].square, sq("b2"));
        assert_eq!(h[0].trap, sq("c3"));
        assert_eq!(h[0].holder, sq("b3"));
        assert!(found(&p, Color::Silver).is_empty());
        assert!(threat(&p)[Color::Gold] > 0);
        assert_eq!(threat(&p)[Color::Silver], 0);
        // A weaker gold piece beside it holds nothing.
        let weak = pos(
            "g",
            &[
                ("d", "b2"),
                ("C", "b3"),
                ("E", "e4"),
                ("e", "h8"),
                ("r", "h7"),
            ],
        );
        assert!(found(&weak, Color::Gold).is_empty());
        // Near silver's own traps it is no hostage of gold's.
        let far = pos(
            "g",
            &[
                ("d", "b7"),
                ("E", "b6"),
                ("e", "h1"),
                ("r", "h7"),
                ("R", "g1"),
            ],
        );
        assert!(found(&far, Color::Gold).is_empty());
    }

    #[test]
    fn an_unfrozen_piece_that_can_walk_out_is_no_hostage() {
        // Silver's dog on b4 beside gold's elephant on a4, a silver friend on c4 keeps it
        // unfrozen and b5 is open: it walks away.
        let free = corner(&[("d", "b4"), ("E", "a4"), ("c", "c4")]);
        assert!(found(&free, Color::Gold).is_empty());
        // Frozen it is held.
        let held = corner(&[("d", "b4"), ("E", "a4")]);
        assert_eq!(found(&held, Color::Gold).len(), 1);
    }

    #[test]
    fn the_farther_from_the_trap_the_longer_the_threat() {
        let near = corner(&[("d", "b2"), ("E", "b1")]);
        let corner = corner(&[("d", "a1"), ("E", "b1")]);
        let (dn, dc) = (
            distance_of(&near, Color::Gold, "b2"),
            distance_of(&corner, Color::Gold, "a1"),
        );
        assert!(dn < dc, "b2 {dn} vs a1 {dc}");
        assert!(threat(&near)[Color::Gold] > threat(&corner)[Color::Gold]);
        // Our own weak piece on the trap is in the way.
        let blocked = pos(
            "g",
            &[
                ("d", "b2"),
                ("E", "b1"),
                ("R", "c3"),
                ("C", "d3"),
                ("e", "h8"),
                ("r", "h7"),
            ],
        );
        assert!(distance_of(&blocked, Color::Gold, "b2") > dn);
    }

    #[test]
    fn colours_mirror_exactly() {
        let positions = [
            corner(&[("d", "b2"), ("E", "b3")]),
            pos(
                "s",
                &[
                    ("d", "b2"),
                    ("E", "b1"),
                    ("h", "g7"),
                    ("e", "g6"),
                    ("R", "h6"),
                    ("r", "a7"),
                ],
            ),
            crate::test_util::seed_diagram("s"),
        ];
        for p in positions {
            let (a, b) = (threat(&p), threat(&p.flip()));
            assert_eq!(a[Color::Gold], b[Color::Silver]);
            assert_eq!(a[Color::Silver], b[Color::Gold]);
        }
    }
}
