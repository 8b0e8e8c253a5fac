//! Frames valued as structures: an enemy piece on a trap that cannot step off, kept alive by
//! a guard that is pinned beside it, valued by what the frame ties down on both sides and the
//! steps the enemy needs to break it.
//!
//! **The frame** ([`frame_at`], sharp's `findFrame`): an enemy piece on a trap; each square
//! beside the trap is an enemy piece (exactly one: the **pinned** guard), a piece of ours, or
//! empty only where the framed piece could not step (a rabbit's backward square). A piece of
//! ours weaker than the framed piece with room to be pushed makes the frame **partial**: at
//! most one, and only when the framed piece, pushing it away, would stand frozen there (we
//! push it back). The **holders** are the squares beside the trap not held by the enemy, and
//! the squares around our holders that are weaker than the framed piece (kept closed so
//! they cannot be pushed).
//!
//! **The value** (sharp's `Frames::evalSingle`): the strongest-free-piece balance
//! ([`crate::sfp`]) with the framed piece (0.70), the pinned guard and our holders (by square)
//! tied down, as `tanh(score / 240)` of the framed piece's value, times the advancement
//! factor, less a penalty when our elephant is one of the holders (by its square: an
//! elephant on its own back ranks does little else), times a factor by the steps the enemy
//! needs to break the frame (the easiest holder square: an enemy piece there stepping away,
//! a holder of ours attacked, an empty one occupied), halved for a partial frame, at least
//! 0.
//!
//! Feature (`frame_value_pct`, weight in percent), for the framing side, per frame: that
//! value in rabbits. Ships at 25 (round 19); part of the frames line of the breakdown.
//!
//! The tables and constants are sharp's (`eval/frames.cpp`, `eval/strats.cpp`, David Wu);
//! the code is Tusk's own. Not ported: sharp also tries rotating a holder out for a weaker
//! piece (the best balance of the rotations), and subtracts the capture threat its threat
//! evaluation already charges on the framed piece.

use tusk_engine::{Bitboard, Color, PieceKind, Position, Square, NEIGHBOURS};

use crate::hostage_threat::{is_open, is_open_to_push, is_open_to_step, rabbit_may_step};
use crate::sfp::{self, advancement_factor, advancement_gain, from_side, kind_at, sfp_score, ONE};
use crate::trap_influence::steps_to_free;
use crate::weights::id;
use crate::{Context, Sink};

/// The share of the framed piece tied down (sharp's `FRAMEPINMOBLOSS`, 70 %).
const FRAMED: i64 = ONE * 70 / 100;

/// The divisor of the strongest-free-piece score in the logistic (sharp's
/// `FRAME_SFP_LOGISTIC_DIV`).
const LOGISTIC_DIV: f64 = 240.0;

/// The share of the pinned guard tied down, in percent, by square from its own side (sharp's
/// `FRAMEMOBLOSS[0]`), rank 1 first.
const PINNED_LOSS: [[i64; 8]; 8] = [
    [70, 70, 70, 69, 69, 70, 70, 70],
    [69, 68, 66, 64, 64, 66, 68, 69],
    [66, 65, 60, 58, 58, 60, 65, 66],
    [64, 55, 54, 49, 49, 54, 55, 64],
    [64, 56, 55, 46, 46, 55, 56, 64],
    [66, 63, 58, 49, 49, 58, 63, 66],
    [68, 67, 67, 58, 58, 67, 67, 68],
    [70, 69, 68, 67, 67, 68, 69, 70],
];

/// The share of a holder tied down, in percent, by square from its own side (sharp's
/// `FRAMEMOBLOSS[1]`), rank 1 first.
const HOLDER_LOSS: [[i64; 8]; 8] = [
    [65, 65, 65, 64, 64, 65, 65, 65],
    [64, 63, 61, 59, 59, 61, 63, 64],
    [60, 59, 54, 52, 52, 54, 59, 60],
    [58, 49, 48, 42, 42, 48, 49, 58],
    [57, 49, 52, 39, 39, 52, 49, 57],
    [68, 85, 42, 44, 44, 42, 85, 68],
    [61, 70, 70, 51, 51, 70, 70, 61],
    [68, 68, 66, 61, 61, 66, 68, 68],
];

/// What our elephant holding a frame costs, by its square from our side, in sharp's units
/// (a rabbit about 1,000; sharp's `EFRAMEHOLDPENALTY`), rank 1 first.
const ELEPHANT_HOLDER_PENALTY: [[i32; 8]; 8] = [
    [1400; 8],
    [1400, 1400, 1000, 800, 800, 1000, 1400, 1400],
    [1000, 900, 200, 150, 150, 200, 900, 1000],
    [700, 300, 150, 100, 100, 150, 300, 700],
    [700, 400, 100, 100, 100, 100, 400, 700],
    [1100, 1100, 200, 200, 200, 200, 1100, 1100],
    [1600, 1600, 1200, 1000, 1000, 1200, 1600, 1600],
    [1600; 8],
];

/// The frame's value by the steps to break it, in percent (sharp's `FRAMEBREAKSTEPSFACTOR`).
const BREAK_FACTOR: [i32; 12] = [9, 21, 34, 45, 55, 67, 75, 83, 90, 95, 98, 100];

/// A frame found by [`frame_at`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Frame {
    /// The trap, where the framed piece stands.
    pub trap: Square,
    /// The enemy guard pinned beside it.
    pub pinned: Square,
    /// Whether a weaker piece of ours could be pushed away (and the framed piece pushed back).
    pub partial: bool,
    /// The squares that hold the frame (see the module docs).
    pub holders: Bitboard,
}

/// The frame `side` holds at `trap`, if any (see the module docs).
pub fn frame_at(pos: &Position, side: Color, trap: Square) -> Option<Frame> {
    let enemy = !side;
    let framed = pos.piece_at(trap)?;
    if framed.color() != enemy {
        return None;
    }
    let kind = framed.kind();
    let mut pinned = None;
    let mut partial = false;
    for adj in NEIGHBOURS[trap.index()] {
        match pos.piece_at(adj) {
            None => {
                if rabbit_may_step(enemy, kind, trap, adj) {
                    return None;
                }
            }
            Some(p) if p.color() == enemy => {
                if pinned.is_some() {
                    return None;
                }
                pinned = Some(adj);
            }
            Some(p) => {
                if p.kind() < kind && is_open(pos, adj) {
                    if partial
                        || crate::hostage_threat::would_be_unfrozen(pos, enemy, kind, adj, trap)
                    {
                        return None;
                    }
                    partial = true;
                }
            }
        }
    }
    let ring = NEIGHBOURS[trap.index()] - pos.occupied_by(enemy);
    let weak_holders = ring & pos.occupied_by(side) & pos.weaker_than(side, kind);
    let holders = (ring | weak_holders.neighbours()) - Bitboard::from_square(trap);
    Some(Frame {
        trap,
        pinned: pinned?,
        partial,
        holders,
    })
}

/// The steps the enemy needs to break frame `f` (sharp's `getFrameBreakDistance`), 0 to 16:
/// the easiest of its holder squares. The framed piece and its pinned guard do not help.
fn break_steps(pos: &Position, ctx: &Context, side: Color, f: &Frame, kind: PieceKind) -> i32 {
    let enemy = !side;
    let tied = Bitboard::from_square(f.trap) | Bitboard::from_square(f.pinned);
    let helpers = pos.occupied_by(enemy) - tied;
    let mut least = 16;
    for sq in f.holders {
        let steps = match pos.piece_at(sq) {
            Some(p) if p.color() == enemy => {
                let free = steps_to_free(pos, enemy, ctx.frozen[enemy], sq) as i32;
                if is_open_to_step(pos, sq) {
                    free + 3
                } else if is_open_to_push(pos, sq) {
                    free + 4
                } else {
                    16
                }
            }
            Some(p) => {
                let attackers = pos.stronger_than(enemy, p.kind()) - tied;
                let max = 5.min(least - 3);
                let mut s = sfp::approach_distance(pos, ctx, enemy, attackers, sq, max) + 3;
                if NEIGHBOURS[f.trap.index()].contains(sq)
                    && !rabbit_may_step(enemy, kind, f.trap, sq)
                {
                    s += 1;
                }
                s
            }
            None => {
                let max = 5.min(least - 2) - 1;
                sfp::approach_distance(pos, ctx, enemy, helpers, sq, max) + 1 + 2
            }
        };
        least = least.min(steps);
    }
    least.max(0)
}

/// The value of frame `f` held by `side`, in centirabbits (see the module docs).
pub fn frame_value(pos: &Position, ctx: &Context, side: Color, f: &Frame) -> i32 {
    let enemy = !side;
    let framed = kind_at(pos, f.trap);
    let mut ours = sfp::army(pos, side);
    let mut theirs = sfp::army(pos, enemy);
    theirs[framed.index()] -= FRAMED;
    theirs[kind_at(pos, f.pinned).index()] -=
        from_side(&PINNED_LOSS, enemy, f.pinned) * (ONE / 100);
    let mut penalty = 0;
    for sq in f.holders & pos.occupied_by(side) {
        let kind = kind_at(pos, sq);
        ours[kind.index()] -= from_side(&HOLDER_LOSS, side, sq) * (ONE / 100);
        if kind == PieceKind::Elephant {
            penalty = from_side(&ELEPHANT_HOLDER_PENALTY, side, sq);
        }
    }
    let score = sfp_score(&ours, &theirs);
    let gain = advancement_gain(&ours, framed);
    // In sharp's units (a rabbit about 1,000), as it computes them.
    let framed_value = ctx.values[enemy][framed.index()] * 10;
    let mut value = sfp::logistic(score, LOGISTIC_DIV, framed_value);
    value = (f64::from(value) * advancement_factor(pos, side, f.trap, &gain)) as i32 - penalty;
    let steps = break_steps(pos, ctx, side, f, framed) as usize;
    if let Some(&factor) = BREAK_FACTOR.get(steps) {
        value = value * factor / 100;
    }
    if f.partial {
        value /= 2;
    }
    value.max(0) / 10
}

/// The frame-value features of both sides (see the module docs).
pub fn frame_value_features<S: Sink>(pos: &Position, ctx: &Context, sink: &mut S) {
    if !sink.wants(id::frame_value_pct) {
        return;
    }
    for trap in Square::TRAPS {
        let Some(p) = pos.piece_at(trap) else {
            continue;
        };
        let side = !p.color();
        if let Some(f) = frame_at(pos, side, trap) {
            let value = frame_value(pos, ctx, side, &f);
            if value > 0 {
                sink.add_share(side, id::frame_value_pct, value, 100);
            }
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

    /// Most of both armies (gold's horses, camel, elephant and a dog and silver's horses and
    /// elephant left to `pieces`).
    fn armies(pieces: &[(&'static str, &'static str)]) -> Position {
        let mut all = vec![
            ("D", "f2"),
            ("C", "e1"),
            ("C", "f1"),
            ("R", "h1"),
            ("R", "h2"),
            ("m", "b7"),
            ("d", "f7"),
            ("d", "g7"),
            ("c", "e8"),
            ("c", "d8"),
            ("r", "a7"),
            ("r", "h7"),
        ];
        all.extend_from_slice(pieces);
        pos("g", &all)
    }

    fn values(p: &Position) -> ByColor<i32> {
        let mut w = Weights::default();
        w[id::frame_value_pct] = 100;
        let ctx = Context::new(p, &w);
        let mut sink = ScoreSink::new(&w);
        frame_value_features(p, &ctx, &mut sink);
        sink.totals()
    }

    /// Silver's horse on gold's c3 trap with silver's elephant its only guard on c4, gold's
    /// horses on b3 and d3 and its camel on c2 closing the trap; gold's elephant free.
    fn framed_horse(c2: &'static str, d2: Option<&'static str>) -> Position {
        let mut pieces = vec![
            ("h", "c3"),
            ("e", "c4"),
            ("H", "b3"),
            ("H", "d3"),
            (c2, "c2"),
            ("E", "f4"),
            ("h", "g6"),
        ];
        if let Some(d2) = d2 {
            pieces.push((d2, "d2"));
        }
        armies(&pieces)
    }

    #[test]
    fn a_piece_on_a_trap_closed_on_every_side_is_framed() {
        let p = framed_horse("M", None);
        let f = frame_at(&p, Color::Gold, sq("c3")).expect("a frame");
        assert_eq!(f.pinned, sq("c4"));
        assert!(!f.partial);
        assert_eq!(
            f.holders,
            Bitboard::from_square(sq("b3"))
                | Bitboard::from_square(sq("d3"))
                | Bitboard::from_square(sq("c2"))
        );
        assert!(frame_at(&p, Color::Silver, sq("c3")).is_none());
        // A weaker piece on c2 the horse could push away, but would stand frozen there
        // (gold's camel on d2): a partial frame, and c2's neighbours hold it too.
        let p = framed_horse("D", Some("M"));
        let f = frame_at(&p, Color::Gold, sq("c3")).expect("a partial frame");
        assert!(f.partial);
        assert!(f.holders.contains(sq("d2")) && f.holders.contains(sq("c1")));
        // Without the camel the horse would stand free on c2: no frame.
        let p = framed_horse("D", None);
        assert!(frame_at(&p, Color::Gold, sq("c3")).is_none());
    }

    #[test]
    fn a_frame_pinning_the_enemy_elephant_is_worth_something_to_the_framing_side_only() {
        let p = framed_horse("M", None);
        let v = values(&p);
        assert!(v[Color::Gold] > 0, "{v:?}");
        assert_eq!(v[Color::Silver], 0);
        let twin = values(&p.flip());
        assert_eq!(twin[Color::Silver], v[Color::Gold]);
        assert_eq!(twin[Color::Gold], 0);
    }

    #[test]
    fn a_full_frame_is_worth_more_than_a_partial_one() {
        let full = values(&framed_horse("M", None))[Color::Gold];
        let partial = values(&framed_horse("D", Some("M")))[Color::Gold];
        assert!(full > partial, "{full} > {partial}");
    }

    #[test]
    fn a_frame_held_by_our_elephant_is_worth_less() {
        // Gold's elephant on c2 and its camel free on f4, against the other way round.
        let by = |c2: &'static str, f4: &'static str| {
            armies(&[
                ("h", "c3"),
                ("e", "c4"),
                ("H", "b3"),
                ("H", "d3"),
                (c2, "c2"),
                (f4, "f4"),
                ("h", "g6"),
            ])
        };
        let camel = values(&by("M", "E"))[Color::Gold];
        let elephant = values(&by("E", "M"))[Color::Gold];
        assert!(elephant < camel, "{elephant} < {camel}");
    }
}
