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
use tusk_eval::capture_moves::{capture_moves, CaptureMove};

use crate::moves::value;
use crate::node_move::NodeMove;
use crate::search::Worker;

/// The shortest capture move searched here: shorter ones are pushes and pulls.
const MIN_STEPS: usize = 3;

/// What a capture move wins: the victim's value less the own piece lost on the way.
#[inline]
pub(crate) fn capture_move_gain(m: &CaptureMove) -> i32 {
    value(m.captured) - m.lost.map_or(0, value)
}

/// Sorts capture moves best gain first, then shortest, then by the board reached (so the
/// order is the same on every visit).
pub(crate) fn sort_capture_moves(list: &mut [CaptureMove]) {
    list.sort_unstable_by(|a, b| {
        capture_move_gain(b)
            .cmp(&capture_move_gain(a))
            .then(a.steps().len().cmp(&b.steps().len()))
            .then(a.hash.cmp(&b.hash))
    });
}

/// A main-search node whose step-sequence moves (captures, tactics) are searched before its
/// own node moves: where it is, its window, and what the sequences found.
pub(crate) struct SequenceNode {
    /// Steps of depth left at the node.
    pub(crate) depth: i32,
    /// Steps from the root.
    pub(crate) ply: i32,
    /// Node moves from the root.
    pub(crate) h: usize,
    /// The window's upper bound.
    pub(crate) beta: i32,
    /// Whether the node is on the principal variation.
    pub(crate) pv: bool,
    /// The goal-threat extension the line may still receive.
    pub(crate) ext: i32,
    /// The best value so far.
    pub(crate) best: i32,
    /// The window's lower bound, raised by the moves searched.
    pub(crate) alpha: i32,
    /// Moves searched so far.
    pub(crate) searched: usize,
    /// The opponent's capture threat at the node where the search already asked for it
    /// (`Some(None)`: no threat), for the capture defences.
    pub(crate) capture_threat: Option<Option<tusk_engine::PieceKind>>,
}

impl Worker<'_> {
    /// Searches the capture moves of three or four steps at the node (see the module docs);
    /// true where one reached beta or the search stopped.
    pub(crate) fn search_tree_captures(&mut self, node: &mut SequenceNode) -> bool {
        if usize::from(self.pos.steps_left()) < MIN_STEPS {
            return false;
        }
        let mut list = std::mem::take(&mut self.capture_lists[node.h]);
        let played = capture_moves(&mut self.pos, &mut list, &mut self.capture_visited);
        self.charge_generator_steps(played);
        list.retain(|m| m.steps().len() >= MIN_STEPS && capture_move_gain(m) > 0);
        sort_capture_moves(&mut list);
        let cut = self.try_sequences(list.iter().map(CaptureMove::steps), node);
        self.capture_lists[node.h] = list;
        cut
    }

    /// Searches each step sequence of `moves` (capture or tactic moves) in turn as the next
    /// move of `node`, principal-variation style (the node's first move with the full window,
    /// later ones with a null window first), until one reaches beta or the search stops
    /// (then true).
    pub(crate) fn try_sequences<'m>(
        &mut self,
        moves: impl Iterator<Item = &'m [Step]>,
        node: &mut SequenceNode,
    ) -> bool {
        for steps in moves {
            let first = node.searched == 0;
            let b = if first { node.beta } else { node.alpha + 1 };
            let mut v = self.after_sequence(steps, node, node.alpha, b, node.pv && first);
            if !self.stopped && !first && node.pv && v > node.alpha && v < node.beta {
                v = self.after_sequence(steps, node, node.alpha, node.beta, true);
            }
            if self.stopped {
                return true;
            }
            node.searched += 1;
            if v > node.best {
                node.best = v;
                if v > node.alpha {
                    node.alpha = v;
                    self.set_pv_steps(node.h, steps);
                    if v >= node.beta {
                        return true;
                    }
                }
            }
        }
        false
    }

    /// Plays the step sequence `steps` at the node, searches the position after it with the
    /// depth its steps leave and window (alpha, beta), and takes the steps back: its value
    /// from the mover's view.
    fn after_sequence(
        &mut self,
        steps: &[Step],
        node: &SequenceNode,
        alpha: i32,
        beta: i32,
        pv: bool,
    ) -> i32 {
        // No move-order pruning after a sequence: the child sees no previous node move.
        self.line[node.h] = NodeMove::NONE;
        let len = steps.len() as i32;
        let (depth, ply, h, ext) = (node.depth - len, node.ply + len, node.h + 1, node.ext);
        self.with_steps_played(steps, |w| w.search(depth, ply, h, alpha, beta, pv, ext))
    }
}
