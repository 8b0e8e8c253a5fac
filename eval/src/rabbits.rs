//! Rabbit advancement: each rabbit's progress towards goal, split by the game phase, plus goal
//! pressure from rabbits that could reach goal in one unopposed turn.
//!
//! The phase of a side's rabbits comes from the enemy army, `2 × officers + rabbits` (24 in
//! full): 1 (early) at or above the second value of `rabbit_phase_army`, 0 (late) at or below
//! the first, linear between. Early, with full armies, an advanced rabbit is a weakness
//! (`rabbit_early_advance`, by ranks advanced); late, it is a threat, the more so the freer its
//! way (`rabbit_advance`, weighted by enemy officers in the cone ahead of it and by who
//! controls the enemy trap on its wing).
//!
//! Features, per side and ranks advanced `r`: the number of its rabbits there times the phase,
//! for `rabbit_early_advance.r`; the sum of their shares of the advancement kept
//! (`rabbit_free_pct` by officers ahead, plus `rabbit_trap_support_pct` times its side's share
//! of the wing's enemy trap, in percent / 100) times `1 - phase`, for `rabbit_advance.r`; the
//! number of rabbits that could reach goal in one unopposed turn, for
//! `rabbit_goal_pressure`. The shares and the phase are shape parameters.

use tusk_engine::{Bitboard, Color, PieceKind, Position, Square};

use crate::goal::goal_pressure;
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

/// The early share of the game for the rabbits of `color`, as `(num, den)`: `num / den` is
/// 1 when the enemy army is full and 0 once it is thinned out (see the module docs).
#[inline]
pub fn phase(pos: &Position, w: &Weights, color: Color) -> (i32, i32) {
    let enemy = !color;
    let rabbits = pos.count(enemy, PieceKind::Rabbit) as i32;
    let officers = pos.occupied_by(enemy).count() as i32 - rabbits;
    let late = w[id::rabbit_phase_army.at(0)];
    let early = w[id::rabbit_phase_army.at(1)];
    let den = (early - late).max(1);
    ((2 * officers + rabbits - late).clamp(0, den), den)
}

/// The rabbit features of each side (see the module docs).
pub fn rabbit_features<S: Sink>(pos: &Position, ctx: &Context, w: &Weights, sink: &mut S) {
    let cap = control_cap(w);
    let free = &w[id::rabbit_free_pct];
    let support = w[id::rabbit_trap_support_pct];
    for c in Color::ALL {
        let (early, den) = phase(pos, w, c);
        let late = den - early;
        let officers = pos.occupied_by(!c) - pos.pieces_of(!c, PieceKind::Rabbit);
        // Per ranks advanced, the number of rabbits (the early feature); the late feature is
        // added rabbit by rabbit, so that when every rabbit is late the evaluation rounds
        // exactly as the phase-free advancement did.
        let mut count = [0i32; 8];
        for sq in pos.pieces_of(c, PieceKind::Rabbit) {
            let advanced = usize::from(sq.ranks_from_home(c));
            count[advanced] += 1;
            if late > 0 && sink.wants(id::rabbit_advance.at(advanced)) {
                let blockers = (cone_ahead(c, sq) & officers).count() as usize;
                let kept =
                    free[blockers.min(2)] + support * held_by(ctx, w, wing_trap(c, sq), c) / cap;
                sink.add_share2(c, id::rabbit_advance.at(advanced), kept, 100, late, den);
            }
        }
        if early > 0 {
            for (r, &n) in count.iter().enumerate() {
                if n > 0 {
                    sink.add_share(c, id::rabbit_early_advance.at(r), n * early, den);
                }
            }
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

    /// A full silver army kept out of the cone ahead of a gold rabbit on the b, c or d file.
    const FULL_SILVER: [(&str, &str); 16] = [
        ("e", "e8"),
        ("m", "e7"),
        ("h", "f8"),
        ("h", "g8"),
        ("d", "f7"),
        ("d", "g7"),
        ("c", "h8"),
        ("c", "h7"),
        ("r", "a8"),
        ("r", "a7"),
        ("r", "a6"),
        ("r", "e6"),
        ("r", "g6"),
        ("r", "h6"),
        ("r", "e5"),
        ("r", "h5"),
    ];

    fn with_rabbit(silver: &[(&'static str, &'static str)], rabbit: &'static str) -> Position {
        let mut v = vec![("E", "h1"), ("R", rabbit)];
        v.extend_from_slice(silver);
        pos("g", &v)
    }

    /// The hand-set weights with the phase switched on at sharp's thresholds (shipped off).
    fn phase_on() -> Weights {
        let mut w = Weights::hand_set();
        w[id::rabbit_phase_army.at(0)] = 11;
        w[id::rabbit_phase_army.at(1)] = 24;
        w
    }

    #[test]
    fn the_shipped_phase_counts_every_rabbit_late() {
        let w = Weights::hand_set();
        let full = with_rabbit(&FULL_SILVER, "c2");
        assert_eq!(phase(&full, &w, Color::Gold), (0, 1));
        assert_eq!(phase(&full, &w, Color::Silver), (0, 1));
    }

    #[test]
    fn the_phase_follows_the_enemy_army() {
        let w = phase_on();
        let full = with_rabbit(&FULL_SILVER, "c2");
        assert_eq!(phase(&full, &w, Color::Gold), (13, 13));
        // Silver's rabbits see one gold elephant and one rabbit: 2 + 1, late.
        assert_eq!(phase(&full, &w, Color::Silver), (0, 13));
        // Four silver rabbits fewer: 20, four thirteenths of the way from 11.
        let fewer = with_rabbit(&FULL_SILVER[..12], "c2");
        assert_eq!(phase(&fewer, &w, Color::Gold), (9, 13));
    }

    #[test]
    fn an_advanced_rabbit_is_a_weakness_early_and_a_threat_late() {
        let late = [("e", "e8"), ("r", "a8"), ("r", "h8")];
        // Advancement only: a rabbit on c5 is also within a turn of goal (goal pressure).
        let mut w = phase_on();
        w[id::rabbit_goal_pressure] = 0;
        let g = |silver: &[(&'static str, &'static str)], sq| {
            let p = with_rabbit(silver, sq);
            let mut sink = ScoreSink::new(&w);
            rabbit_features(&p, &Context::new(&p, &w), &w, &mut sink);
            sink.totals()[Color::Gold]
        };
        // Early, against the full army, advancing from c2 to c5 costs.
        assert!(g(&FULL_SILVER, "c5") < g(&FULL_SILVER, "c2"));
        // Late, against a thinned army, it gains.
        assert!(g(&late, "c5") > g(&late, "c2"));
        // The same rabbit on c5 scores lower in the opening than late.
        assert!(g(&FULL_SILVER, "c5") < g(&late, "c5"));
    }

    #[test]
    fn colours_mirror_exactly() {
        let p = pos(
            "g",
            &[
                ("R", "b5"),
                ("R", "g6"),
                ("R", "a4"),
                ("E", "d1"),
                ("M", "e2"),
                ("r", "c4"),
                ("r", "h4"),
                ("e", "d8"),
                ("h", "b7"),
                ("d", "f7"),
            ],
        );
        let (a, b) = (term(&p), term(&p.flip()));
        assert_eq!(a[Color::Gold], b[Color::Silver]);
        assert_eq!(a[Color::Silver], b[Color::Gold]);
        assert_ne!(a[Color::Gold], a[Color::Silver]);
    }
}
