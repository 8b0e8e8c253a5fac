//! # tusk-search
//!
//! The searcher shared by `tusk analyze` and the AEI mode: a [`Searcher`] owns the
//! transposition table and the worker threads, takes a [`Game`] (position and history) with
//! [`Limits`] and a [`Control`] another thread may use to stop it or move its deadlines,
//! reports progress through a callback, and returns the best complete legal turn.

#![forbid(unsafe_code)]

mod commute;
mod control;
mod leaf;
mod limits;
mod moves;
mod mv;
mod ordering;
pub mod params;
mod pv;
mod quiesce;
mod report;
mod root;
mod score;
mod search;
mod smp;
mod tt;

pub use control::Control;
pub use leaf::{quiet_leaves, Leaf};
pub use limits::Limits;
pub use params::{Feature, Params};
pub use report::{Report, SearchResult};
pub use score::{Score, ScoreKind};

use std::sync::atomic::{AtomicBool, AtomicU64};

use tusk_engine::{Game, Turn, TurnGen};

use crate::search::{History, Shared};
use crate::tt::Tt;

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

/// The searcher: owns the transposition table, the parameters and the threads. One search at
/// a time; the table is kept between searches (a game's later searches reuse it) until
/// [`Searcher::clear`].
pub struct Searcher {
    config: SearchConfig,
    params: Params,
    tt: Tt,
    turns: TurnGen,
}

impl Searcher {
    /// A searcher with `config` (values below 1 are raised to 1) and default parameters.
    pub fn new(config: SearchConfig) -> Searcher {
        let config = SearchConfig {
            threads: config.threads.max(1),
            hash_mb: config.hash_mb.max(1),
        };
        Searcher {
            config,
            params: Params::default(),
            tt: Tt::new(config.hash_mb),
            turns: TurnGen::new(),
        }
    }

    /// The current configuration.
    pub fn config(&self) -> SearchConfig {
        self.config
    }

    /// The search parameters.
    pub fn params(&self) -> &Params {
        &self.params
    }

    /// Replaces the search parameters (for measurements: features on and off).
    pub fn set_params(&mut self, params: Params) {
        self.params = params;
    }

    /// Changes the number of worker threads (from the next search on).
    pub fn set_threads(&mut self, threads: usize) {
        self.config.threads = threads.max(1);
    }

    /// Resizes the transposition table (clearing it).
    pub fn set_hash_mb(&mut self, hash_mb: usize) {
        let hash_mb = hash_mb.max(1);
        if hash_mb != self.config.hash_mb {
            self.config.hash_mb = hash_mb;
            self.tt = Tt::new(hash_mb);
        } else {
            self.tt.clear();
        }
    }

    /// Forgets everything learned (a new game): empties the transposition table.
    pub fn clear(&mut self) {
        self.tt.clear();
    }

    /// Searches the side to move's turn in `game` within `limits`, until `control` says stop,
    /// calling `report` as the search deepens (on the calling thread). Returns `None` only
    /// when there is no turn to play: the game is over, it is in the setup phase, or no legal
    /// turn exists. Otherwise the result's turn is always one of the position's distinct legal
    /// turns that does not make a third repetition, from the moment the search starts (a stop
    /// before the first iteration ends returns the first such turn).
    ///
    /// With one thread, a search limited by depth (or nodes) from a cleared searcher is
    /// deterministic: the same nodes, turn and score on every run.
    pub fn search(
        &mut self,
        game: &Game,
        limits: &Limits,
        control: &Control,
        report: &mut dyn FnMut(&Report),
    ) -> Option<SearchResult> {
        if game.in_setup() || game.result().is_some() {
            return None;
        }
        let root = game.position().clone();
        let mut turns: Vec<Turn> = Vec::new();
        self.turns
            .for_each_turn_excluding(&root, &|k| game.would_repeat_third_time(k), &mut |t| {
                turns.push(t.turn())
            });
        if turns.is_empty() {
            return None;
        }
        root::shortest_turns(&root, &mut turns);
        self.tt.new_search();
        let history = History::new(game);
        let shared = Shared {
            tt: &self.tt,
            params: &self.params,
            control,
            history: &history,
            abort: AtomicBool::new(false),
            nodes: AtomicU64::new(0),
            node_limit: limits.nodes,
        };
        Some(smp::run(
            &shared,
            &root,
            &turns,
            limits,
            self.config.threads,
            report,
        ))
    }
}
