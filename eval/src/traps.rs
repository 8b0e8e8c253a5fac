//! Trap control: who owns each of the four traps, and which pieces stand in danger there.
//!
//! Every piece within three steps of a trap exerts influence on it: its strength relative to
//! the enemy army (how many enemy pieces outrank it), times a factor for its distance, halved
//! when it is frozen. Guards (pieces next to the trap) count fully. The side whose strongest
//! nearby piece outranks every enemy piece near the trap gets a dominance bonus. Control is
//! gold's influence minus silver's. All of that is shape (fixed parameters): the control
//! feeds a cap, so the evaluation is not linear in it.
//!
//! Features: per trap a side holds, the share it holds (control / `trap_control_cap`, 0 to 1)
//! for `trap_home` or `trap_away`; per piece in danger, minus its value in rabbits times the
//! enemy's share, for `trap_danger_pct`.

use tusk_engine::{Bitboard, Color, PieceKind, Position, Square, NEIGHBOURS};

use crate::weights::id;
use crate::{Context, Sink, Weights};

/// The squares at Manhattan distance exactly 0, 1, 2 and 3 from each trap, in
/// [`Square::TRAPS`] order.
pub(crate) const RINGS: [[Bitboard; 4]; 4] = {
    let mut out = [[Bitboard(0); 4]; 4];
    let mut t = 0;
    while t < 4 {
        let trap = Square::TRAPS[t];
        let mut sq = 0;
        while sq < 64 {
            let s = Square::from_index(sq as u8);
            let d = s.distance(trap);
            if d < 4 {
                out[t][d as usize].0 |= 1u64 << sq;
            }
            sq += 1;
        }
        t += 1;
    }
    out
};

/// Whether trap `t` (index into [`Square::TRAPS`]) lies on `color`'s home half.
#[inline]
pub const fn is_home_trap(t: usize, color: Color) -> bool {
    match color {
        Color::Gold => t < 2,
        Color::Silver => t >= 2,
    }
}

/// `color`'s two home traps, as indices into [`Square::TRAPS`] (those [`is_home_trap`] names).
#[inline]
pub const fn home_traps(color: Color) -> [usize; 2] {
    match color {
        Color::Gold => [0, 1],
        Color::Silver => [2, 3],
    }
}

/// The trap influence of one piece of `color` and `kind` (before distance and freezing).
#[inline]
fn strength(ctx: &Context, w: &Weights, color: Color, kind: PieceKind) -> i32 {
    if kind == PieceKind::Rabbit {
        w[id::trap_rabbit_strength]
    } else {
        w[id::trap_strength.at(usize::from(ctx.stronger[color][kind.index()]).min(7))]
    }
}

/// The control of each trap, in [`Square::TRAPS`] order: positive when gold holds it.
pub fn trap_control(pos: &Position, ctx: &Context, w: &Weights) -> [i32; 4] {
    let mut out = [0i32; 4];
    for (t, rings) in RINGS.iter().enumerate() {
        let mut infl = [0i32; 2];
        let mut top: [Option<PieceKind>; 2] = [None, None];
        for (d, ring) in rings.iter().enumerate() {
            for sq in *ring & pos.occupied() {
                let Some(p) = pos.piece_at(sq) else { continue };
                let c = p.color();
                let mut v = strength(ctx, w, c, p.kind()) * w[id::trap_distance_pct.at(d)];
                if ctx.frozen[c].contains(sq) {
                    v = v * w[id::trap_frozen_pct] / 100;
                }
                infl[c.index()] += v / 100;
                if d <= 2 && !matches!(top[c.index()], Some(k) if k >= p.kind()) {
                    top[c.index()] = Some(p.kind());
                }
            }
        }
        let dominance = w[id::trap_dominance];
        match (top[0], top[1]) {
            (Some(g), Some(s)) if g > s => infl[0] += dominance,
            (Some(g), Some(s)) if s > g => infl[1] += dominance,
            (Some(_), None) => infl[0] += dominance,
            (None, Some(_)) => infl[1] += dominance,
            _ => {}
        }
        out[t] = infl[0] - infl[1];
    }
    out
}

/// How fully `color` controls trap `t`, from 0 to `trap_control_cap`.
#[inline]
pub fn held_by(ctx: &Context, w: &Weights, t: usize, color: Color) -> i32 {
    let c = match color {
        Color::Gold => ctx.control[t],
        Color::Silver => -ctx.control[t],
    };
    c.clamp(0, control_cap(w))
}

/// The control at which a trap counts as fully held (at least 1).
#[inline]
pub fn control_cap(w: &Weights) -> i32 {
    w[id::trap_control_cap].max(1)
}

/// The trap-control features: for each trap a side holds, its share of full control, for
/// `trap_home` (its own two traps) or `trap_away` (the enemy's).
pub fn control_features<S: Sink>(ctx: &Context, w: &Weights, sink: &mut S) {
    let cap = control_cap(w);
    for c in Color::ALL {
        for t in 0..4 {
            let held = held_by(ctx, w, t, c);
            if held == 0 {
                continue;
            }
            let weight = if is_home_trap(t, c) {
                id::trap_home
            } else {
                id::trap_away
            };
            if sink.wants(weight) {
                sink.add_share(c, weight, held, cap);
            }
        }
    }
}

/// The trap-danger features (penalties): each piece of a side on or next to a trap the enemy
/// controls, with an enemy piece able to dislodge it within two steps, gives minus its value
/// in rabbits times the enemy's share of the trap, for `trap_danger_pct`.
pub fn danger_features<S: Sink>(pos: &Position, ctx: &Context, w: &Weights, sink: &mut S) {
    if !sink.wants(id::trap_danger_pct) {
        return;
    }
    let cap = control_cap(w);
    for c in Color::ALL {
        for (t, rings) in RINGS.iter().enumerate() {
            let held = held_by(ctx, w, t, !c);
            if held == 0 {
                continue;
            }
            for sq in (rings[0] | rings[1]) & pos.occupied_by(c) {
                let Some(p) = pos.piece_at(sq) else { continue };
                let near = NEIGHBOURS[sq.index()] | NEIGHBOURS[sq.index()].neighbours();
                if (pos.stronger_than(!c, p.kind()) & near).is_empty() {
                    continue;
                }
                let v = ctx.values[c][p.kind().index()];
                sink.add_share2(c, id::trap_danger_pct, -v, 100, held, cap);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_util::pos;
    use crate::ScoreSink;

    fn control(p: &Position) -> [i32; 4] {
        let w = Weights::default();
        Context::new(p, &w).control
    }

    #[test]
    fn the_opening_is_balanced_with_each_side_holding_its_home_traps() {
        let c = control(&crate::test_util::opening());
        assert!(c[0] > 0 && c[1] > 0, "gold holds c3 and f3: {c:?}");
        assert!(c[2] < 0 && c[3] < 0, "silver holds c6 and f6: {c:?}");
        assert_eq!(c[0], -c[2]);
        assert_eq!(c[1], -c[3]);
    }

    #[test]
    fn an_elephant_next_to_a_trap_controls_it() {
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
        let c = control(&p);
        assert!(
            c[2] > 0,
            "the gold elephant beside c6 outweighs a silver dog: {c:?}"
        );
        // Moving the elephant away hands the trap back.
        let q = pos(
            "g",
            &[
                ("E", "h4"),
                ("d", "d6"),
                ("r", "a7"),
                ("R", "a2"),
                ("e", "h8"),
            ],
        );
        assert!(control(&q)[2] < 0);
    }

    #[test]
    fn frozen_and_distant_pieces_count_less() {
        let near = pos(
            "g",
            &[
                ("H", "c4"),
                ("r", "a7"),
                ("R", "a2"),
                ("e", "h8"),
                ("E", "h1"),
            ],
        );
        let far = pos(
            "g",
            &[
                ("H", "c1"),
                ("r", "a7"),
                ("R", "a2"),
                ("e", "h8"),
                ("E", "h1"),
            ],
        );
        assert!(control(&near)[0] > control(&far)[0]);
        let frozen = pos(
            "g",
            &[
                ("H", "c4"),
                ("m", "c5"),
                ("r", "a7"),
                ("R", "a2"),
                ("e", "h8"),
                ("E", "h1"),
            ],
        );
        let free = pos(
            "g",
            &[
                ("H", "c4"),
                ("m", "g5"),
                ("r", "a7"),
                ("R", "a2"),
                ("e", "h8"),
                ("E", "h1"),
            ],
        );
        assert!(control(&frozen)[0] < control(&free)[0]);
    }

    #[test]
    fn pieces_beside_an_enemy_trap_are_in_danger() {
        // At round 47's weight: the shipped set (since round 52) has the term off.
        let mut w = Weights::default();
        w[id::trap_danger_pct] = 4;
        // A gold horse beside c6, which silver's elephant and camel hold.
        let p = pos(
            "g",
            &[
                ("H", "c7"),
                ("e", "b6"),
                ("m", "d6"),
                ("r", "a7"),
                ("R", "a2"),
                ("E", "h1"),
            ],
        );
        let ctx = Context::new(&p, &w);
        let mut sink = ScoreSink::new(&w);
        danger_features(&p, &ctx, &w, &mut sink);
        let d = sink.totals();
        assert!(d[Color::Gold] < 0);
        assert_eq!(d[Color::Silver], 0);
    }
}
