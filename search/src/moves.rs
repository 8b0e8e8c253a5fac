//! Node-move generation: every legal step as one move, except that a push is one two-step
//! move (the enemy step and each way to complete it) and a pull is offered as one two-step
//! move (the puller's step and the pull) beside the puller's lone step; a pass where the turn
//! may end. A pull is never generated on its own after a lone step, so every sequence of steps
//! is produced exactly once.

use tusk_engine::{Pending, PieceKind, Position, Step, StepList, NEIGHBOURS};

use crate::node_move::NodeMove;

/// A move with its ordering score.
pub(crate) type Scored = (NodeMove, i32);

/// Fills `out` with the node moves of `pos` (scores zero). `scratch` is a work list. `pos` is
/// left as it was (push completions are found by playing the push's first step).
pub(crate) fn generate(pos: &mut Position, out: &mut Vec<Scored>, scratch: &mut StepList) {
    node_moves::<false>(pos, out, scratch);
    if pos.can_end_turn() {
        out.push((NodeMove::PASS, 0));
    }
}

/// Fills `out` with only the two-step moves (pushes and pulls) that capture an enemy piece, and
/// gives each the captured piece's ordering value minus any own loss. They are exactly the
/// two-step moves of [`generate`] whose enemy step captures, in the same order.
pub(crate) fn generate_captures(pos: &mut Position, out: &mut Vec<Scored>, scratch: &mut StepList) {
    if pos.steps_left() < 2 {
        out.clear();
        return;
    }
    node_moves::<true>(pos, out, scratch);
}

/// The one walk behind [`generate`] and [`generate_captures`]: every legal step, and for each
/// own non-rabbit step the pulls it can make, for each enemy step (a push begun) its
/// completions. With `CAPTURES`, only the two-step moves whose enemy step captures are kept,
/// scored by [`value`] of the captured piece minus that of any own piece lost; otherwise every
/// move is kept with score zero. No pass is added.
#[inline]
fn node_moves<const CAPTURES: bool>(
    pos: &mut Position,
    out: &mut Vec<Scored>,
    scratch: &mut StepList,
) {
    out.clear();
    let mut steps = StepList::new();
    pos.legal_steps(&mut steps);
    let us = pos.side();
    // The side to move's unfrozen pieces, found at the first push (most nodes have none).
    let mut mobile = None;
    let pull = match pos.pending() {
        Pending::Pull { square, puller } => Some((square, puller)),
        _ => None,
    };
    for &s in steps.iter() {
        let Some(piece) = pos.piece_at(s.from()) else {
            continue;
        };
        if piece.color() == us {
            if !CAPTURES {
                out.push((NodeMove::one(s), 0));
            }
            if piece.kind() == PieceKind::Rabbit || pos.steps_left() < 2 {
                continue;
            }
            let victims = pos.weaker_than(!us, piece.kind()) & NEIGHBOURS[s.from().index()];
            for v in victims {
                let Some(p) = Step::between(v, s.from()) else {
                    continue;
                };
                if !CAPTURES {
                    out.push((NodeMove::two(s, p), 0));
                } else if let Some(k) = capture_kind(pos, p) {
                    let loss = capture_kind(pos, s).map_or(0, value);
                    out.push((NodeMove::two(s, p), value(k) - loss));
                }
            }
        } else {
            if let Some((square, puller)) = pull {
                if s.to() == square && piece.kind() < puller {
                    // The pull after a lone step: already offered as a two-step move.
                    continue;
                }
            }
            let captured = capture_kind(pos, s);
            let gain = match (CAPTURES, captured) {
                (false, _) => 0,
                (true, Some(k)) => value(k),
                (true, None) => continue,
            };
            let mobile = *mobile.get_or_insert_with(|| pos.occupied_by(us) - pos.frozen(us));
            push_completions(pos, s, piece.kind(), captured.is_some(), mobile, scratch);
            for &c in scratch.iter() {
                let score = if CAPTURES {
                    gain - capture_kind(pos, c).map_or(0, value)
                } else {
                    0
                };
                out.push((NodeMove::two(s, c), score));
            }
        }
    }
}

/// The steps that complete the push begun by enemy step `s` (a `victim`; `captures` says
/// whether `s` captures a piece), in the order the step generator gives them. `mobile` are the
/// side to move's unfrozen pieces before `s`: the push only moves a weaker enemy piece, so they
/// stay unfrozen, and no other own piece thaws unless `s` captures an enemy piece (then the
/// completions are generated after playing `s`).
fn push_completions(
    pos: &mut Position,
    s: Step,
    victim: PieceKind,
    captures: bool,
    mobile: tusk_engine::Bitboard,
    out: &mut StepList,
) {
    if captures {
        let undo = pos.play_step_unchecked(s);
        pos.legal_steps(out);
        pos.undo_step(s, undo);
        return;
    }
    out.clear();
    let pushers = mobile & pos.stronger_than(pos.side(), victim) & NEIGHBOURS[s.from().index()];
    for p in pushers {
        if let Some(c) = Step::between(p, s.from()) {
            out.push(c);
        }
    }
}

/// The kind of piece `s` (legal in `pos`) captures (see [`Position::step_capture`]).
#[inline]
pub(crate) fn capture_kind(pos: &Position, s: Step) -> Option<PieceKind> {
    pos.step_capture(s).map(|(piece, _)| piece.kind())
}

/// A rough value of a piece kind for ordering captures (not the evaluation's material).
#[inline]
pub(crate) fn value(kind: PieceKind) -> i32 {
    [100, 150, 200, 300, 500, 800][kind.index()]
}

#[cfg(test)]
mod tests {
    use super::*;
    use tusk_engine::notation::board::parse_aei;

    /// Counts the distinct step sequences of the rest of the turn by walking node moves, and
    /// compares with walking single steps: the node moves must produce each sequence once.
    fn walk(pos: &mut Position, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let mut out = Vec::new();
        let mut scratch = StepList::new();
        generate(pos, &mut out, &mut scratch);
        let mut n = 0;
        for (m, _) in out {
            if m.is_pass() {
                continue;
            }
            if m.len() > depth {
                continue;
            }
            let u1 = pos.play_step_unchecked(m.first());
            if m.len() == 2 {
                let u2 = pos.play_step_unchecked(m.second());
                n += walk(pos, depth - 2);
                pos.undo_step(m.second(), u2);
            } else {
                n += walk(pos, depth - 1);
            }
            pos.undo_step(m.first(), u1);
        }
        n
    }

    #[test]
    fn node_moves_cover_every_step_sequence_once() {
        for text in [
            tusk_engine::notation::board::STANDARD_OPENING,
            "g [ D      c   r HcR   M r rC  r R r  r E R R C  R R    D      R  R]",
        ] {
            let mut p = parse_aei(text).unwrap();
            for d in 1..=3u32 {
                let seqs = exact_sequences(&mut p.clone(), d);
                assert_eq!(walk(&mut p, d), seqs, "{text} depth {d}");
            }
        }
    }

    /// The capturing two-step moves of `pos` found by playing every two-step move of
    /// [`generate`], each scored by the enemy piece it captures minus any own piece lost.
    fn captures_by_playing(pos: &mut Position) -> Vec<Scored> {
        let us = pos.side();
        let mut all = Vec::new();
        generate(pos, &mut all, &mut StepList::new());
        let mut found = Vec::new();
        for (m, _) in all {
            if m.is_pass() || m.len() != 2 {
                continue;
            }
            let u1 = pos.play_step_unchecked(m.first());
            let u2 = pos.play_step_unchecked(m.second());
            let (mut won, mut lost) = (None, 0);
            for (piece, _) in [u1.captured(), u2.captured()].into_iter().flatten() {
                if piece.color() == us {
                    lost += value(piece.kind());
                } else {
                    won = Some(value(piece.kind()));
                }
            }
            pos.undo_step(m.second(), u2);
            pos.undo_step(m.first(), u1);
            if let Some(w) = won {
                found.push((m, w - lost));
            }
        }
        found
    }

    /// Every position reached from `pos` by up to `d` node moves, `pos` included.
    fn positions_within(pos: &mut Position, d: u32, into: &mut Vec<Position>) {
        into.push(pos.clone());
        if d == 0 {
            return;
        }
        let mut out = Vec::new();
        generate(pos, &mut out, &mut StepList::new());
        for (m, _) in out {
            if m.is_pass() || m.len() > u32::from(pos.steps_left()) {
                continue;
            }
            let u1 = pos.play_step_unchecked(m.first());
            if m.len() == 2 {
                let u2 = pos.play_step_unchecked(m.second());
                positions_within(pos, d - 1, into);
                pos.undo_step(m.second(), u2);
            } else {
                positions_within(pos, d - 1, into);
            }
            pos.undo_step(m.first(), u1);
        }
    }

    #[test]
    fn capture_moves_are_the_two_step_moves_that_capture() {
        let mut positions = Vec::new();
        for text in [
            "g [ D      c   r HcR   M r rC  r R r  r E R R C  R R    D      R  R]",
            "s [ D      c   r HcR   M r rC  r R r  r E R R C  R R    D      R  R]",
            tusk_engine::notation::board::STANDARD_OPENING,
            // The elephant on d3 is the dog's only guard on trap c3, the cat on e3 the
            // rabbit's on f3: pushing or pulling the cat away captures and loses a piece.
            "g [       r e                                DEcr        R R       ]",
        ] {
            positions_within(&mut parse_aei(text).unwrap(), 2, &mut positions);
        }
        let mut with_captures = 0;
        for mut p in positions {
            let mut got = Vec::new();
            generate_captures(&mut p, &mut got, &mut StepList::new());
            let want = captures_by_playing(&mut p);
            with_captures += usize::from(!want.is_empty());
            assert_eq!(got, want, "{p:?}");
        }
        // The walk must reach positions where captures exist, or the test shows nothing.
        assert!(
            with_captures > 100,
            "{with_captures} positions with captures"
        );
    }

    /// Sequences of exactly `d` single steps that do not end with a push half done.
    fn exact_sequences(pos: &mut Position, d: u32) -> u64 {
        if d == 0 {
            return u64::from(!matches!(pos.pending(), Pending::Push { .. }));
        }
        let mut steps = StepList::new();
        pos.legal_steps(&mut steps);
        let mut n = 0;
        for &s in steps.iter() {
            let u = pos.play_step_unchecked(s);
            n += exact_sequences(pos, d - 1);
            pos.undo_step(s, u);
        }
        n
    }
}
