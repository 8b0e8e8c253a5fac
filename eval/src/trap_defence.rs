//! The shape of a home-trap defence: how many guards stand beside each of a side's two home
//! traps, and whether it holds the square behind the trap (c2 and f2 for gold) and the trap's
//! outer side square (b3 and g3 for gold), the squares a defence rests on.
//!
//! Features, per home trap of a side: 1 for `trap_guards.<its number of guards>` (0 to 4);
//! 1 for `trap_back_guard` when an own piece stands behind it; 1 for `trap_side_guard` when
//! one stands on its outer side square. Whole counts; values in centirabbits.

use tusk_engine::{Color, Position, Square, NEIGHBOURS};

use crate::trap_influence::key_squares;
use crate::traps::is_home_trap;
use crate::weights::id;
use crate::Sink;

/// sharp's value of a home trap by its number of guards, 0 .. 4, centirabbits
/// (`TRAP_DEF_SCORE` in `TrapControl::getSimple`: 0, 0, 75, 95, 95 millirabbits): a prior for
/// the tuner (see [`crate::Weights::with_sharp_priors`]); the shipped set carries it.
pub const SHARP_GUARDS: [i32; 5] = [0, 0, 8, 10, 10];

/// sharp's bonus for a piece behind a home trap (`TRAP_DEF_SCORE_BACK_BONUS`, 60
/// millirabbits), centirabbits.
pub const SHARP_BACK: i32 = 6;

/// sharp's bonus for a piece on a home trap's outer side square (`TRAP_DEF_SCORE_SIDE_BONUS`,
/// 30 millirabbits), centirabbits.
pub const SHARP_SIDE: i32 = 3;

/// The trap-defence features of each side's two home traps.
pub fn defence_features<S: Sink>(pos: &Position, sink: &mut S) {
    for c in Color::ALL {
        let own = pos.occupied_by(c);
        for (t, trap) in Square::TRAPS.iter().enumerate() {
            if !is_home_trap(t, c) {
                continue;
            }
            let guards = (NEIGHBOURS[trap.index()] & own).count() as usize;
            sink.add(c, id::trap_guards.at(guards), 1);
            let [behind, outside] = key_squares(t);
            if own.contains(behind) {
                sink.add(c, id::trap_back_guard, 1);
            }
            if own.contains(outside) {
                sink.add(c, id::trap_side_guard, 1);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_util::{opening, pos};
    use crate::{FeatureSink, ScoreSink, Weights};

    fn features(p: &Position) -> crate::Features {
        let w = Weights::hand_set();
        let mut sink = FeatureSink::new(&w, p.side());
        defence_features(p, &mut sink);
        sink.features
    }

    #[test]
    fn the_opening_guards_each_home_trap_from_behind_and_the_side() {
        let f = features(&opening());
        // c3 and f3 have one guard each (c2, f2), so do c6 and f6; behind: c2/f2 and c7/f7;
        // the outer side squares b3, g3, b6, g6 are empty.
        assert_eq!(f.values[id::trap_guards.at(1).index()], [2.0, 2.0]);
        assert_eq!(f.values[id::trap_back_guard.index()], [2.0, 2.0]);
        assert_eq!(f.values[id::trap_side_guard.index()], [0.0, 0.0]);
    }

    #[test]
    fn guards_behind_and_beside_a_trap_are_counted_for_its_owner_only() {
        // Gold guards c3 from c2, b3 and d3; a silver piece on c4 guards nothing of silver's.
        let p = pos(
            "s",
            &[
                ("D", "c2"),
                ("H", "b3"),
                ("C", "d3"),
                ("d", "c4"),
                ("R", "a1"),
                ("r", "a8"),
                ("E", "h1"),
                ("e", "h8"),
            ],
        );
        let f = features(&p);
        assert_eq!(f.values[id::trap_guards.at(3).index()], [1.0, 0.0]);
        assert_eq!(f.values[id::trap_guards.at(0).index()], [1.0, 2.0]);
        assert_eq!(f.values[id::trap_back_guard.index()], [1.0, 0.0]);
        assert_eq!(f.values[id::trap_side_guard.index()], [1.0, 0.0]);
        let w = Weights::hand_set().with_sharp_priors();
        let mut sink = ScoreSink::new(&w);
        defence_features(&p, &mut sink);
        let t = sink.totals();
        assert!(t[Color::Gold] > t[Color::Silver], "{t:?}");
    }

    #[test]
    fn colours_mirror_exactly() {
        let p = pos(
            "g",
            &[
                ("D", "c2"),
                ("H", "g3"),
                ("C", "e3"),
                ("M", "f4"),
                ("d", "b6"),
                ("c", "c7"),
                ("h", "d6"),
                ("R", "a1"),
                ("r", "a8"),
                ("E", "h1"),
                ("e", "h8"),
            ],
        );
        let (a, b) = (features(&p), features(&p.flip()));
        for i in 0..crate::Weights::LEN {
            let [g, s] = a.values[i];
            assert_eq!(b.values[i], [s, g]);
        }
        assert_ne!(a.values, b.values, "an asymmetric defence");
    }
}
