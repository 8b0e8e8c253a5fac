//! What a search tells while it runs ([`Report`]) and what it returns ([`SearchResult`]).

use std::time::Duration;

use tusk_engine::Turn;

use crate::Score;

/// The outcome of a search: the best complete legal turn and what backs it. Turns are typed;
/// write them with [`tusk_engine::notation::turn::write_line`] from the searched position (or
/// [`tusk_engine::Game::line_text`], which writes a mid-turn start's first turn whole).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// The turn to play: a legal turn of the searched position (from a mid-turn position, the
    /// steps that complete its turn).
    pub best: Turn,
    /// Its score from the side to move's view.
    pub score: Score,
    /// The last completed depth, in steps.
    pub depth: u32,
    /// The principal variation, one entry per turn, the best turn first; the last may be cut
    /// short by the horizon.
    pub pv: Vec<Turn>,
    /// Nodes searched, all threads together.
    pub nodes: u64,
    /// Time taken.
    pub elapsed: Duration,
    /// The threads that searched: those asked for, or fewer when a helper thread could not
    /// be started.
    pub threads: usize,
}

/// A progress report: one per completed depth, and one whenever the best turn changes inside
/// an iteration (`partial`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    /// Depth in steps.
    pub depth: u32,
    /// Whether the iteration at `depth` is not complete (shown as `9+`).
    pub partial: bool,
    /// The deepest ply reached, quiescence included.
    pub seldepth: u32,
    /// Score from the side to move's view.
    pub score: Score,
    /// Nodes so far, all threads.
    pub nodes: u64,
    /// Time since the search began.
    pub elapsed: Duration,
    /// Transposition-table fill in per mille.
    pub hashfull: u32,
    /// The principal variation from the searched position, one entry per turn (see
    /// [`SearchResult::pv`]).
    pub pv: Vec<Turn>,
    /// For multi-PV searches, the rank of this line (1 = best); 1 otherwise.
    pub multipv: usize,
    /// How many distinct legal turns the root has (1: the turn is forced).
    pub root_turns: usize,
    /// True on exactly one report per completed iteration: the best line (rank 1) at the
    /// iteration's depth. A driver decides there whether to start another iteration (see
    /// `Control::stop`: a stop asked for now ends the search with this iteration's result).
    pub completes_iteration: bool,
}

impl Report {
    /// Nodes per second.
    pub fn nps(&self) -> u64 {
        let s = self.elapsed.as_secs_f64();
        if s > 0.0 {
            (self.nodes as f64 / s) as u64
        } else {
            0
        }
    }
}
