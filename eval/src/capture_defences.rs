//! Capture defences: the shortest sequences of steps, within the steps left in the turn, after
//! which the opponent can no longer capture as strong a piece of the side to move in its next
//! turn. The threat is the strongest own kind the opponent could capture if the side to move
//! ended its turn now ([`NextTurnThreat`]'s capture, the exact detector of
//! [`crate::captures`]); a defence is a sequence that leaves a weaker threat or none (the
//! threatened piece steps away, a guard comes to the trap, the attacker is pushed off or
//! frozen, a square on the way is blocked), losing no own piece of the threatened kind or
//! stronger on the way. The searcher's quiescence plays them as whole moves (issue 22).
//!
//! What is yielded: for every threat level a defence reaches (a weaker kind, or none), every
//! distinct board reached by a sequence of the fewest steps that reaches that level or better,
//! where no shorter sequence does. So the shortest partial defence is there, and a longer one
//! only where it saves more (the push that removes the attacker after the step that only
//! halved the threat). A sequence ends where a turn could end: never halfway through a push.
//!
//! It is exact: a depth-first search over every legal step by increasing length, positions
//! reached again by another order searched once, each candidate board judged by the exact
//! capture detector; a brute-force test (`eval/tests/capture_defences.rs`) compares it with
//! plain enumeration of every step sequence. It is also costly where no defence is short:
//! every sequence of each length is judged. The caller gives the longest defence it wants and a
//! budget of steps played; a search that runs out returns what it found so far and says it is
//! incomplete.

use tusk_engine::{Pending, PieceKind, Position, Step, StepList};

use crate::capture_moves::Visited;
use crate::captures::{best_capture_mut, can_capture_mut, KindSet};
use crate::threat::NextTurnThreat;

/// The most steps a defence takes (a whole turn).
pub const MAX_STEPS: usize = 4;

/// One capture defence: its steps and what it leaves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CaptureDefence {
    steps: [Step; MAX_STEPS],
    len: u8,
    /// The strongest own kind the opponent can capture next turn after the defence (none:
    /// every capture is stopped).
    pub threat_after: Option<PieceKind>,
    /// The kind of an own piece captured on the way (a weaker one than the threatened kind).
    pub lost: Option<PieceKind>,
    /// The board reached ([`Position::board_key`]): distinct defences reach distinct boards.
    pub board: u64,
}

impl CaptureDefence {
    /// The defence's steps, in order.
    #[inline]
    pub fn steps(&self) -> &[Step] {
        &self.steps[..self.len as usize]
    }
}

/// What a call of [`capture_defences`] found besides the moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DefenceSearch {
    /// The threat before any defence: the strongest own kind the opponent could capture if
    /// the turn ended now (none: nothing to defend, and no defences are searched).
    pub threat: Option<PieceKind>,
    /// Whether every sequence within the steps left and the length asked was judged (false:
    /// the budget ran out, and the moves are those found before it did).
    pub complete: bool,
    /// The steps played by the search (its work, which a searcher may charge as nodes).
    pub played: u32,
    /// The boards judged by the exact capture detector (the costlier part of the work).
    pub judged: u32,
}

/// The search's state for one position.
struct Walk<'a> {
    out: &'a mut Vec<CaptureDefence>,
    visited: &'a mut Visited,
    /// The threat before the defence; a defence must leave less.
    threat: PieceKind,
    /// The best threat level reached at a shorter length (`None` inside: every capture
    /// stopped). Only sequences reaching strictly less at the current length are yielded.
    best_before: Option<Option<PieceKind>>,
    /// The best level reached at the current length so far.
    best_now: Option<Option<PieceKind>>,
    path: [Step; MAX_STEPS],
    lost: Option<PieceKind>,
    played: u32,
    judged: u32,
    budget: u32,
    out_of_budget: bool,
}

/// Whether `level` (a threat after a defence) is below `bound` (the best level known, or
/// nothing known).
#[inline]
fn below(level: Option<PieceKind>, bound: Option<Option<PieceKind>>) -> bool {
    match bound {
        None => true,
        Some(b) => level < b,
    }
}

impl Walk<'_> {
    /// Judges the board the path of `len` steps reached: a defence when the opponent's
    /// strongest capture next turn is weaker than the threat, and weaker than every level a
    /// shorter path reached.
    fn judge(&mut self, pos: &mut Position, len: usize) {
        if matches!(pos.pending(), Pending::Push { .. }) {
            return;
        }
        if self.lost.is_some_and(|k| k >= self.threat) {
            return;
        }
        // A defence must leave the opponent no capture of the threatened kind or stronger,
        // nor of the best level a shorter sequence reached: asked first as a yes-or-no
        // question (the detector stops at the first such capture), the exact level after only
        // where the answer is no.
        let bar = match self.best_before {
            None => self.threat,
            Some(Some(level)) => level,
            Some(None) => return,
        };
        self.judged += 1;
        let turn = pos.end_turn();
        let defends = !can_capture_mut(pos, KindSet::at_least(bar));
        let after = if defends { best_capture_mut(pos) } else { None };
        pos.undo_end_turn(turn);
        if !defends {
            return;
        }
        if below(after, self.best_now) {
            self.best_now = Some(after);
        }
        let board = pos.board_key();
        if let Some(m) = self.out.iter().find(|m| m.board == board) {
            // The same board by another sequence of the same length: one move.
            debug_assert_eq!(m.threat_after, after);
            return;
        }
        self.out.push(CaptureDefence {
            steps: self.path,
            len: len as u8,
            threat_after: after,
            lost: self.lost,
            board,
        });
    }

    /// Extends the path of `len` steps on `pos` by every legal step, judging the boards
    /// reached after exactly `depth` steps.
    fn search(&mut self, pos: &mut Position, len: usize, depth: usize) {
        let mut steps = StepList::new();
        pos.legal_steps(&mut steps);
        self.played += steps.len() as u32;
        if self.played > self.budget {
            self.out_of_budget = true;
            return;
        }
        let us = pos.side();
        for &step in steps.iter() {
            let undo = pos.play_step_unchecked(step);
            self.path[len] = step;
            let lost_before = self.lost;
            if let Some((piece, _)) = undo.captured() {
                if piece.color() == us {
                    self.lost = Some(self.lost.map_or(piece.kind(), |k| k.max(piece.kind())));
                }
            }
            if len + 1 == depth {
                self.judge(pos, depth);
            } else {
                let left = depth - len - 1;
                let key = pos.hash()
                    ^ ((depth as u64) << 8 | left as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
                if !self.visited.check_and_insert(key) {
                    self.search(pos, len + 1, depth);
                }
            }
            self.lost = lost_before;
            pos.undo_step(step, undo);
            if self.out_of_budget {
                return;
            }
        }
    }
}

/// Fills `out` with the capture defences of the side to move in `pos` (see the module docs) of
/// at most `max_len` steps (and the steps left), shortest first, playing at most about `budget`
/// steps; `pos` is searched on and left exactly as it was. `visited` is the search's work table,
/// kept by the caller between calls (the capture-move generator's table serves). `pos` must not
/// be halfway through a push.
pub fn capture_defences(
    pos: &mut Position,
    out: &mut Vec<CaptureDefence>,
    visited: &mut Visited,
    max_len: u8,
    budget: u32,
) -> DefenceSearch {
    match NextTurnThreat::capture_of_mut(pos) {
        Some(threat) => capture_defences_against(pos, threat, out, visited, max_len, budget),
        None => {
            out.clear();
            DefenceSearch {
                threat: None,
                complete: true,
                played: 0,
                judged: 0,
            }
        }
    }
}

/// [`capture_defences`] for a caller that already knows the threat: `threat` must be the
/// strongest own kind the opponent could capture if the turn ended on `pos`
/// ([`NextTurnThreat::capture_of_mut`], or the evaluation's `StandPat::threatened`).
pub fn capture_defences_against(
    pos: &mut Position,
    threat: PieceKind,
    out: &mut Vec<CaptureDefence>,
    visited: &mut Visited,
    max_len: u8,
    budget: u32,
) -> DefenceSearch {
    out.clear();
    let mut walk = Walk {
        out,
        visited,
        threat,
        best_before: None,
        best_now: None,
        path: [Step::try_new(
            tusk_engine::Square::from_index(0),
            tusk_engine::Direction::North,
        )
        .expect("a1n is a step"); MAX_STEPS],
        lost: None,
        played: 0,
        judged: 0,
        budget,
        out_of_budget: false,
    };
    for depth in 1..=pos.steps_left().min(max_len) as usize {
        walk.visited.next_call();
        walk.search(pos, 0, depth);
        if walk.out_of_budget {
            break;
        }
        walk.best_before = walk.best_now;
        if walk.best_before == Some(None) {
            // Every capture stopped: nothing longer can do better.
            break;
        }
    }
    DefenceSearch {
        threat: Some(threat),
        complete: !walk.out_of_budget,
        played: walk.played,
        judged: walk.judged,
    }
}

/// Whether the side to move in `pos` can stop the opponent's capture of `threat` with a
/// single step: a legal step, not the first half of a push, that loses no own piece of
/// `threat`'s kind or stronger and after which the opponent could capture no own piece of
/// that kind or stronger if the turn ended there. `threat` is the strongest own kind the
/// opponent could capture if the turn ended on `pos` ([`NextTurnThreat::capture_of_mut`]).
/// False with no step left. Exact (every legal step is judged by the capture detector, the
/// first defence found ends the search); allocation-free; `pos` is left exactly as it was
/// and must not be halfway through a push.
pub fn stopped_in_one_step(pos: &mut Position, threat: PieceKind) -> bool {
    if pos.steps_left() == 0 {
        return false;
    }
    let us = pos.side();
    let mut steps = StepList::new();
    pos.legal_steps(&mut steps);
    for &step in steps.iter() {
        let undo = pos.play_step_unchecked(step);
        let loses = undo
            .captured()
            .is_some_and(|(piece, _)| piece.color() == us && piece.kind() >= threat);
        let stops = !loses && !matches!(pos.pending(), Pending::Push { .. }) && {
            let turn = pos.end_turn();
            let still = can_capture_mut(pos, KindSet::at_least(threat));
            pos.undo_end_turn(turn);
            !still
        };
        pos.undo_step(step, undo);
        if stops {
            return true;
        }
    }
    false
}
