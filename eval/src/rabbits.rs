//! Rabbit advancement: each rabbit's progress towards goal, weighted by how free its way is
//! (enemy officers in the cone ahead of it, and who controls the enemy trap on its wing), plus
//! goal pressure from rabbits that could reach goal in one unopposed turn.
//!
//! Features: per rabbit, the share of its rank's advancement it keeps (`rabbit_free_pct` by
//! officers ahead, plus `rabbit_trap_support_pct` times its side's share of the wing's enemy
//! trap, in percent / 100), for `rabbit_advance.<ranks advanced>`; the number of rabbits that
//! could reach goal in one unopposed turn, for `rabbit_goal_pressure`. The shares are shape
//! parameters (they multiply a weight).

use tusk_engine::{Bitboard, Color, PieceKind, Position, Square};

use crate::goal::{goal_distance, goal_pressure};
use crate::traps::{control_cap, held_by};
use crate::weights::id;
use crate::{Context, Sink, Weights};

/// The cone ahead of a rabbit of `color` on `sq`: its file and the two beside it, on every
/// rank strictly nearer its goal.
#[inline]
pub fn cone_ahead(color: Color, sq: Square) -> Bitboard {
    let f = sq.file();
    let mut files = Bitboard::FILE_A.0 << f;
    if f > 0 {
        files |= Bitboard::FILE_A.0 << (f - 1);
    }
    if f < 7 {
        files |= Bitboard::FILE_A.0 << (f + 1);
    }
    let r = u32::from(sq.rank());
    let ahead = match color {
        Color::Gold => {
            if r == 7 {
                0
            } else {
                !0u64 << (8 * (r + 1))
            }
        }
        Color::Silver => (1u64 << (8 * r)) - 1,
    };
    Bitboard(files & ahead)
}

/// The enemy home trap on the wing of a rabbit on `sq` (index into [`Square::TRAPS`]).
#[inline]
const fn wing_trap(color: Color, sq: Square) -> usize {
    let east = sq.file() >= 4;
    match color {
        Color::Gold => 2 + east as usize,
        Color::Silver => east as usize,
    }
}

/// The rabbit features of each side (see the module docs).
pub fn rabbit_features<S: Sink>(pos: &Position, ctx: &Context, w: &Weights, sink: &mut S) {
    let cap = control_cap(w);
    let free = &w[id::rabbit_free_pct];
    let support = w[id::rabbit_trap_support_pct];
    for c in Color::ALL {
        let officers = pos.occupied_by(!c) - pos.pieces_of(!c, PieceKind::Rabbit);
        for sq in pos.pieces_of(c, PieceKind::Rabbit) {
            let advanced = 7 - goal_distance(c, sq.rank());
            let weight = id::rabbit_advance.at(usize::from(advanced));
            if !sink.wants(weight) {
                continue;
            }
            let blockers = (cone_ahead(c, sq) & officers).count() as usize;
            let pct = free[blockers.min(2)] + support * held_by(ctx, w, wing_trap(c, sq), c) / cap;
            sink.add_share(c, weight, pct, 100);
        }
        if sink.wants(id::rabbit_goal_pressure) {
            let pressure = goal_pressure(pos, c).count() as i32;
            if pressure > 0 {
                sink.add(c, id::rabbit_goal_pressure, pressure);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_util::pos;
    use crate::ScoreSink;
    use tusk_engine::ByColor;

    fn term(p: &Position) -> ByColor<i32> {
        let w = Weights::hand_set();
        let mut sink = ScoreSink::new(&w);
        rabbit_features(p, &Context::new(p, &w), &w, &mut sink);
        sink.totals()
    }

    #[test]
    fn advanced_rabbits_score_more() {
        let back = pos("g", &[("R", "a2"), ("r", "h7"), ("E", "d1"), ("e", "d8")]);
        let mid = pos("g", &[("R", "a4"), ("r", "h7"), ("E", "d1"), ("e", "d8")]);
        let far = pos("g", &[("R", "a6"), ("r", "h7"), ("E", "d1"), ("e", "d8")]);
        let (b, m, f) = (
            term(&back)[Color::Gold],
            term(&mid)[Color::Gold],
            term(&far)[Color::Gold],
        );
        assert!(b < m && m < f, "{b} {m} {f}");
    }

    #[test]
    fn officers_ahead_slow_a_rabbit() {
        let free = pos("g", &[("R", "b5"), ("r", "h7"), ("E", "d1"), ("e", "g8")]);
        let blocked = pos(
            "g",
            &[
                ("R", "b5"),
                ("r", "h7"),
                ("E", "d1"),
                ("e", "g8"),
                ("m", "b7"),
                ("h", "a7"),
            ],
        );
        assert!(term(&free)[Color::Gold] > term(&blocked)[Color::Gold]);
    }

    #[test]
    fn cone_geometry() {
        let a = cone_ahead(Color::Gold, Square::parse("a7").unwrap());
        assert_eq!(a.count(), 2);
        let s = cone_ahead(Color::Silver, Square::parse("d2").unwrap());
        assert_eq!(s.count(), 3);
        assert_eq!(
            cone_ahead(Color::Gold, Square::parse("d2").unwrap()).flip_ranks(),
            cone_ahead(Color::Silver, Square::parse("d7").unwrap())
        );
    }
}
