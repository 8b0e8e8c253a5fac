//! Whole capture moves in the main search ([`crate::Feature::TreeCaptures`], issue 22's
//! "capture moves as one move of the tree"; sharp generates them first at every node).
//!
//! At a node with depth left and at least three steps left in the turn, every capture move of
//! the side to move ([`tusk_eval::capture_moves`]: the shortest step sequences within the steps
//! left that capture an enemy piece, approach included) of three or four steps that wins
//! material is searched before the node's own moves, best gain first, at full depth and never
//! reduced or pruned, each consuming its steps of depth. Two-step captures are pushes and
//! pulls, which the node's own moves already hold (searched at full depth as captures), so
//! they are not repeated. Where the depth left is shorter than the capture, the capture is
//! still played out and the position after it judged, instead of the evaluation's price of a
//! capture within reach.
//!
//! A capture move is no [`crate::node_move::NodeMove`]: its steps become the principal
//! variation one by one, and a node whose best move was a capture keeps the table's earlier
//! move (the captures are generated again, first, on the next visit).

use tusk_engine::Step;
use tusk_eval::capture_moves::{capture_moves, CaptureMove, MAX_STEPS};

use crate::moves::value;
use crate::node_move::NodeMove;
use crate::search::Worker;

/// The shortest capture move searched here: shorter ones are pushes and pulls.
const MIN_STEPS: usize = 3;

/// What a capture move wins: the victim's value less the own piece lost on the way.
#[inline]
fn gain(m: &CaptureMove) -> i32 {
    value(m.captured) - m.lost.map_or(0, value)
}

/// The search state of one node that the capture moves share with the node's own moves.
pub(crate) struct NodeBest {
    /// The best value so far.
    pub(crate) best: i32,
    /// The window's lower bound, raised by the moves searched.
    pub(crate) alpha: i32,
    /// Moves searched so far.
    pub(crate) searched: usize,
}

impl Worker<'_> {
    /// Searches the capture moves of three or four steps at height `h` (see the module docs)
    /// with `depth` steps of depth, into `node`; true where one reached `beta`.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn search_tree_captures(
        &mut self,
        depth: i32,
        ply: i32,
        h: usize,
        beta: i32,
        pv: bool,
        ext: i32,
        node: &mut NodeBest,
    ) -> bool {
        if usize::from(self.pos.steps_left()) < MIN_STEPS {
            return false;
        }
        let mut list = std::mem::take(&mut self.capture_lists[h]);
        let played = capture_moves(&mut self.pos, &mut list, &mut self.capture_visited);
        self.charge_generator_steps(played);
        list.retain(|m| m.steps().len() >= MIN_STEPS && gain(m) > 0);
        list.sort_unstable_by(|a, b| {
            gain(b)
                .cmp(&gain(a))
                .then(a.steps().len().cmp(&b.steps().len()))
                .then(a.hash.cmp(&b.hash))
        });
        let mut cut = false;
        for m in list.iter() {
            if self.try_sequence(m.steps(), depth, ply, h, beta, pv, ext, node) {
                cut = true;
                break;
            }
        }
        self.capture_lists[h] = list;
        cut
    }

    /// Searches the step sequence `steps` (a capture or tactic move) as the next move of the
    /// node at height `h` into `node`, principal-variation style (the first move searched
    /// with the full window, later ones with a null window first): true where it reached
    /// `beta` or the search stopped.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn try_sequence(
        &mut self,
        steps: &[Step],
        depth: i32,
        ply: i32,
        h: usize,
        beta: i32,
        pv: bool,
        ext: i32,
        node: &mut NodeBest,
    ) -> bool {
        let first = node.searched == 0;
        let b = if first { beta } else { node.alpha + 1 };
        let mut v = self.after_sequence(steps, depth, ply, h, node.alpha, b, pv && first, ext);
        if !self.stopped && !first && pv && v > node.alpha && v < beta {
            v = self.after_sequence(steps, depth, ply, h, node.alpha, beta, true, ext);
        }
        if self.stopped {
            return true;
        }
        node.searched += 1;
        if v > node.best {
            node.best = v;
            if v > node.alpha {
                node.alpha = v;
                self.set_pv_steps(h, steps);
                return v >= beta;
            }
        }
        false
    }

    /// Plays the step sequence `steps` at height `h`, searches the position after it with the
    /// depth its steps leave, and takes the steps back: its value from the mover's view.
    #[allow(clippy::too_many_arguments)]
    fn after_sequence(
        &mut self,
        steps: &[Step],
        depth: i32,
        ply: i32,
        h: usize,
        alpha: i32,
        beta: i32,
        pv: bool,
        ext: i32,
    ) -> i32 {
        // No move-order pruning after a sequence: the child sees no previous node move.
        self.line[h] = NodeMove::NONE;
        let mut undo = [None; MAX_STEPS];
        for (u, &s) in undo.iter_mut().zip(steps) {
            *u = Some(self.pos.play_step_unchecked(s));
        }
        let len = steps.len() as i32;
        let v = self.search(depth - len, ply + len, h + 1, alpha, beta, pv, ext);
        for (u, &s) in undo.iter().zip(steps).rev() {
            if let Some(u) = *u {
                self.pos.undo_step(s, u);
            }
        }
        v
    }
}
