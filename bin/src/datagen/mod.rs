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

pub mod game;
pub mod record;

use std::collections::{BTreeMap, HashSet};
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{mpsc, Arc};
use std::time::Instant;

use anyhow::{anyhow, bail, Context, Result};
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use tusk_engine::TurnGen;
use tusk_search::{Limits, Params, SearchConfig, Searcher};

use crate::cli::weights::WeightsArgs;
use crate::matches::schedule::Shard;
use game::{GameConfig, Outcome};
use record::GameLine;

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

/// What the writer hears from the game threads.
enum Event {
    /// A game ended (or was dropped).
    Done(Outcome),
    /// A game thread failed.
    Failed(anyhow::Error),
}

/// Tallies for the summary.
#[derive(Default)]
struct Tally {
    finished: u64,
    dropped: u64,
    positions: u64,
    reasons: BTreeMap<String, u64>,
    gold_wins: u64,
}

/// Runs `tusk datagen`.
pub fn run(a: &DatagenArgs) -> Result<()> {
    if a.threads == 0 || a.threads > 1024 {
        bail!("--threads {}: must be between 1 and 1024", a.threads);
    }
    if a.hash == 0 || a.hash > 1 << 20 {
        bail!("--hash {}: must be between 1 and 1048576 MiB", a.hash);
    }
    if a.depth == Some(0) || a.nodes == Some(0) {
        bail!("--depth and --nodes must be at least 1");
    }
    if a.max_turns == 0 {
        bail!("--max-turns must be at least 1");
    }
    let weights = a.weights.load()?;
    let (limits, effort) = match (a.depth, a.nodes) {
        (Some(d), _) => (
            Limits {
                depth: Some(d),
                nodes: None,
                multipv: 1,
            },
            format!("depth={d}"),
        ),
        (None, n) => {
            let n = n.unwrap_or(DEFAULT_NODES);
            (
                Limits {
                    depth: None,
                    nodes: Some(n),
                    multipv: 1,
                },
                format!("nodes={n}"),
            )
        }
    };
    let key = record::settings_key(&effort, a.random_turns, a.max_turns, a.hash, &weights);
    let cfg = GameConfig {
        seed: a.seed,
        limits,
        random_turns: a.random_turns,
        max_turns: a.max_turns,
        key: key.clone(),
    };

    let mut todo: Vec<u64> = (0..a.games).filter(|&i| shard_has(a.shard, i)).collect();
    let planned = todo.len();
    let mut already = 0usize;
    if a.out.exists() {
        let (games, torn) = record::load::<GameLine>(&a.out).map_err(|e| anyhow!(e))?;
        for g in &games {
            if g.key != key || g.seed != a.seed {
                bail!(
                    "{}: game {} was played with other settings (seed {}, {}); this run is \
                     seed {}, {key}: use another --out file",
                    a.out.display(),
                    g.id,
                    g.seed,
                    g.key,
                    a.seed
                );
            }
        }
        if let Some(len) = torn {
            eprintln!(
                "{}: the last line was cut short (interrupted while writing); it is dropped \
                 and that game is played again",
                a.out.display()
            );
            let f = std::fs::OpenOptions::new()
                .write(true)
                .open(&a.out)
                .with_context(|| format!("opening {}", a.out.display()))?;
            f.set_len(len)?;
        }
        let done: HashSet<u64> = games.iter().map(|g| g.id).collect();
        todo.retain(|i| !done.contains(i));
        already = planned - todo.len();
        if !games.is_empty() {
            eprintln!(
                "resuming {}: {} games there, {} to play",
                a.out.display(),
                games.len(),
                todo.len()
            );
        }
    } else if let Some(dir) = a.out.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    }
    let mut out = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&a.out)
        .with_context(|| format!("opening {}", a.out.display()))?;

    let stop = Arc::new(AtomicBool::new(false));
    {
        let stop = Arc::clone(&stop);
        ctrlc::set_handler(move || {
            if stop.swap(true, Ordering::SeqCst) {
                std::process::exit(130);
            }
        })
        .context("installing the Ctrl-C handler")?;
    }

    let pb = ProgressBar::new(planned as u64);
    pb.set_style(
        ProgressStyle::with_template("{bar:30} {pos}/{len} games {msg} [{elapsed_precise}]")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    pb.set_position(already as u64);

    let params = Params {
        weights,
        ..Params::default()
    };
    let next = AtomicUsize::new(0);
    let positions = AtomicU64::new(0);
    let started = Instant::now();
    let mut tally = Tally::default();
    let mut failure = None;
    let (tx, rx) = mpsc::channel::<Event>();
    std::thread::scope(|scope| {
        for _ in 0..a.threads.min(todo.len().max(1)) {
            let tx = tx.clone();
            let (cfg, params, todo, next, stop, positions) =
                (&cfg, &params, &todo, &next, &stop, &positions);
            scope.spawn(move || {
                let mut searcher = match Searcher::new(SearchConfig {
                    threads: 1,
                    hash_mb: a.hash,
                }) {
                    Ok(s) => s,
                    Err(e) => {
                        let _ = tx.send(Event::Failed(anyhow::Error::new(e)));
                        return;
                    }
                };
                searcher.set_params(params.clone());
                let mut gen = TurnGen::new();
                loop {
                    let i = next.fetch_add(1, Ordering::SeqCst);
                    let Some(&index) = todo.get(i) else { break };
                    if stop.load(Ordering::SeqCst) {
                        break;
                    }
                    let mut count = || {
                        positions.fetch_add(1, Ordering::Relaxed);
                    };
                    let event =
                        match game::play(cfg, index, &mut searcher, &mut gen, stop, &mut count) {
                            Ok(o) => Event::Done(o),
                            Err(e) => Event::Failed(e),
                        };
                    let failed = matches!(event, Event::Failed(_));
                    if tx.send(event).is_err() || failed {
                        break;
                    }
                }
            });
        }
        drop(tx);
        for event in rx {
            match event {
                Event::Done(Outcome::Finished(line)) => {
                    if let Err(e) = record::append(&mut out, &*line) {
                        failure = Some(anyhow!(e).context(format!("writing {}", a.out.display())));
                        stop.store(true, Ordering::SeqCst);
                        continue;
                    }
                    tally.finished += 1;
                    tally.positions += line.scores.len() as u64;
                    *tally.reasons.entry(line.reason.clone()).or_default() += 1;
                    tally.gold_wins += u64::from(line.winner == "g");
                    pb.inc(1);
                }
                Event::Done(Outcome::Dropped { .. }) => {
                    tally.dropped += 1;
                    pb.inc(1);
                }
                Event::Done(Outcome::Interrupted) => {}
                Event::Failed(e) => {
                    failure.get_or_insert(e);
                    stop.store(true, Ordering::SeqCst);
                }
            }
            let secs = started.elapsed().as_secs_f64().max(1e-9);
            let played = tally.finished + tally.dropped;
            pb.set_message(format!(
                "{} positions, {:.2} games/s",
                positions.load(Ordering::Relaxed),
                played as f64 / secs
            ));
        }
    });
    pb.finish_and_clear();
    if let Some(e) = failure {
        return Err(e);
    }
    let secs = started.elapsed().as_secs_f64();
    let played = tally.finished + tally.dropped;
    writeln!(
        std::io::stdout().lock(),
        "datagen: {} games written ({}; gold won {}), {} dropped at --max-turns {}, {} \
         positions searched, {:.1} s, {:.3} games/s, {:.1} positions/s ({} threads, {effort})",
        tally.finished,
        tally
            .reasons
            .iter()
            .map(|(k, v)| format!("{k} {v}"))
            .collect::<Vec<_>>()
            .join(", "),
        tally.gold_wins,
        tally.dropped,
        a.max_turns,
        positions.load(Ordering::Relaxed),
        secs,
        played as f64 / secs.max(1e-9),
        positions.load(Ordering::Relaxed) as f64 / secs.max(1e-9),
        a.threads
    )?;
    if stop.load(Ordering::SeqCst) {
        eprintln!(
            "interrupted: {} games of this run are saved in {}; run the same command again to \
             resume",
            tally.finished,
            a.out.display()
        );
        std::process::exit(130);
    }
    Ok(())
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
