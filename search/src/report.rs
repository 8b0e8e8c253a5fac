//! What a search tells while it runs ([`Report`]) and what it returns ([`SearchResult`]).

use std::time::Duration;

use tusk_engine::Turn;

use crate::Score;

/// The outcome of a search: the best complete legal turn and what backs it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// The turn to play (a whole legal turn of the root position).
    pub best: Turn,
    /// The turn in official notation, captures included, as AEI's `bestmove` sends it.
    pub best_text: String,
    /// Its score from the side to move's view.
    pub score: Score,
    /// The last completed depth, in steps.
    pub depth: u32,
    /// The principal variation, one entry per turn in official notation, the best turn first.
    pub pv: Vec<String>,
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
    /// The principal variation, one entry per turn in official notation.
    pub pv: Vec<String>,
    /// For multi-PV searches, the rank of this line (1 = best); 1 otherwise.
    pub multipv: usize,
}

impl Report {
    /// A report describing a finished result.
    pub fn from_result(r: &SearchResult, partial: bool) -> Report {
        Report {
            depth: r.depth,
            partial,
            seldepth: r.depth,
            score: r.score,
            nodes: r.nodes,
            elapsed: r.elapsed,
            hashfull: 0,
            pv: r.pv.clone(),
            multipv: 1,
        }
    }

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
