//! Whole capture defences in the main search ([`crate::Feature::TreeDefences`], issue 22's
//! "defence moves"; sharp generates capture defences among its relevant tactics at every
//! node).
//!
//! At a turn start with depth left where the opponent could capture a piece of the side to
//! move if the turn ended at once (the exact detector,
//! [`tusk_eval::threat::NextTurnThreat::capture_of_mut`]), every shortest capture defence
//! ([`tusk_eval::capture_defences`]: a sequence of steps after which the opponent's best
//! capture is weaker or gone) is searched after the capture and
//! tactic moves and before the node's own moves, those that stop every capture first, at full
//! depth and never reduced or pruned, each consuming its steps of depth. So where the threat
//! is met a turn before the horizon (the opponent's turn start after a root turn that made
//! it, at depth five), the parry is played out and the position after it judged, instead of
//! one step and the evaluation's price of a threat still standing. One-step defences are
//! node moves too; they are searched here as well so that late-move pruning never drops the
//! only defence (the second visit is a table hit).
//!
//! Not under a goal threat: there the node's moves are restricted to the goal's defences.

use tusk_eval::capture_defences::{capture_defences_against, CaptureDefence};

use crate::quiesce::DEFENCE_STEPS;
use crate::search::{Worker, DETECTOR_STEPS};
use crate::tree_captures::SequenceNode;

/// The most depth left where defences are searched whole: from a turn's depth on, the node's
/// own steps reach every defence before the horizon.
const MAX_DEPTH: i32 = 3;

/// Sorts defences by what they leave: every capture stopped first, then the weakest threat
/// left, no own piece lost on the way, fewest steps, and the board reached (the same order on
/// every visit).
pub(crate) fn sort_defences(list: &mut [CaptureDefence]) {
    list.sort_unstable_by(|a, b| {
        a.threat_after
            .cmp(&b.threat_after)
            .then(a.lost.cmp(&b.lost))
            .then(a.steps().len().cmp(&b.steps().len()))
            .then(a.board.cmp(&b.board))
    });
}

impl Worker<'_> {
    /// Searches the capture defences at a threatened turn start (see the module docs); true
    /// where one reached beta or the search stopped.
    pub(crate) fn search_tree_defences(&mut self, node: &mut SequenceNode) -> bool {
        if !self.pos.at_turn_start() || node.depth > MAX_DEPTH || self.threat[node.h].any() {
            return false;
        }
        let known = node.capture_threat;
        let Some(threat) = known.unwrap_or_else(|| self.capture_threat()) else {
            return false;
        };
        let mut list = std::mem::take(&mut self.defence_lists[node.h]);
        let found = capture_defences_against(
            &mut self.pos,
            threat,
            &mut list,
            &mut self.capture_visited,
            tusk_eval::capture_defences::MAX_STEPS as u8,
            DEFENCE_STEPS,
        );
        self.charge_generator_steps(found.played + found.judged * DETECTOR_STEPS);
        sort_defences(&mut list);
        let cut = self.try_sequences(list.iter().map(CaptureDefence::steps), node);
        self.defence_lists[node.h] = list;
        cut
    }
}
