//! Piece safety and mobility: frozen pieces, hostages (frozen next to a trap the enemy holds),
//! pieces stuck on a trap with a single guard, and the elephant's room to move.
//!
//! Features: per frozen piece, minus its value in rabbits (`frozen_pct`); per hostage, minus
//! its value in rabbits times the enemy's share of the trap (`hostage_pct`); per piece on a
//! trap with one guard, minus its value in rabbits (`single_guard_pct`); the elephant's empty
//! squares within two steps, at most 12 (`elephant_mobility`), and -1 when it has no empty
//! neighbour (`elephant_blockade`).

use tusk_engine::{Bitboard, Color, PieceKind, Position, Square, NEIGHBOURS};

use crate::traps::{control_cap, held_by};
use crate::weights::id;
use crate::{Context, Sink, Weights};

/// The frozen-piece features: minus the value (in rabbits) of each frozen piece, the side to
/// move's scaled by its share (`frozen_mover_pct`, by steps left).
pub fn frozen_features<S: Sink>(pos: &Position, ctx: &Context, w: &Weights, sink: &mut S) {
    if !sink.wants(id::frozen_pct) {
        return;
    }
    let shares = crate::side_shares(pos, w[id::frozen_mover_pct]);
    for c in Color::ALL {
        let side_pct = shares[c];
        for sq in ctx.frozen[c] {
            if let Some(p) = pos.piece_at(sq) {
                let v = ctx.values[c][p.kind().index()];
                if side_pct == 100 {
                    sink.add_share(c, id::frozen_pct, -v, 100);
                } else {
                    sink.add_share2(c, id::frozen_pct, -v, 100, side_pct, 100);
                }
            }
        }
    }
}

/// The hostage features: frozen pieces next to a trap the enemy controls, minus their value
/// (in rabbits) times the enemy's share of the trap.
pub fn hostage_features<S: Sink>(pos: &Position, ctx: &Context, w: &Weights, sink: &mut S) {
    if !sink.wants(id::hostage_pct) {
        return;
    }
    let cap = control_cap(w);
    for c in Color::ALL {
        for (t, trap) in Square::TRAPS.iter().enumerate() {
            let held = held_by(ctx, w, t, !c);
            if held == 0 {
                continue;
            }
            for sq in ctx.frozen[c] & NEIGHBOURS[trap.index()] {
                if let Some(p) = pos.piece_at(sq) {
                    let v = ctx.values[c][p.kind().index()];
                    sink.add_share2(c, id::hostage_pct, -v, 100, held, cap);
                }
            }
        }
    }
}

/// The single-guard features: pieces standing on a trap with exactly one friendly piece
/// beside it (one dislodgement from capture), minus their value in rabbits.
pub fn single_guard_features<S: Sink>(pos: &Position, ctx: &Context, sink: &mut S) {
    for c in Color::ALL {
        for sq in pos.occupied_by(c) & Bitboard::TRAPS {
            if (NEIGHBOURS[sq.index()] & pos.occupied_by(c)).count() == 1 {
                if let Some(p) = pos.piece_at(sq) {
                    let v = ctx.values[c][p.kind().index()];
                    sink.add_share(c, id::single_guard_pct, -v, 100);
                }
            }
        }
    }
}

/// The empty squares the elephant of `color` reaches in one or two plain steps.
pub fn elephant_room(pos: &Position, color: Color) -> Option<Bitboard> {
    let sq = pos.pieces_of(color, PieceKind::Elephant).first()?;
    let empty = pos.empty_squares();
    let one = NEIGHBOURS[sq.index()] & empty;
    let two = (one | one.neighbours()) & empty;
    Some(two)
}

/// The elephant features: the empty squares it reaches in one or two steps (at most 12),
/// and -1 when it has no empty neighbour (blockaded).
pub fn elephant_features<S: Sink>(pos: &Position, sink: &mut S) {
    for c in Color::ALL {
        let Some(room) = elephant_room(pos, c) else {
            continue;
        };
        let n = (room.count() as i32).min(12);
        if n > 0 {
            sink.add(c, id::elephant_mobility, n);
        } else {
            sink.add(c, id::elephant_blockade, -1);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_util::pos;
    use crate::ScoreSink;
    use tusk_engine::ByColor;

    fn ctx(p: &Position) -> (Context, Weights) {
        let w = Weights::hand_set();
        (Context::new(p, &w), w)
    }

    /// What `emit` gives each side with weights `w`.
    fn totals(w: &Weights, emit: impl FnOnce(&mut ScoreSink)) -> ByColor<i32> {
        let mut sink = ScoreSink::new(w);
        emit(&mut sink);
        sink.totals()
    }

    fn frozen_term(p: &Position, c: &Context, w: &Weights) -> ByColor<i32> {
        totals(w, |s| frozen_features(p, c, w, s))
    }

    fn hostage_term(p: &Position, c: &Context, w: &Weights) -> ByColor<i32> {
        totals(w, |s| hostage_features(p, c, w, s))
    }

    fn single_guard_term(p: &Position, c: &Context, w: &Weights) -> ByColor<i32> {
        totals(w, |s| single_guard_features(p, c, s))
    }

    fn elephant_term(p: &Position, w: &Weights) -> ByColor<i32> {
        totals(w, |s| elephant_features(p, s))
    }

    #[test]
    fn frozen_pieces_cost_and_stronger_ones_cost_more() {
        // Same material; the camel d5 freezes the horse in one, the dog in the other.
        let p = pos(
            "g",
            &[
                ("H", "d4"),
                ("D", "a4"),
                ("m", "d5"),
                ("h", "h5"),
                ("R", "a2"),
                ("r", "h7"),
                ("E", "h1"),
                ("e", "a8"),
            ],
        );
        let q = pos(
            "g",
            &[
                ("D", "d4"),
                ("H", "a4"),
                ("m", "d5"),
                ("h", "h5"),
                ("R", "a2"),
                ("r", "h7"),
                ("E", "h1"),
                ("e", "a8"),
            ],
        );
        let (c, w) = ctx(&p);
        let f = frozen_term(&p, &c, &w);
        assert!(f[Color::Gold] < 0);
        assert_eq!(f[Color::Silver], 0);
        let (c2, _) = ctx(&q);
        assert!(frozen_term(&q, &c2, &w)[Color::Gold] > f[Color::Gold]);
    }

    /// Each side's frozen-piece total with `frozen_mover_pct` at `pct` (hand-set weights).
    fn frozen_with_mover(p: &Position, pct: i32) -> ByColor<i32> {
        let (c, mut w) = ctx(p);
        w[id::frozen_mover_pct] = pct;
        frozen_term(p, &c, &w)
    }

    /// A gold horse on d4 frozen by silver's camel on d5: the side to move's share of the
    /// charge is `frozen_mover_pct` with a whole turn left, back towards all of it as the
    /// steps run out; the side not to move is charged in full, and colours mirror.
    #[test]
    fn the_side_to_move_can_be_charged_less_for_a_frozen_piece() {
        let pieces = [("H", "d4"), ("m", "d5"), ("R", "a2"), ("r", "h7")];
        let full = frozen_with_mover(&pos("s", &pieces), 100)[Color::Gold];
        assert!(full < -10, "{full}");
        // Silver to move: gold's horse is charged in full whatever the share.
        for pct in [0, 50] {
            assert_eq!(
                frozen_with_mover(&pos("s", &pieces), pct)[Color::Gold],
                full
            );
        }
        // Gold to move with four steps: the share itself.
        let gold = pos("g", &pieces);
        assert_eq!(frozen_with_mover(&gold, 100)[Color::Gold], full);
        assert_eq!(frozen_with_mover(&gold, 0)[Color::Gold], 0);
        assert!((frozen_with_mover(&gold, 50)[Color::Gold] - full / 2).abs() <= 1);
        // One step played (the rabbit on a2 north), three left: 100 - 100 × 3/4 = 25 %.
        let mut later = gold.clone();
        later.play_step_unchecked(
            tusk_engine::Step::between(Square::parse("a2").unwrap(), Square::parse("a3").unwrap())
                .expect("a step"),
        );
        assert_eq!(later.steps_left(), 3);
        assert!((frozen_with_mover(&later, 0)[Color::Gold] - full / 4).abs() <= 1);
        // Mirrored: silver's horse, silver to move.
        let flipped = gold.flip();
        for pct in [0, 50, 100] {
            assert_eq!(
                frozen_with_mover(&flipped, pct)[Color::Silver],
                frozen_with_mover(&gold, pct)[Color::Gold]
            );
        }
    }

    #[test]
    fn a_frozen_piece_beside_an_enemy_trap_is_a_hostage() {
        // The gold horse on c7 is frozen by the silver camel d7, next to silver's c6 trap.
        let p = pos(
            "g",
            &[
                ("H", "c7"),
                ("m", "d7"),
                ("e", "d6"),
                ("R", "a2"),
                ("r", "h7"),
                ("E", "h1"),
            ],
        );
        let (c, w) = ctx(&p);
        assert!(hostage_term(&p, &c, &w)[Color::Gold] < 0);
        assert_eq!(hostage_term(&p, &c, &w)[Color::Silver], 0);
    }

    #[test]
    fn a_piece_on_a_trap_with_one_guard() {
        let one = pos(
            "g",
            &[
                ("D", "c3"),
                ("C", "c2"),
                ("R", "a2"),
                ("r", "h7"),
                ("E", "h1"),
                ("e", "a8"),
            ],
        );
        let two = pos(
            "g",
            &[
                ("D", "c3"),
                ("C", "c2"),
                ("R", "b3"),
                ("r", "h7"),
                ("E", "h1"),
                ("e", "a8"),
            ],
        );
        let (c1, w) = ctx(&one);
        let (c2, _) = ctx(&two);
        assert!(single_guard_term(&one, &c1, &w)[Color::Gold] < 0);
        assert_eq!(single_guard_term(&two, &c2, &w)[Color::Gold], 0);
    }

    #[test]
    fn a_hemmed_in_elephant_is_penalised() {
        let w = Weights::hand_set();
        let free = pos("g", &[("E", "d4"), ("R", "a2"), ("r", "h7"), ("e", "a8")]);
        let boxed = pos(
            "g",
            &[
                ("E", "a1"),
                ("R", "b1"),
                ("R", "a2"),
                ("R", "b2"),
                ("R", "c1"),
                ("R", "a3"),
                ("r", "h7"),
                ("e", "a8"),
            ],
        );
        assert!(elephant_term(&free, &w)[Color::Gold] > 0);
        assert!(elephant_term(&boxed, &w)[Color::Gold] < 0);
    }
}
