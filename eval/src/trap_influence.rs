//! The smooth control of each trap: who holds it, and how firmly, from every piece within
//! four steps of it, weighted by the piece's strength, freedom and distance.
//!
//! A piece's influence is `(strength + unchallenged) × freedom × dominated × distance`:
//!
//! * `strength` (`influence_strength`) by how many enemy pieces are stronger than it;
//! * `unchallenged` (`influence_unchallenged`) by how many unfrozen stronger enemy pieces
//!   stand within three steps of it (none: a piece that rules its neighbourhood);
//! * `freedom` (`influence_freedom`) by its unfreezing distance (0 when it is not frozen, else
//!   the steps its side needs to bring a friend beside it, see [`unfreezing_distance`]);
//! * `dominated` (`influence_dominated`) whether an unfrozen stronger enemy piece is beside it;
//! * `distance` (`influence_distance`) by its distance to the trap, 0 to 4 steps.
//!
//! Per trap, the attacker's sum (the side whose home trap it is not) is scaled by
//! `influence_attacker_pct`, each side's sum is divided by 2^15, and the control is gold's
//! minus silver's, plus: `influence_guards` by each side's number of guards; for the attacker,
//! `influence_key_square` on each of the trap's two key squares (the square behind it and its
//! outer side square) that it holds or threatens with an undominated piece other than the
//! elephant; `influence_strongest` for the side with the strongest non-elephant piece near the
//! trap when the other has none of that kind there.
//!
//! The unit is sharp's trap-control unit (`eval/trapcontrol.cpp`, whose numbers these are): an
//! unchallenged free elephant beside a trap gives about 40, a trap firmly held at home in the
//! opening about 115. Positive values are gold's. All of it is shape (fixed parameters): the
//! control feeds the piecewise-linear curve of [`crate::trap_curve`].

use tusk_engine::{Bitboard, ByColor, Color, PieceKind, Position, Square, NEIGHBOURS};

use crate::traps::is_home_trap;
use crate::weights::id;
use crate::{Context, Weights};

/// The farthest a piece counts from a trap, in steps.
pub const REACH: u8 = 4;

/// For each square, the squares within `r` steps (Manhattan distance at most `r`).
pub(crate) const fn disks(r: u8) -> [Bitboard; 64] {
    let mut out = [Bitboard(0); 64];
    let mut a = 0;
    while a < 64 {
        let mut b = 0;
        while b < 64 {
            if Square::from_index(a as u8).distance(Square::from_index(b as u8)) <= r {
                out[a].0 |= 1u64 << b;
            }
            b += 1;
        }
        a += 1;
    }
    out
}

/// The squares within two steps of each square.
pub const DISK2: [Bitboard; 64] = disks(2);

/// The squares within three steps of each square.
pub const DISK3: [Bitboard; 64] = disks(3);

/// The squares within four steps of each square.
pub const DISK4: [Bitboard; 64] = disks(4);

/// The distance from each square to each trap, in [`Square::TRAPS`] order.
pub const TRAP_DISTANCE: [[u8; 4]; 64] = {
    let mut out = [[0u8; 4]; 64];
    let mut s = 0;
    while s < 64 {
        let mut t = 0;
        while t < 4 {
            out[s][t] = Square::from_index(s as u8).distance(Square::TRAPS[t]);
            t += 1;
        }
        s += 1;
    }
    out
};

/// The key squares of trap `t` (index into [`Square::TRAPS`]): the square behind it (towards
/// its owner's home rank) and its outer side square (towards the nearer board edge).
pub const fn key_squares(t: usize) -> [Square; 2] {
    let trap = Square::TRAPS[t];
    let behind = if t < 2 {
        Square::new(trap.file(), trap.rank() - 1)
    } else {
        Square::new(trap.file(), trap.rank() + 1)
    };
    let outside = if t.is_multiple_of(2) {
        Square::new(trap.file() - 1, trap.rank())
    } else {
        Square::new(trap.file() + 1, trap.rank())
    };
    [behind, outside]
}

/// For each side and kind, the unfrozen enemy pieces stronger than a piece of that kind.
pub(crate) fn stronger_unfrozen(
    pos: &Position,
    frozen: &ByColor<Bitboard>,
) -> ByColor<[Bitboard; 6]> {
    let mut out = ByColor([[Bitboard::EMPTY; 6]; 2]);
    for c in Color::ALL {
        let mut above = Bitboard::EMPTY;
        for k in (0..PieceKind::NUM).rev() {
            out[c][k] = above;
            above |= pos.pieces_of(!c, PieceKind::from_index(k)) - frozen[!c];
        }
    }
    out
}

/// The pieces of each side with a stronger enemy piece beside them (frozen or not).
pub fn dominated(pos: &Position) -> ByColor<Bitboard> {
    let mut out = ByColor([Bitboard::EMPTY; 2]);
    for c in Color::ALL {
        let mut above = Bitboard::EMPTY;
        for k in (0..PieceKind::NUM).rev() {
            let kind = PieceKind::from_index(k);
            out[c] |= pos.pieces_of(c, kind) & above.neighbours();
            above |= pos.pieces_of(!c, kind);
        }
    }
    out
}

/// The unfreezing distance of `color`'s piece on `sq`: 0 when it is not frozen (in
/// `frozen`), else [`unfreezing_distance`].
pub fn steps_to_free(pos: &Position, color: Color, frozen: Bitboard, sq: Square) -> usize {
    if frozen.contains(sq) {
        unfreezing_distance(pos, color, frozen, sq)
    } else {
        0
    }
}

/// How many steps `color` needs to unfreeze its frozen piece on `sq`, at most 3: 1 when an
/// unfrozen friend can step onto an empty square beside it, 2 when one can get there in two
/// steps over an empty square, else 3 (no empty square beside it, or no friend near). A count
/// of plain steps: a rabbit's direction and trap safety are not considered.
pub fn unfreezing_distance(pos: &Position, color: Color, frozen: Bitboard, sq: Square) -> usize {
    let empty = pos.empty_squares();
    let spots = NEIGHBOURS[sq.index()] & empty;
    let friends = pos.occupied_by(color) - frozen - Bitboard::from_square(sq);
    if (spots.neighbours() & friends).any() {
        1
    } else if ((spots.neighbours() & empty).neighbours() & friends).any() {
        2
    } else {
        3
    }
}

/// The attacker's gain on a key square `sq`: `held` when `attacker` stands there with an
/// undominated piece other than the elephant; `threat` when the square is empty or holds a
/// defender's piece and an undominated attacking piece other than the elephant, stronger than
/// that piece, stands beside it; else 0.
fn key_square_gain(
    pos: &Position,
    dominated: &ByColor<Bitboard>,
    attacker: Color,
    sq: Square,
    [held, threat]: [i32; 2],
) -> i32 {
    let helpers = pos.occupied_by(attacker)
        - pos.pieces_of(attacker, PieceKind::Elephant)
        - dominated[attacker];
    match pos.piece_at(sq) {
        Some(p) if p.color() == attacker => {
            if helpers.contains(sq) {
                held
            } else {
                0
            }
        }
        occupant => {
            let able = match occupant {
                Some(p) => pos.stronger_than(attacker, p.kind()),
                None => pos.occupied_by(attacker),
            };
            if (NEIGHBOURS[sq.index()] & able & helpers).any() {
                threat
            } else {
                0
            }
        }
    }
}

/// The control bonus of the side with the strongest non-elephant piece near `trap` when the
/// other side has none of that kind there (camel, else horse, else dog): `near` for unfrozen
/// pieces within two steps, `far` for any within three. Gold's view.
fn strongest_near(
    pos: &Position,
    frozen: &ByColor<Bitboard>,
    trap: Square,
    [near, far]: [i32; 2],
) -> i32 {
    let mut out = 0;
    for (disk, bonus, unfrozen_only) in [(&DISK2, near, true), (&DISK3, far, false)] {
        for kind in [PieceKind::Camel, PieceKind::Horse, PieceKind::Dog] {
            let here = |c: Color| {
                let mut b = pos.pieces_of(c, kind) & disk[trap.index()];
                if unfrozen_only {
                    b -= frozen[c];
                }
                b.any()
            };
            let (g, s) = (here(Color::Gold), here(Color::Silver));
            if g && !s {
                out += bonus;
            } else if s && !g {
                out -= bonus;
            }
            if g || s {
                break;
            }
        }
    }
    out
}

/// The influence of `c`'s piece of `kind` on `sq` before its distance to a trap:
/// `(strength + unchallenged) × freedom × dominated` (see the module docs).
fn piece_influence(
    pos: &Position,
    ctx: &Context,
    w: &Weights,
    c: Color,
    kind: PieceKind,
    sq: Square,
) -> i64 {
    let base = w[id::influence_strength][usize::from(ctx.stronger[c][kind.index()]).min(8)];
    let challengers = ctx.attackers[c][kind.index()];
    let near = (DISK3[sq.index()] & challengers).count() as usize;
    let s = i64::from(base + w[id::influence_unchallenged][near.min(4)]);
    let beside = usize::from((NEIGHBOURS[sq.index()] & challengers).any());
    let uf = steps_to_free(pos, c, ctx.frozen[c], sq);
    s * i64::from(w[id::influence_freedom][uf]) * i64::from(w[id::influence_dominated][beside])
}

/// What `c`'s piece of `kind` on `sq` adds to `c`'s smooth control of trap `t` (positive for
/// `c`, sharp's unit): its share of [`trap_influence`]'s sum, 0 beyond [`REACH`] steps.
pub fn piece_share(
    pos: &Position,
    ctx: &Context,
    w: &Weights,
    c: Color,
    kind: PieceKind,
    sq: Square,
    t: usize,
) -> i32 {
    let d = TRAP_DISTANCE[sq.index()][t];
    if d > REACH {
        return 0;
    }
    let mut raw = piece_influence(pos, ctx, w, c, kind, sq)
        * i64::from(w[id::influence_distance][usize::from(d)]);
    if !is_home_trap(t, c) {
        raw = raw * i64::from(w[id::influence_attacker_pct]) / 100;
    }
    (raw >> 15).clamp(-(1 << 30), 1 << 30) as i32
}

/// What `c`'s elephant adds to `c`'s smooth control of each trap (in [`Square::TRAPS`] order,
/// positive for `c`, sharp's unit): its share of [`trap_influence`]'s sum, 0 for a trap more
/// than [`REACH`] steps away or when `c` has no elephant.
pub fn elephant_influence(pos: &Position, ctx: &Context, w: &Weights, c: Color) -> [i32; 4] {
    let mut out = [0i32; 4];
    if let Some(sq) = pos.pieces_of(c, PieceKind::Elephant).into_iter().next() {
        for (t, share) in out.iter_mut().enumerate() {
            *share = piece_share(pos, ctx, w, c, PieceKind::Elephant, sq, t);
        }
    }
    out
}

/// The smooth control of each trap, in [`Square::TRAPS`] order: positive when gold holds it
/// (see the module docs). Needs the context's frozen pieces, stronger counts, attackers and
/// dominated pieces.
pub fn trap_influence(pos: &Position, ctx: &Context, w: &Weights) -> [i32; 4] {
    let by_distance = &w[id::influence_distance];
    let mut raw = [[0i64; 4]; 2];
    for c in Color::ALL {
        for kind in PieceKind::ALL {
            for sq in pos.pieces_of(c, kind) {
                let v = piece_influence(pos, ctx, w, c, kind, sq);
                for (t, &d) in TRAP_DISTANCE[sq.index()].iter().enumerate() {
                    if d <= REACH {
                        raw[c.index()][t] += v * i64::from(by_distance[usize::from(d)]);
                    }
                }
            }
        }
    }
    let attacker_pct = i64::from(w[id::influence_attacker_pct]);
    let guards = &w[id::influence_guards];
    let key = [
        w[id::influence_key_square.at(0)],
        w[id::influence_key_square.at(1)],
    ];
    let strongest = [
        w[id::influence_strongest.at(0)],
        w[id::influence_strongest.at(1)],
    ];
    let dominated = &ctx.dominated;
    let mut out = [0i32; 4];
    for (t, trap) in Square::TRAPS.iter().enumerate() {
        let attacker = if is_home_trap(t, Color::Gold) {
            Color::Silver
        } else {
            Color::Gold
        };
        let a = attacker.index();
        raw[a][t] = raw[a][t] * attacker_pct / 100;
        let mut control = (raw[0][t] >> 15) - (raw[1][t] >> 15);
        let ring = NEIGHBOURS[trap.index()];
        let guard_count = |c: Color| (ring & pos.occupied_by(c)).count() as usize;
        control += i64::from(guards[guard_count(Color::Gold)] - guards[guard_count(Color::Silver)]);
        let mut attack = 0;
        for sq in key_squares(t) {
            attack += key_square_gain(pos, dominated, attacker, sq, key);
        }
        control += i64::from(match attacker {
            Color::Gold => attack,
            Color::Silver => -attack,
        });
        control += i64::from(strongest_near(pos, &ctx.frozen, *trap, strongest));
        out[t] = control.clamp(-(1 << 30), 1 << 30) as i32;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_util::{opening, pos};

    fn influence(p: &Position) -> [i32; 4] {
        let w = Weights::hand_set();
        Context::new(p, &w).influence
    }

    fn sq(s: &str) -> Square {
        Square::parse(s).unwrap()
    }

    #[test]
    fn geometry() {
        assert_eq!(key_squares(0), [sq("c2"), sq("b3")]);
        assert_eq!(key_squares(1), [sq("f2"), sq("g3")]);
        assert_eq!(key_squares(2), [sq("c7"), sq("b6")]);
        assert_eq!(key_squares(3), [sq("f7"), sq("g6")]);
        assert_eq!(DISK2[sq("c3").index()].count(), 13);
        assert_eq!(DISK3[sq("d4").index()].count(), 25);
        assert_eq!(TRAP_DISTANCE[sq("a1").index()], [4, 7, 7, 10]);
    }

    #[test]
    fn the_opening_holds_each_home_trap_as_sharp_measures_it() {
        let c = influence(&opening());
        assert_eq!(c[0], -c[2]);
        assert_eq!(c[1], -c[3]);
        // sharp's evalPos prints 116 and 118 for this setup (with its own unfreezing
        // distances and trap-stuffing terms, which are not modelled here).
        for (t, want) in [(0, 116), (1, 118)] {
            assert!((c[t] - want).abs() <= 12, "trap {t}: {c:?}");
        }
    }

    #[test]
    fn an_elephant_beside_a_trap_outweighs_lesser_defenders() {
        // A gold elephant beside c6 against a silver dog on d6 and a rabbit on a7.
        let p = pos(
            "g",
            &[
                ("E", "c5"),
                ("d", "d6"),
                ("r", "a7"),
                ("R", "a2"),
                ("e", "h8"),
            ],
        );
        assert!(influence(&p)[2] > 0, "{:?}", influence(&p));
        // Far away, it leaves the trap to silver.
        let q = pos(
            "g",
            &[
                ("E", "h3"),
                ("d", "d6"),
                ("r", "a7"),
                ("R", "a2"),
                ("e", "h8"),
            ],
        );
        assert!(influence(&q)[2] < 0, "{:?}", influence(&q));
    }

    #[test]
    fn distance_and_freedom_weaken_a_piece() {
        let base = [("R", "a2"), ("r", "a7"), ("E", "h1"), ("e", "h8")];
        let with = |extra: &[(&'static str, &'static str)]| {
            let mut v = base.to_vec();
            v.extend_from_slice(extra);
            influence(&pos("g", &v))[0]
        };
        let beside = with(&[("H", "c4")]);
        let two = with(&[("H", "c5")]);
        let four = with(&[("H", "c7")]);
        assert!(beside > two && two > four, "{beside} {two} {four}");
        // Frozen by a silver camel on b4, the horse counts less than with the camel on a3:
        // the same distance from c3 and from the horse's key squares, but not beside it.
        let frozen = with(&[("H", "c4"), ("m", "b4")]);
        let free = with(&[("H", "c4"), ("m", "a3")]);
        assert!(frozen < free, "{frozen} {free}");
    }

    #[test]
    fn unfreezing_distance_counts_the_steps_to_a_friend() {
        let frozen_at = |p: &Position| {
            let f = p.frozen(Color::Gold);
            unfreezing_distance(p, Color::Gold, f, sq("d4"))
        };
        // A gold horse d4 frozen by the silver camel d5.
        let mk = |friend: &'static str| {
            pos(
                "g",
                &[
                    ("H", "d4"),
                    ("m", "d5"),
                    ("D", friend),
                    ("R", "a1"),
                    ("r", "a8"),
                    ("E", "h1"),
                    ("e", "h8"),
                ],
            )
        };
        assert_eq!(frozen_at(&mk("d2")), 1, "d2 steps to d3");
        assert_eq!(frozen_at(&mk("c2")), 2, "c2 needs d2 or c3, then d3");
        assert_eq!(frozen_at(&mk("b3")), 2, "b3 needs c3 then c4 or d3");
        assert_eq!(frozen_at(&mk("f7")), 3);
    }

    #[test]
    fn key_squares_behind_and_beside_a_home_trap_count_for_the_attacker() {
        // A silver horse on c2 (behind gold's c3) against the same horse on c4 (above it).
        let base = [
            ("R", "a1"),
            ("r", "a8"),
            ("E", "h1"),
            ("e", "h8"),
            ("D", "f2"),
        ];
        let with = |s: &'static str| {
            let mut v = base.to_vec();
            v.push(("h", s));
            influence(&pos("g", &v))[0]
        };
        // c2 and c4 are both beside c3; on c2 the horse also holds a key square.
        assert!(with("c2") < with("c4"), "{} {}", with("c2"), with("c4"));
    }

    #[test]
    fn colours_mirror_exactly() {
        let p = pos(
            "g",
            &[
                ("E", "c5"),
                ("M", "f4"),
                ("h", "d6"),
                ("d", "c7"),
                ("r", "b6"),
                ("R", "a2"),
                ("e", "g3"),
                ("m", "f7"),
                ("C", "b3"),
            ],
        );
        let a = influence(&p);
        let b = influence(&p.flip());
        assert_eq!(a, [-b[2], -b[3], -b[0], -b[1]]);
    }

    #[test]
    fn a_home_trap_held_by_the_elephant_and_camel_outweighs_an_empty_one() {
        let base = [("R", "a1"), ("r", "a8"), ("e", "e8"), ("m", "d8")];
        let with = |extra: &[(&'static str, &'static str)]| {
            let mut v = base.to_vec();
            v.extend_from_slice(extra);
            influence(&pos("g", &v))
        };
        // Gold's elephant and camel beside c3 against the same pieces far from it.
        let held = with(&[("E", "c4"), ("M", "b3")]);
        let empty = with(&[("E", "h5"), ("M", "h4")]);
        assert!(held[0] > empty[0] + 40, "held {held:?}, empty {empty:?}");
        assert!(held[0] > 0);
        // The f3 trap, far from both, hardly changes.
        assert!((held[1] - empty[1]).abs() < held[0] - empty[0]);
    }
}
