//! What the opponent could do next turn on the current board: reach goal, and the strongest
//! kind of the side to move's pieces it could capture. The evaluation charges both to the side
//! to move; they are its costliest terms (a four-step capture search), and since they can only
//! lower the score, [`crate::evaluate_above`] skips them where the score could not matter.
//! (A per-thread cache of them by board was measured in the searcher: no gain, since the boards
//! met at the horizon are nearly all distinct.)
//!
//! Features, all for the threatening side: the value in rabbits of the strongest enemy piece
//! the side to move can capture now (`capture_now_pct`); 1 when the opponent could goal next
//! turn (`goal_threat` at a turn start, `goal_threat_late.k` mid-turn with `k` steps left); the value in rabbits of the strongest piece of the side to move the
//! opponent could capture next turn (`capture_threat_pct` at a turn start,
//! `capture_threat_late_pct.k` mid-turn with `k` steps left: fewer steps to defend with), and
//! the same value again where no single step of the side to move stops that capture
//! (`capture_threat_firm_pct`: a firm threat, see [`firm`]).

use tusk_engine::{Color, PieceKind, Position};

use crate::weights::{id, Param};
use crate::{capture_risk, captures, goal, Context, Sink, Weights};

/// The most nodes the goal search of [`NextTurnThreat::of_mut`] may take. A search that needs
/// more counts as a threat: a side with so many ways to try for goal is a danger, and an
/// exact answer there cost up to 12 ms (seen in a real game: 4,000 search nodes a second).
pub const GOAL_THREAT_NODES: u32 = 4096;

/// The opponent's threats with a full turn on the current board.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct NextTurnThreat {
    /// The opponent can reach goal next turn.
    pub goal: bool,
    /// The strongest kind of the side to move's pieces the opponent can capture next turn.
    pub capture: Option<PieceKind>,
}

impl NextTurnThreat {
    /// The threats of the opponent of the side to move in `pos`, found by ending the turn
    /// here and running the goal detector (exact within [`GOAL_THREAT_NODES`] nodes, a threat
    /// beyond) and the exact capture detector; `pos` is left exactly as it was.
    /// `pos` must allow ending the turn as far as the board goes (no push half done).
    pub fn of_mut(pos: &mut Position) -> NextTurnThreat {
        let turn = pos.end_turn();
        let t = NextTurnThreat {
            goal: goal::can_goal_within(pos, GOAL_THREAT_NODES).unwrap_or(true),
            capture: captures::best_capture_mut(pos),
        };
        pos.undo_end_turn(turn);
        t
    }

    /// Only the capture part of [`NextTurnThreat::of_mut`]: the strongest kind of the side to
    /// move's pieces the opponent could capture if the turn ended here (`pos` is left exactly
    /// as it was; no push half done).
    pub fn capture_of_mut(pos: &mut Position) -> Option<PieceKind> {
        let turn = pos.end_turn();
        let capture = captures::best_capture_mut(pos);
        pos.undo_end_turn(turn);
        capture
    }
}

/// The capture-now feature of the side to move: the value of the strongest enemy piece it
/// can capture this turn (`pos` is searched on and restored).
pub fn capture_now_features<S: Sink>(pos: &mut Position, ctx: &Context, w: &Weights, sink: &mut S) {
    let best = captures::best_capture_mut(pos);
    capture_now_feature(pos, best, ctx, w, sink);
}

/// The capture-now feature of the side to move in `pos` when `best` is the strongest enemy
/// kind it can capture this turn (none: no feature): that kind's value in rabbits, less
/// `capture_now_net_pct` of the largest capture risk already charged on an enemy piece of
/// that kind ([`capture_risk::largest_risk_on`]), never below 0.
pub fn capture_now_feature<S: Sink>(
    pos: &Position,
    best: Option<PieceKind>,
    ctx: &Context,
    w: &Weights,
    sink: &mut S,
) {
    if let Some(k) = best {
        let us = pos.side();
        let value = ctx.values[!us][k.index()];
        let net = w[id::capture_now_net_pct];
        let deduction = if net == 0 {
            0
        } else {
            capture_risk::largest_risk_on(pos, ctx, w, !us, k) * net / 100
        };
        sink.add_share(us, id::capture_now_pct, (value - deduction).max(0), 100);
    }
}

/// Whether the opponent's capture threat `t` on `pos` (the side to move's view) is firm: no
/// single step of the side to move stops it
/// ([`crate::capture_defences::stopped_in_one_step`]). Only asked where it can count: false
/// without a capture threat, and false where `w`'s `capture_threat_firm_pct` is 0 (the check
/// costs a capture search a legal step, so it is skipped there). `pos` is searched on and
/// left as it was.
pub fn firm(pos: &mut Position, t: NextTurnThreat, w: &Weights) -> bool {
    match t.capture {
        Some(k) if w[id::capture_threat_firm_pct] != 0 => {
            !crate::capture_defences::stopped_in_one_step(pos, k)
        }
        _ => false,
    }
}

/// The next-turn threat features of the opponent of `us` (the side to move, with
/// `steps_left` steps left in its turn); `firm`: no single step of `us` stops the capture
/// threat ([`firm`]). They only ever lower `us`'s score while their weights for those steps
/// are not negative (see [`threat_slack`]).
pub fn next_turn_features<S: Sink>(
    us: Color,
    steps_left: u8,
    ctx: &Context,
    t: NextTurnThreat,
    firm: bool,
    sink: &mut S,
) {
    let them = !us;
    if t.goal {
        sink.add(them, goal_weight(steps_left), 1);
    }
    if let Some(k) = t.capture {
        let value = ctx.values[us][k.index()];
        sink.add_share(them, capture_weight(steps_left), value, 100);
        if firm {
            sink.add_share(them, id::capture_threat_firm_pct, value, 100);
        }
    }
}

/// The weight of the opponent's goal threat when the side to move has `steps_left` steps
/// left: `goal_threat` at a turn start, `goal_threat_late.k` mid-turn.
fn goal_weight(steps_left: u8) -> Param {
    match steps_left {
        0..=3 => id::goal_threat_late.at(usize::from(steps_left)),
        _ => id::goal_threat,
    }
}

/// The weight of the opponent's capture threat when the side to move has `steps_left` steps
/// left: `capture_threat_pct` at a turn start, `capture_threat_late_pct.k` mid-turn.
fn capture_weight(steps_left: u8) -> Param {
    match steps_left {
        0..=3 => id::capture_threat_late_pct.at(usize::from(steps_left)),
        _ => id::capture_threat_pct,
    }
}

/// The most the next-turn threat features can raise the side to move's score with weights
/// `w` and `steps_left` steps left: zero unless the goal or the capture threat's weight for
/// those steps is negative (a tuner may make them so). The lazy evaluation adds it to its
/// upper bound, which so stays one for any weights.
pub fn threat_slack(w: &Weights, steps_left: u8) -> i64 {
    let goal = i64::from(w[goal_weight(steps_left)]).min(0);
    let capture = i64::from(w[capture_weight(steps_left)]).min(0)
        + i64::from(w[id::capture_threat_firm_pct]).min(0);
    let cap = i64::from(w[id::piece_value_cap].max(1));
    -goal - capture * cap / 100
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Silver's rabbit on a2 can goal next turn: at gold's turn start the threat is a
    /// feature of `goal_threat`, after one quiet gold step of `goal_threat_late.3`.
    #[test]
    fn a_goal_threat_mid_turn_has_the_weight_of_the_steps_left() {
        let w = Weights::default();
        let p = crate::test_util::pos("g", &[("E", "d4"), ("r", "a2"), ("e", "h8")]);
        let goal = |f: &crate::Features, p| f.difference(p, Color::Silver);
        let f = crate::features(&p, &w);
        assert_eq!(goal(&f, id::goal_threat), 1.0);
        assert!((0..4).all(|k| goal(&f, id::goal_threat_late.at(k)) == 0.0));
        let (_, p) = tusk_engine::notation::turn::play_steps(&p, "Ed4n").unwrap();
        let f = crate::features(&p, &w);
        assert_eq!(goal(&f, id::goal_threat), 0.0);
        assert_eq!(goal(&f, id::goal_threat_late.at(3)), 1.0);
        assert!((0..3).all(|k| goal(&f, id::goal_threat_late.at(k)) == 0.0));
    }

    /// Silver's elephant can push gold's lone camel onto c6 next turn: at gold's turn start
    /// the threat is a feature of `capture_threat_pct`, and after one quiet gold step of
    /// `capture_threat_late_pct.3`, with the same value (the camel's, for silver).
    #[test]
    fn a_threat_mid_turn_has_the_weight_of_the_steps_left() {
        let w = Weights::default();
        let p = crate::test_util::pos(
            "g",
            &[
                ("M", "c5"),
                ("E", "a1"),
                ("R", "h1"),
                ("e", "d5"),
                ("r", "h8"),
            ],
        );
        let camel = crate::features(&p, &w).difference(id::capture_threat_pct, Color::Silver);
        assert!(camel > 2.0, "{camel}");
        let late = |f: &crate::Features, k: usize| {
            f.difference(id::capture_threat_late_pct.at(k), Color::Silver)
        };
        assert!((0..4).all(|k| late(&crate::features(&p, &w), k) == 0.0));
        let (_, p) = tusk_engine::notation::turn::play_steps(&p, "Rh1n").unwrap();
        assert_eq!(p.steps_left(), 3);
        let f = crate::features(&p, &w);
        assert_eq!(late(&f, 3), camel);
        assert_eq!(f.difference(id::capture_threat_pct, Color::Silver), 0.0);
        assert!((0..3).all(|k| late(&f, k) == 0.0));
    }

    /// Silver's elephant on d5 can push gold's camel onto c6 next turn. With the camel frozen
    /// and gold's other pieces far away no single gold step stops it: the threat is firm and
    /// charged again at `capture_threat_firm_pct`. A gold rabbit on c4 unfreezes the camel,
    /// which can step away to b5 (five silver steps from c6): not firm. Mirrored, the same.
    #[test]
    fn a_threat_no_single_step_stops_is_firm() {
        let mut w = Weights::default();
        w[id::capture_threat_firm_pct] = 40;
        let frozen = [
            ("M", "c5"),
            ("E", "a1"),
            ("R", "h1"),
            ("e", "d5"),
            ("r", "h8"),
        ];
        let mut freed = frozen.to_vec();
        freed.push(("R", "c4"));
        for (pieces, want_firm) in [(&frozen[..], true), (&freed[..], false)] {
            let p = crate::test_util::pos("g", pieces);
            for (q, threatened) in [(p.clone(), Color::Gold), (p.flip(), Color::Silver)] {
                let t = NextTurnThreat::of_mut(&mut q.clone());
                assert_eq!(t.capture, Some(PieceKind::Camel), "{q:?}");
                assert_eq!(firm(&mut q.clone(), t, &w), want_firm, "{q:?}");
                assert!(!firm(&mut q.clone(), t, &Weights::default()));
                let f = crate::features(&q, &w);
                let get = |p: Param, c: Color| f.values[p.index()][c.index()];
                let camel = get(id::capture_threat_pct, !threatened);
                assert!(camel > 2.0, "{camel}");
                let charged = get(id::capture_threat_firm_pct, !threatened);
                assert_eq!(charged, if want_firm { camel } else { 0.0 }, "{q:?}");
                assert_eq!(get(id::capture_threat_firm_pct, threatened), 0.0);
            }
        }
    }

    /// On the seed diagram and a walk from it (turn starts and mid-turn), the threats are
    /// found without changing the position; silver to move faces gold's goal threat.
    #[test]
    fn threats_leave_the_position_as_it_was() {
        use tusk_engine::StepList;
        let silver = crate::test_util::seed_diagram("s");
        assert!(NextTurnThreat::of_mut(&mut silver.clone()).goal);
        let mut list = StepList::new();
        let mut kinds = 0u32;
        for side in ["g", "s"] {
            let mut p = crate::test_util::seed_diagram(side);
            for i in 0..60 {
                let before = p.clone();
                let t = NextTurnThreat::of_mut(&mut p);
                assert_eq!(p, before);
                assert_eq!(p.search_key(), before.search_key());
                kinds |= 1 << t.capture.map_or(6, |k| k.index());
                crate::test_util::walk_step(&mut p, i, &mut list);
            }
        }
        assert!(
            kinds.count_ones() >= 2,
            "the walk meets both captures and none"
        );
    }
}
