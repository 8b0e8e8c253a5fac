//! # tusk-search
//!
//! The searcher shared by `tusk analyze` and the AEI mode: a [`Searcher`] owns the
//! transposition table and the worker threads, takes a [`Game`] (position and history) with
//! [`Limits`] and a [`Control`] another thread may use to stop it or move its deadlines,
//! reports progress through a callback, and returns the best complete legal turn.

#![forbid(unsafe_code)]

pub mod bench;
mod caches;
mod commute;
mod control;
mod goal_defence;
mod leaf;
mod limits;
mod memory;
mod moves;
mod node_move;
mod ordering;
pub mod params;
pub mod predictor;
mod pv;
mod quiesce;
mod report;
mod root;
mod score;
mod search;
mod smp;
#[cfg(test)]
mod test_util;
mod tree_captures;
mod tree_defences;
mod tree_tactics;
mod tt;
mod waste;

pub use control::Control;
pub use leaf::{quiet_leaves, Leaf};
pub use limits::Limits;
pub use params::{Feature, Params, Tunable, TunableError};
pub use report::{Report, SearchResult};
pub use score::{Score, ScoreKind};
pub use tt::TtAllocError;

use tusk_engine::{Game, TurnGen};

use crate::caches::PositionCaches;
use crate::search::{RepetitionHistory, SearchShared};
use crate::tt::Tt;

/// How a [`Searcher`] is built: threads and transposition-table size. The limits and defaults
/// every front end uses are the associated constants.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchConfig {
    /// Worker threads asked for, 1 to [`SearchConfig::MAX_THREADS`]; the search runs at most
    /// [`SearchConfig::machine_threads`] of them.
    pub threads: usize,
    /// Transposition-table size in MiB, 1 to [`SearchConfig::MAX_HASH_MB`].
    pub hash_mb: usize,
}

impl SearchConfig {
    /// Worker threads by default.
    pub const DEFAULT_THREADS: usize = 1;
    /// The most worker threads that may be asked for (more than the machine runs are capped).
    pub const MAX_THREADS: usize = 1024;
    /// Transposition-table size by default, MiB.
    pub const DEFAULT_HASH_MB: usize = 64;
    /// The largest transposition table that may be asked for, MiB.
    pub const MAX_HASH_MB: usize = Tt::MAX_MB;

    /// How many threads this machine runs at once (its hardware threads, as the system tells;
    /// 1 when it does not): the most search threads that help rather than take turns.
    pub fn machine_threads() -> usize {
        std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
    }
}

impl Default for SearchConfig {
    fn default() -> Self {
        SearchConfig {
            threads: SearchConfig::DEFAULT_THREADS,
            hash_mb: SearchConfig::DEFAULT_HASH_MB,
        }
    }
}

/// Why a [`Searcher`] could not be built or reconfigured.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SearchError {
    /// A thread count outside 1 to [`SearchConfig::MAX_THREADS`].
    #[error(
        "threads {0} is out of range: it must be from 1 to {max}",
        max = SearchConfig::MAX_THREADS
    )]
    Threads(usize),
    /// The transposition table could not be made.
    #[error(transparent)]
    Hash(#[from] TtAllocError),
}

/// The searcher: owns the transposition table, the parameters and the threads. One search at
/// a time; the table is kept between searches (a game's later searches reuse it) until
/// [`Searcher::clear`].
pub struct Searcher {
    config: SearchConfig,
    threads: usize,
    params: Params,
    tt: Tt,
    turns: TurnGen,
    /// Each thread's tables of evaluations, goal answers and threat regions, kept from one
    /// search to the next (`caches.rs`): valid for `params`' weights and capture rule.
    caches: Vec<PositionCaches>,
}

impl Searcher {
    /// A searcher with `config` and default parameters. Fails, allocating nothing, when the
    /// thread count or the table size is out of range, or the table is more than the memory
    /// available or refused by the system ([`TtAllocError`]). More threads than the machine
    /// runs are capped: see [`Searcher::threads`].
    pub fn new(config: SearchConfig) -> Result<Searcher, SearchError> {
        let threads = runnable_threads(config.threads)?;
        Ok(Searcher {
            config,
            threads,
            params: Params::default(),
            tt: Tt::try_new(config.hash_mb)?,
            turns: TurnGen::new(),
            caches: Vec::new(),
        })
    }

    /// The configuration asked for.
    pub fn config(&self) -> SearchConfig {
        self.config
    }

    /// The threads a search starts: those asked for, capped at
    /// [`SearchConfig::machine_threads`].
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// The search parameters.
    pub fn params(&self) -> &Params {
        &self.params
    }

    /// Replaces the search parameters (for measurements: features on and off).
    pub fn set_params(&mut self, params: Params) {
        // The tables hold evaluations under the old weights and capture rule: emptied when
        // either changes (the AEI mode sets the same parameters before every search).
        if params.weights != self.params.weights
            || params.capture_rule() != self.params.capture_rule()
        {
            for c in &mut self.caches {
                c.clear();
            }
        }
        self.params = params;
    }

    /// Changes the number of worker threads (from the next search on); returns how many a
    /// search will start (see [`Searcher::threads`]). Out of range, nothing changes.
    pub fn set_threads(&mut self, threads: usize) -> Result<usize, SearchError> {
        self.threads = runnable_threads(threads)?;
        self.config.threads = threads;
        Ok(self.threads)
    }

    /// Resizes the transposition table, empty; the same size only empties it. When the new
    /// table cannot be made, the old one is kept as it was and the error says why.
    pub fn set_hash_mb(&mut self, hash_mb: usize) -> Result<(), SearchError> {
        if hash_mb == self.config.hash_mb {
            self.tt.clear();
        } else {
            self.tt = Tt::try_new(hash_mb)?;
            self.config.hash_mb = hash_mb;
        }
        Ok(())
    }

    /// Forgets everything learned (a new game): empties the transposition table, in constant
    /// time whatever its size. The threads' tables of evaluations and goal answers stay: they
    /// hold exact values of positions, which change no search (see `caches.rs`).
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
        let turns = root::root_turns(game, &mut self.turns);
        if turns.is_empty() {
            return None;
        }
        self.tt.new_search();
        let repetitions = RepetitionHistory::new(game);
        let shared = SearchShared::new(&self.tt, &self.params, control, &repetitions, limits.nodes);
        Some(smp::run(
            &shared,
            &root,
            &turns,
            limits,
            self.threads,
            &mut self.caches,
            report,
        ))
    }
}

/// The threads a search of `asked` threads starts, or why `asked` is refused.
fn runnable_threads(asked: usize) -> Result<usize, SearchError> {
    if !(1..=SearchConfig::MAX_THREADS).contains(&asked) {
        return Err(SearchError::Threads(asked));
    }
    Ok(asked.min(SearchConfig::machine_threads()))
}
