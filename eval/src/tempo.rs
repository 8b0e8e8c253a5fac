//! Tempo: the steps the side to move has left in its turn.
//!
//! Tusk searches step by step, so the positions it compares are not all at the same point of
//! a turn: a line that late-move reductions shortened, an extended one, or the quiescence
//! after a push stops with the side to move holding more or fewer steps than its neighbours.
//! The other terms judge the board only (the capture and goal detectors aside), so without
//! this one a side to move with four steps in hand and one with a single step left look
//! alike. A step in hand is worth something: it can still guard a trap, free a piece or
//! finish an approach.
//!
//! Feature, in whole counts: for the side to move only, 1 at its number of steps left,
//! 0 .. 4 (`steps_left.k`, centirabbits per position). A turn start always reads
//! `steps_left.4`, so between turn starts the term is a constant: it only weighs positions
//! at different points of a turn against each other.
//!
//! The idea and its numbers are sharp's (David Wu's `STEPS_LEFT_BONUS`, in his search
//! parameters, -200, -100, 0, 100, 200 of his units a rabbit being 1,000, that is -20 .. +20
//! centirabbits, [`SHARP_STEPS_LEFT`]); the weights ship at 0, for the tuner.

use tusk_engine::Position;

use crate::weights::id;
use crate::Sink;

/// sharp's steps-left bonus, centirabbits, by steps left 0 .. 4 (its `STEPS_LEFT_BONUS` / 10).
pub const SHARP_STEPS_LEFT: [i32; 5] = [-20, -10, 0, 10, 20];

/// The tempo feature of the side to move (see the module docs).
#[inline]
pub fn tempo_features<S: Sink>(pos: &Position, sink: &mut S) {
    let k = usize::from(pos.steps_left()).min(4);
    sink.add(pos.side(), id::steps_left.at(k), 1);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_util::{opening, seed_diagram};
    use crate::{evaluate, explain, FeatureSink, Term, Weights};
    use tusk_engine::{Color, StepList};

    fn sharps() -> Weights {
        let mut w = Weights::default();
        for (k, v) in SHARP_STEPS_LEFT.into_iter().enumerate() {
            w[id::steps_left.at(k)] = v;
        }
        w
    }

    /// The side to move reads one feature, at its steps left; the opponent none.
    #[test]
    fn the_side_to_move_reads_its_steps_left() {
        let w = Weights::default();
        let mut p = seed_diagram("g");
        let mut list = StepList::new();
        for expected in [4usize, 3, 2, 1] {
            assert_eq!(usize::from(p.steps_left()), expected);
            let mut sink = FeatureSink::new(&w, p.side());
            tempo_features(&p, &mut sink);
            let f = sink.features;
            for k in 0..5 {
                let us = f.values[id::steps_left.at(k).index()][p.side().index()];
                let them = f.values[id::steps_left.at(k).index()][(!p.side()).index()];
                assert_eq!(us, f64::from(u8::from(k == expected)), "k {k}");
                assert_eq!(them, 0.0);
            }
            p.legal_steps(&mut list);
            p.play_step_unchecked(list[0]);
        }
    }

    /// With sharp's weights a side to move with steps in hand scores better than with fewer,
    /// by 10 centirabbits a step, on the same board; colour-mirrored, the same.
    #[test]
    fn a_step_in_hand_is_worth_ten_centirabbits_with_sharps_weights() {
        let w = sharps();
        let start = opening();
        let before = explain(&start, &w);
        assert_eq!(before.get(Term::Tempo, Color::Gold), 20);
        assert_eq!(before.get(Term::Tempo, Color::Silver), 0);
        assert_eq!(evaluate(&start, &w), 20);
        assert_eq!(evaluate(&start.flip(), &w), 20);
        // The same armies with one step spent: 10 for gold, which has three left.
        let mut list = StepList::new();
        start.legal_steps(&mut list);
        let mut q = start.clone();
        q.play_step_unchecked(list[0]);
        let b = explain(&q, &w);
        assert_eq!(b.get(Term::Tempo, Color::Gold), 10);
        assert_eq!(explain(&q.flip(), &w).get(Term::Tempo, Color::Silver), 10);
        // Round 47's weights (shipped until round 52) have no tempo; the shipped weights
        // carry sharp's.
        let round47 = crate::weights_file::parse(
            include_str!("../../data/weights/round47-material-140-piece-value-140.json"),
            &Weights::default(),
        )
        .unwrap()
        .weights;
        assert_eq!(explain(&q, &round47).get(Term::Tempo, Color::Gold), 0);
        assert_eq!(evaluate(&start, &round47), 0);
        assert_eq!(
            explain(&q, &Weights::default()).get(Term::Tempo, Color::Gold),
            10
        );
    }
}
