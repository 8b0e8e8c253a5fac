//! `tusk datagen`: Tusk plays itself at a fixed effort per move from varied openings and writes
//! one JSON line per game (moves, winner, reason, the search's score and depth per turn), the
//! training data of `tusk tune`.
//!
//! Game `i` of a run depends only on the settings, the seed and `i` ([`game`]): one
//! single-threaded searcher per worker thread, cleared before each game. So a run can be cut
//! into shards (`--shard K/N` deals the game indices round-robin, like `tusk match`) and
//! resumed: the games already in `--out` (by index) are kept, a last line cut short is cut
//! off, and only the missing indices are played, giving the same lines as an uninterrupted
//! run (in another order).
//!
//! By job: [`plan`] checks the arguments into the games' settings and the indices to play;
//! [`output`] resumes and opens `--out`; [`pool`] plays the games on the worker threads;
//! [`writer`] appends the finished games and keeps the progress bar's line; [`report`] makes
//! the progress bar and prints the summary. [`game`] plays one game; [`record`] is the file
//! format.

pub mod game;
pub mod output;
pub mod plan;
pub mod pool;
pub mod record;
pub mod report;
pub mod writer;

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

use anyhow::{Context, Result};
use clap::Args;

use crate::cli::weights::WeightsArgs;
use crate::matches::schedule::Shard;
use pool::Games;
use writer::Writer;

/// Arguments of `tusk datagen`.
#[derive(Args, Debug)]
pub struct DatagenArgs {
    /// Games in the whole run (indices 0..N; a shard plays its share).
    #[arg(long, value_name = "N")]
    games: u64,
    /// Nodes searched per move (the default effort when --depth is not given: 5000).
    #[arg(long, value_name = "N", conflicts_with = "depth")]
    nodes: Option<u64>,
    /// Search depth per move in steps, instead of a node count.
    #[arg(long, value_name = "STEPS")]
    depth: Option<u32>,
    /// Games played at once, one per thread (each a single-threaded search).
    #[arg(long, default_value_t = 1, value_name = "T")]
    threads: usize,
    /// The run's seed: with the game index, it decides each game.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The JSON-lines file to write (appended to and resumed when it exists).
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
    /// Each opening plays 0 to K uniformly random legal turns after random setups.
    #[arg(long, default_value_t = 8, value_name = "K")]
    random_turns: u32,
    /// Drop a game still going after this many turns (setups not counted).
    #[arg(long, default_value_t = 400, value_name = "N")]
    max_turns: u32,
    /// Play only shard K of N (game indices i with i % N == K - 1).
    #[arg(long, value_name = "K/N")]
    shard: Option<Shard>,
    /// Transposition table per game thread, MiB.
    #[arg(long, default_value_t = 16, value_name = "MB")]
    hash: usize,
    #[command(flatten)]
    weights: WeightsArgs,
}

/// Default nodes per move.
pub const DEFAULT_NODES: u64 = 5000;

/// Whether shard `s` plays game `index` (indices dealt round-robin).
pub fn shard_has(s: Option<Shard>, index: u64) -> bool {
    s.is_none_or(|s| index % s.count == s.index - 1)
}

/// Runs `tusk datagen`: plans the run, resumes the output file, plays the missing games on
/// the game threads while the writer appends them, and prints the summary.
pub fn run(a: &DatagenArgs) -> Result<()> {
    let mut plan = plan::plan(a)?;
    let (out, already) = output::open(&a.out, a.seed, &plan.cfg.key, &mut plan.todo)?;
    let stop = install_ctrlc()?;
    let progress = crate::matches::report::progress_bar(plan.planned, already);
    let games = Games::new(&plan, a.hash, &stop);
    let started = Instant::now();
    let mut writer = Writer::new(out, &a.out, progress, &games, started);
    pool::play(&games, a.threads, |event| writer.handle(event));
    let tally = writer.finish()?;
    let secs = started.elapsed().as_secs_f64();
    report::summary(a, &tally, &plan.effort, games.positions(), secs)?;
    if stop.load(Ordering::SeqCst) {
        report::interrupted(tally.finished, &a.out);
        std::process::exit(130);
    }
    Ok(())
}

/// Installs the Ctrl-C handler: the first Ctrl-C stops the run between turns (the games
/// written so far are kept), a second one leaves at once. Returns the flag it sets.
fn install_ctrlc() -> Result<Arc<AtomicBool>> {
    let stop = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&stop);
    ctrlc::set_handler(move || {
        if flag.swap(true, Ordering::SeqCst) {
            std::process::exit(130);
        }
    })
    .context("installing the Ctrl-C handler")?;
    Ok(stop)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_deal_indices_round_robin_and_partition_the_run() {
        let s = |t: &str| Some(t.parse::<Shard>().unwrap());
        let mine = |sh| (0..10).filter(|&i| shard_has(sh, i)).collect::<Vec<u64>>();
        assert_eq!(mine(s("1/3")), vec![0, 3, 6, 9]);
        assert_eq!(mine(s("3/3")), vec![2, 5, 8]);
        assert_eq!(mine(None).len(), 10);
        let mut all: Vec<u64> = ["1/3", "2/3", "3/3"]
            .iter()
            .flat_map(|t| mine(s(t)))
            .collect();
        all.sort();
        assert_eq!(all, (0..10).collect::<Vec<_>>());
    }
}
