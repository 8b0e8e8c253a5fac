//! Frames: a piece on a trap that cannot get off it, kept alive only by its own guards while
//! enemy pieces close the trap's other sides. The framed side must keep the guards there (a
//! lone guard is pinned: if it leaves, the piece on the trap dies), and the framing side ties
//! down the pieces that close the frame.
//!
//! A piece `X` of side `c` on a trap is **framed** when every square beside the trap is
//! occupied, at least one of them by an enemy piece, and `X` cannot step off: no enemy piece
//! beside the trap that it outranks has an empty square to be pushed onto.
//!
//! Features, all whole values in rabbits or counts:
//! * for the framed side, per framed piece: minus its value in rabbits (`frame_pct`), and when
//!   it has a single guard, minus that guard's value in rabbits (`frame_pinned_pct`: the
//!   pinned guard cannot act);
//! * for the framing side, per its piece beside a framed piece's trap: 1 (`frame_holders`:
//!   the pieces the frame ties down).
//!
//! The weights ship at 0 for the tuner; sharp values frames in `eval/strats.cpp` (David Wu),
//! where the idea comes from; the definition and the features here are Tusk's own.

use tusk_engine::{Color, Position, Square, NEIGHBOURS};

use crate::weights::id;
use crate::{Context, Sink};

/// Whether a piece of `c` stands on `trap` and is framed (see the module docs). (A piece on a
/// trap is never frozen: its guard stands beside it.)
pub fn is_framed(pos: &Position, c: Color, trap: Square) -> bool {
    let Some(x) = pos.piece_at(trap) else {
        return false;
    };
    let ring = NEIGHBOURS[trap.index()];
    let enemies = ring & pos.occupied_by(!c);
    if x.color() != c || (ring & pos.empty_squares()).any() || enemies.is_empty() {
        return false;
    }
    // It could push a weaker enemy neighbour that has an empty square beside it.
    let empty = pos.empty_squares();
    let pushable = enemies & pos.weaker_than(!c, x.kind());
    for y in pushable {
        if (NEIGHBOURS[y.index()] & empty).any() {
            return false;
        }
    }
    true
}

/// The frame features of both sides (see the module docs).
pub fn frame_features<S: Sink>(pos: &Position, ctx: &Context, sink: &mut S) {
    for trap in Square::TRAPS {
        let Some(x) = pos.piece_at(trap) else {
            continue;
        };
        let c = x.color();
        if !is_framed(pos, c, trap) {
            continue;
        }
        sink.add_share(c, id::frame_pct, -ctx.values[c][x.kind().index()], 100);
        let ring = NEIGHBOURS[trap.index()];
        let guards = ring & pos.occupied_by(c);
        if guards.count() == 1 {
            if let Some(g) = guards.into_iter().next().and_then(|g| pos.piece_at(g)) {
                sink.add_share(
                    c,
                    id::frame_pinned_pct,
                    -ctx.values[c][g.kind().index()],
                    100,
                );
            }
        }
        let holders = (ring & pos.occupied_by(!c)).count() as i32;
        sink.add(!c, id::frame_holders, holders);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_util::pos;
    use crate::{FeatureSink, Weights};

    fn framed(p: &Position, c: Color, trap: &str) -> bool {
        is_framed(p, c, Square::parse(trap).unwrap())
    }

    fn get(f: &crate::Features, c: Color, p: crate::Param) -> f64 {
        f.values[p.index()][c.index()]
    }

    fn features(p: &Position) -> crate::Features {
        let w = Weights::hand_set();
        let mut sink = FeatureSink::new(&w, p.side());
        frame_features(p, &Context::new(p, &w), &mut sink);
        sink.features
    }

    /// A gold horse on c3 with its only guard, the dog d3, boxed in by a silver camel on c2
    /// and a silver dog on b3 and c4 (the horse cannot push the camel, and the dogs it
    /// outranks have no empty square): framed, the dog pinned, three silver pieces tied.
    fn horse_framed_on_c3() -> Vec<(&'static str, &'static str)> {
        vec![
            ("H", "c3"),
            ("D", "d3"),
            ("m", "c2"),
            ("d", "b3"),
            ("d", "c4"),
            ("r", "a3"),
            ("r", "b4"),
            ("r", "b2"),
            ("r", "c5"),
            ("r", "d4"),
            ("E", "h1"),
            ("e", "h8"),
        ]
    }

    #[test]
    fn a_boxed_piece_on_a_trap_with_one_guard_is_framed() {
        let p = pos("s", &horse_framed_on_c3());
        assert!(framed(&p, Color::Gold, "c3"));
        let f = features(&p);
        assert!(get(&f, Color::Gold, id::frame_pct) < 0.0);
        assert!(get(&f, Color::Gold, id::frame_pinned_pct) < 0.0);
        assert_eq!(get(&f, Color::Silver, id::frame_holders), 3.0);
        assert_eq!(get(&f, Color::Silver, id::frame_pct), 0.0);
        // Colour-mirrored, the same for silver.
        let m = features(&p.flip());
        assert_eq!(
            get(&m, Color::Silver, id::frame_pct),
            get(&f, Color::Gold, id::frame_pct)
        );
        assert_eq!(get(&m, Color::Gold, id::frame_holders), 3.0);
    }

    #[test]
    fn a_piece_with_a_way_off_the_trap_is_not_framed() {
        // An empty square beside the trap: the horse steps off.
        let mut open = horse_framed_on_c3();
        open.retain(|&(_, s)| s != "c4");
        assert!(!framed(&pos("s", &open), Color::Gold, "c3"));
        // The dog on c4 gets an empty square behind it (c5): the horse pushes it away.
        let mut pushable = horse_framed_on_c3();
        pushable.retain(|&(_, s)| s != "c5");
        assert!(!framed(&pos("s", &pushable), Color::Gold, "c3"));
        // Only friends around: not a frame.
        let friends = pos(
            "s",
            &[
                ("H", "c3"),
                ("D", "d3"),
                ("D", "b3"),
                ("C", "c2"),
                ("C", "c4"),
                ("E", "h1"),
                ("e", "h8"),
                ("r", "a8"),
            ],
        );
        assert!(!framed(&friends, Color::Gold, "c3"));
        let f = features(&friends);
        for c in Color::ALL {
            for p in [id::frame_pct, id::frame_pinned_pct, id::frame_holders] {
                assert_eq!(get(&f, c, p), 0.0);
            }
        }
    }

    /// A piece that outranks none of the enemy pieces around its trap is framed, whatever
    /// room they have behind them.
    #[test]
    fn a_piece_that_can_push_nothing_is_framed() {
        // The gold dog on f6 (silver's trap), guarded by the gold cat e6 alone, among a silver
        // camel (f7), horse (g6, with h6 empty behind it) and dog (f5, its equal).
        let p = pos(
            "g",
            &[
                ("D", "f6"),
                ("C", "e6"),
                ("m", "f7"),
                ("h", "g6"),
                ("d", "f5"),
                ("E", "a1"),
                ("e", "a8"),
                ("R", "b1"),
            ],
        );
        assert!(framed(&p, Color::Gold, "f6"));
        let f = features(&p);
        assert!(get(&f, Color::Gold, id::frame_pct) < 0.0);
        assert_eq!(get(&f, Color::Silver, id::frame_holders), 3.0);
    }
}
