//! `tusk bench`: searches a fixed set of positions to a fixed depth on one thread and prints
//! the nodes of each and their total, a signature that changes only when the search changes,
//! and the speed. (The rules and evaluator micro-benchmarks are criterion benches:
//! `cargo bench -p tusk-benches`.)

use std::io::Write;
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use clap::Args;
use tusk_engine::notation::board::parse_aei;
use tusk_engine::Game;
use tusk_search::bench::{DEFAULT_DEPTH, POSITIONS};
use tusk_search::{Control, Limits, Params, SearchConfig, Searcher};

use super::features::FeatureArgs;
use super::weights::WeightsArgs;

/// Arguments of `tusk bench`.
#[derive(Args, Debug)]
pub struct BenchArgs {
    /// Search only the first N positions of the set (all by default).
    #[arg(long, value_name = "N")]
    positions: Option<usize>,
    /// Search depth in steps.
    #[arg(long, default_value_t = DEFAULT_DEPTH, value_name = "STEPS")]
    depth: u32,
    #[command(flatten)]
    features: FeatureArgs,
    /// Search threads (the node signature is deterministic only with one).
    #[arg(long, default_value_t = 1, value_name = "T")]
    threads: usize,
    /// Transposition table size in MiB (cleared before each position).
    #[arg(long, default_value_t = 16, value_name = "MB")]
    hash: usize,
    #[command(flatten)]
    weights: WeightsArgs,
}

/// Runs `tusk bench`.
pub fn run(args: &BenchArgs) -> Result<()> {
    let mut params = Params {
        weights: args.weights.load()?,
        ..Params::default()
    };
    args.features.apply(&mut params)?;
    if args.depth == 0 || args.depth > Limits::MAX_DEPTH {
        bail!(
            "--depth {}: must be between 1 and {} steps",
            args.depth,
            Limits::MAX_DEPTH
        );
    }
    if args.threads == 0 || args.threads > SearchConfig::MAX_THREADS {
        bail!(
            "--threads {}: must be a whole number from 1 to {}",
            args.threads,
            SearchConfig::MAX_THREADS
        );
    }
    let n = args
        .positions
        .unwrap_or(POSITIONS.len())
        .min(POSITIONS.len());
    let mut searcher = Searcher::new(SearchConfig {
        threads: args.threads,
        hash_mb: args.hash,
    })
    .context("cannot make the searcher")?;
    searcher.set_params(params);
    let limits = Limits {
        depth: Some(args.depth),
        nodes: None,
        multipv: 1,
    };
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "{:>3} {:>12} {:>9} {:>8}  {:<22} bestmove",
        "#", "nodes", "ms", "score", "position"
    )?;
    let (mut total_nodes, mut total_time) = (0u64, Duration::ZERO);
    for (i, (name, text)) in POSITIONS.iter().take(n).enumerate() {
        let pos = parse_aei(text).with_context(|| format!("bench position {name}"))?;
        let game = Game::from_position(pos, 2);
        if game.result().is_some() {
            bail!("bench position {name} is a finished game");
        }
        searcher.clear();
        let control = Control::new();
        let t = Instant::now();
        let result = searcher
            .search(&game, &limits, &control, &mut |_| {})
            .with_context(|| format!("bench position {name}: no turn"))?;
        let el = t.elapsed();
        total_nodes += result.nodes;
        total_time += el;
        writeln!(
            out,
            "{:>3} {:>12} {:>9.1} {:>8}  {:<22} {}",
            i + 1,
            result.nodes,
            el.as_secs_f64() * 1e3,
            result.score.to_string(),
            name,
            game.turn_text(&result.best)
        )?;
    }
    writeln!(
        out,
        "bench: {n} positions, depth {}, {} nodes, {:.3} s, {:.0} nodes/s{}",
        args.depth,
        total_nodes,
        total_time.as_secs_f64(),
        total_nodes as f64 / total_time.as_secs_f64().max(1e-9),
        args.features.summary()
    )?;
    Ok(())
}
