//! Quiescence search at the horizon: the side to move may stand pat on the static evaluation
//! (which already includes its exact goal detector, the captures within reach this turn and
//! next, and the opponent's goal threat) or play a capture move: every shortest sequence of
//! steps within the steps left that captures an enemy piece, approach included
//! ([`tusk_eval::capture_moves`]), best gain first (with the `capmoves` feature off, only the
//! capturing pushes and pulls). A turn that runs out of steps ends with the end checks and the
//! opponent's goal detector, and the opponent's turn start is searched the same way.
//!
//! With the exchange feature (off by default, `Params::exchange`), where the side to move can
//! capture and the opponent threatens a capture of at least the same value next turn, standing
//! pat counts only the defence and the evaluation's `capture_exchange_pct` share of the capture
//! ([`tusk_eval::stand_pat_above`]) and the capture is played out
//! as a whole capture move however many steps it takes; the opponent's reply capture is then
//! met at its turn start. With the capture-quiescence feature (off by default,
//! `Params::capture_quiescence`) the same holds at every turn start where the side to move can
//! capture, whatever the opponent threatens. With the capture-defence feature (off by default,
//! `Params::capture_defences`) the side to move in the middle of its turn, threatened with a
//! capture next turn, may also play a capture defence ([`tusk_eval::capture_defences`]).

use tusk_engine::{Pending, PieceKind, Step};
use tusk_eval::capture_defences::capture_defences_against;
use tusk_eval::capture_moves::capture_moves;

use crate::moves::{generate_captures, value};
use crate::score::Score;
use crate::search::{Stand, Worker, DETECTOR_STEPS, MAX_HEIGHT};
use crate::tree_captures::{capture_move_gain, sort_capture_moves};

/// The most steps of a capture move, a tactic move or a capture defence (a whole turn).
pub(crate) const MAX_SEQUENCE: usize = 4;
const _: () = assert!(
    tusk_eval::capture_moves::MAX_STEPS == MAX_SEQUENCE
        && tusk_eval::capture_defences::MAX_STEPS == MAX_SEQUENCE
        && crate::tree_tactics::MAX_STEPS == MAX_SEQUENCE
);

/// Steps the capture-defence generator may play at one node, in the quiescence and in the
/// tree (`tdefence`): a safety bound. Two steps of defence take about 600; three about 15,000
/// where no shorter defence exists, so a defence of three or four steps is found only where
/// few shorter sequences are legal (what was found is still searched).
pub(crate) const DEFENCE_STEPS: u32 = 4_000;

impl Worker<'_> {
    /// Quiescence search of the current position, `ply` steps and `h` node moves from the root,
    /// window (alpha, beta) from the side to move's view.
    pub(crate) fn qsearch(&mut self, ply: i32, h: usize, mut alpha: i32, beta: i32) -> i32 {
        self.pv_len[h] = 0;
        if self.count_node(ply) {
            return 0;
        }
        if self.pos.steps_left() == 0 {
            if !self.pos.can_end_turn() {
                return -(Score::WIN - ply);
            }
            return match self.turn_end(0, ply, h + 1, alpha, beta, false, 0) {
                Some(v) => {
                    self.set_pv(h, crate::node_move::NodeMove::PASS);
                    v
                }
                None => -(Score::WIN - ply),
            };
        }
        // Standing pat cannot raise alpha when even the evaluation's upper bound stays at or
        // below it: then the bound is enough (a fail-low answer stays a valid upper bound).
        let Stand {
            score: stand,
            exchange,
            threatened,
        } = self.static_eval_above(ply, alpha);
        if !self.sh.params.quiescence || h >= MAX_HEIGHT - 2 || stand >= beta {
            return stand;
        }
        if stand > alpha {
            alpha = stand;
        }
        let best = self.qsearch_captures(ply, h, alpha, beta, stand, exchange);
        if self.stopped
            || best >= beta
            || !self.sh.params.capture_defences
            || self.pos.at_turn_start()
        {
            return best;
        }
        match threatened {
            // A defence can win back at most the threatened piece.
            Some(kind) if stand + value(kind) > alpha.max(best) => {
                self.qsearch_defences(ply, h, kind, alpha.max(best), beta, best)
            }
            _ => best,
        }
    }

    /// The captures of the quiescence search at height `h`, after standing pat on `stand`
    /// (already above `alpha`, or alpha raised to it): the best of `stand` and the captures.
    fn qsearch_captures(
        &mut self,
        ply: i32,
        h: usize,
        mut alpha: i32,
        beta: i32,
        stand: i32,
        exchange: bool,
    ) -> i32 {
        // With two steps left or fewer the capture moves are the pushes and pulls below (and a
        // pull's completion, which the search below the horizon already plays). Where standing
        // pat left out the side's capture (an exchange), the capture must be found however
        // many steps it takes.
        if (self.sh.params.capture_moves || exchange) && self.pos.steps_left() >= 3 {
            return self.qsearch_capture_moves(ply, h, alpha, beta, stand);
        }
        let mut best = stand;
        let mut list = std::mem::take(&mut self.lists[h]);
        generate_captures(&mut self.pos, &mut list, &mut self.scratch);
        list.sort_unstable_by(|a, b| b.1.cmp(&a.1).then(a.0.bits().cmp(&b.0.bits())));
        for &(m, gain) in list.iter() {
            if gain <= 0 {
                break;
            }
            let (a, b) = (m.first(), m.second());
            let ua = self.pos.play_step_unchecked(a);
            let ub = self.pos.play_step_unchecked(b);
            let v = self.qsearch(ply + 2, h + 1, alpha, beta);
            self.pos.undo_step(b, ub);
            self.pos.undo_step(a, ua);
            if self.stopped {
                self.lists[h] = list;
                return 0;
            }
            if v > best {
                best = v;
                if v > alpha {
                    alpha = v;
                    self.set_pv(h, m);
                    if v >= beta {
                        break;
                    }
                }
            }
        }
        self.lists[h] = list;
        best
    }

    /// The capture moves of the quiescence search at height `h`, after standing pat on
    /// `stand` (already above `alpha`, or alpha raised to it).
    fn qsearch_capture_moves(
        &mut self,
        ply: i32,
        h: usize,
        mut alpha: i32,
        beta: i32,
        stand: i32,
    ) -> i32 {
        let mut best = stand;
        let mut list = std::mem::take(&mut self.capture_lists[h]);
        let played = capture_moves(&mut self.pos, &mut list, &mut self.capture_visited);
        self.charge_generator_steps(played);
        sort_capture_moves(&mut list);
        for m in list.iter() {
            if capture_move_gain(m) <= 0 {
                break;
            }
            let steps = m.steps();
            let v = self.qsearch_after(ply, h, steps, alpha, beta);
            if self.stopped {
                self.capture_lists[h] = list;
                return 0;
            }
            if self.raise(h, steps, v, &mut best, &mut alpha, beta) {
                break;
            }
        }
        self.capture_lists[h] = list;
        best
    }

    /// Plays the step sequence `steps` (a capture move or a capture defence) from the current
    /// position at height `h`, `ply` steps from the root, searches the position reached one
    /// node move deeper and takes the steps back: its value from the side to move's view.
    fn qsearch_after(&mut self, ply: i32, h: usize, steps: &[Step], alpha: i32, beta: i32) -> i32 {
        let ply = ply + steps.len() as i32;
        self.with_steps_played(steps, |w| w.qsearch(ply, h + 1, alpha, beta))
    }

    /// Takes the value `v` of the sequence `steps` at height `h` into `best` and `alpha` (its
    /// steps the principal variation where it raises alpha); true where it reaches `beta`.
    fn raise(
        &mut self,
        h: usize,
        steps: &[Step],
        v: i32,
        best: &mut i32,
        alpha: &mut i32,
        beta: i32,
    ) -> bool {
        if v > *best {
            *best = v;
            if v > *alpha {
                *alpha = v;
                self.set_pv_steps(h, steps);
            }
        }
        v >= beta
    }

    /// The capture defences of the quiescence search at height `h` (`qdefence`, mid-turn
    /// only: at a turn start the side has a whole turn, the search's to play), after the
    /// captures left `best` (already above `alpha`, or alpha raised to it): every shortest
    /// sequence of steps that leaves the opponent a weaker capture next turn, those that
    /// stop every capture first.
    fn qsearch_defences(
        &mut self,
        ply: i32,
        h: usize,
        threat: PieceKind,
        mut alpha: i32,
        beta: i32,
        mut best: i32,
    ) -> i32 {
        if matches!(self.pos.pending(), Pending::Push { .. }) {
            return best;
        }
        let mut list = std::mem::take(&mut self.defence_lists[h]);
        let found = capture_defences_against(
            &mut self.pos,
            threat,
            &mut list,
            &mut self.capture_visited,
            self.sh.params.capture_defence_len,
            DEFENCE_STEPS,
        );
        // A judged board costs a capture search, about a node's evaluation.
        self.charge_generator_steps(found.played + found.judged * DETECTOR_STEPS);
        crate::tree_defences::sort_defences(&mut list);
        for m in list.iter() {
            let steps = m.steps();
            let v = self.qsearch_after(ply, h, steps, alpha, beta);
            if self.stopped {
                self.defence_lists[h] = list;
                return 0;
            }
            if self.raise(h, steps, v, &mut best, &mut alpha, beta) {
                break;
            }
        }
        self.defence_lists[h] = list;
        best
    }
}
