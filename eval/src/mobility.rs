//! Piece safety and mobility: frozen pieces, hostages (frozen next to a trap the enemy holds),
//! pieces stuck on a trap with a single guard, and the elephant's room to move.

use tusk_engine::{Bitboard, ByColor, Color, PieceKind, Position, Square, NEIGHBOURS};

use crate::traps::held_by;
use crate::{Context, Weights};

/// The frozen-piece term of each side (zero or negative).
pub fn frozen_term(pos: &Position, ctx: &Context, w: &Weights) -> ByColor<i32> {
    let mut out = ByColor([0; 2]);
    for c in Color::ALL {
        for sq in ctx.frozen[c] {
            if let Some(p) = pos.piece_at(sq) {
                out[c] -= ctx.values[c][p.kind().index()] * w.frozen_pct / 100;
            }
        }
    }
    out
}

/// The hostage term of each side (zero or negative): frozen pieces next to a trap the enemy
/// controls, scaled by how fully it controls it.
pub fn hostage_term(pos: &Position, ctx: &Context, w: &Weights) -> ByColor<i32> {
    let mut out = ByColor([0; 2]);
    for c in Color::ALL {
        for (t, trap) in Square::TRAPS.iter().enumerate() {
            let held = held_by(ctx, w, t, !c);
            if held == 0 {
                continue;
            }
            for sq in ctx.frozen[c] & NEIGHBOURS[trap.index()] {
                if let Some(p) = pos.piece_at(sq) {
                    let v = ctx.values[c][p.kind().index()];
                    out[c] -= v * w.hostage_pct / 100 * held / w.trap_control_cap.max(1);
                }
            }
        }
    }
    out
}

/// The single-guard term of each side (zero or negative): its pieces standing on a trap with
/// exactly one friendly piece beside it, one dislodgement from capture.
pub fn single_guard_term(pos: &Position, ctx: &Context, w: &Weights) -> ByColor<i32> {
    let mut out = ByColor([0; 2]);
    for c in Color::ALL {
        for sq in pos.occupied_by(c) & Bitboard::TRAPS {
            if (NEIGHBOURS[sq.index()] & pos.occupied_by(c)).count() == 1 {
                if let Some(p) = pos.piece_at(sq) {
                    out[c] -= ctx.values[c][p.kind().index()] * w.single_guard_pct / 100;
                }
            }
        }
    }
    out
}

/// The empty squares the elephant of `color` reaches in one or two plain steps.
pub fn elephant_room(pos: &Position, color: Color) -> Option<Bitboard> {
    let sq = pos.pieces_of(color, PieceKind::Elephant).first()?;
    let empty = pos.empty_squares();
    let one = NEIGHBOURS[sq.index()] & empty;
    let two = (one | one.neighbours()) & empty;
    Some(two)
}

/// The elephant term of each side: mobility, and a penalty when it has no empty neighbour.
pub fn elephant_term(pos: &Position, w: &Weights) -> ByColor<i32> {
    let mut out = ByColor([0; 2]);
    for c in Color::ALL {
        let Some(room) = elephant_room(pos, c) else {
            continue;
        };
        out[c] += w.elephant_mobility * (room.count() as i32).min(12);
        if room.is_empty() {
            out[c] -= w.elephant_blockade;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_util::pos;

    fn ctx(p: &Position) -> (Context, Weights) {
        let w = Weights::default();
        (Context::new(p, &w), w)
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
        let w = Weights::default();
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
