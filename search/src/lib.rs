//! # tusk-search
//!
//! The searcher shared by `tusk analyze` and the AEI mode: a [`Searcher`] owns the
//! transposition table and the worker threads, takes a [`Game`] (position and history) with
//! [`Limits`] and a [`Control`] another thread may use to stop it or move its deadlines,
//! reports progress through a callback, and returns the best complete legal turn.

#![forbid(unsafe_code)]

mod control;
mod limits;
mod report;
mod score;

pub use control::Control;
pub use limits::Limits;
pub use report::{Report, SearchResult};
pub use score::{Score, ScoreKind};

use std::time::Instant;

use tusk_engine::notation::turn::write_turn;
use tusk_engine::{Game, TurnGen};

/// How a [`Searcher`] is built: threads and transposition-table size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchConfig {
    /// Worker threads (at least 1).
    pub threads: usize,
    /// Transposition-table size in MiB (at least 1).
    pub hash_mb: usize,
}

impl Default for SearchConfig {
    fn default() -> Self {
        SearchConfig {
            threads: 1,
            hash_mb: 64,
        }
    }
}

/// The searcher: owns the transposition table and the threads. One search at a time.
pub struct Searcher {
    config: SearchConfig,
    turns: TurnGen,
}

impl Searcher {
    /// A searcher with `config` (values below 1 are raised to 1).
    pub fn new(config: SearchConfig) -> Searcher {
        let config = SearchConfig {
            threads: config.threads.max(1),
            hash_mb: config.hash_mb.max(1),
        };
        Searcher {
            config,
            turns: TurnGen::new(),
        }
    }

    /// The current configuration.
    pub fn config(&self) -> SearchConfig {
        self.config
    }

    /// Changes the number of worker threads (from the next search on).
    pub fn set_threads(&mut self, threads: usize) {
        self.config.threads = threads.max(1);
    }

    /// Resizes the transposition table (clearing it).
    pub fn set_hash_mb(&mut self, hash_mb: usize) {
        self.config.hash_mb = hash_mb.max(1);
    }

    /// Forgets everything learned (a new game).
    pub fn clear(&mut self) {}

    /// Searches the side to move's turn in `game` within `limits`, until `control` says stop,
    /// calling `report` as the search deepens. Returns `None` only when there is no turn to
    /// play: the game is over, it is in the setup phase, or no legal turn exists.
    ///
    /// PLACEHOLDER (being replaced by the real alpha-beta search): returns the first legal
    /// turn, unsearched.
    pub fn search(
        &mut self,
        game: &Game,
        limits: &Limits,
        control: &Control,
        report: &mut dyn FnMut(&Report),
    ) -> Option<SearchResult> {
        let _ = (limits, control);
        let started = Instant::now();
        let turns = game.legal_turns(&mut self.turns);
        let (turn, _) = turns.first()?;
        let text = write_turn(game.position(), turn);
        let result = SearchResult {
            best: *turn,
            best_text: text.clone(),
            score: Score::centirabbits(0),
            depth: 0,
            pv: vec![text],
            nodes: 0,
            elapsed: started.elapsed(),
        };
        report(&Report::from_result(&result, false));
        Some(result)
    }
}
