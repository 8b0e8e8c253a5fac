//! `tusk perft`: step sequences, distinct positions and distinct turns, with time and speed.

use std::io::Write;
use std::time::Instant;

use anyhow::{Context, Result};
use clap::Args;
use tusk_engine::notation::board::to_aei_with_side;
use tusk_engine::notation::turn::write_turn;
use tusk_engine::perft::{step_divide, step_layers, step_perft_parallel, turn_divide};
use tusk_engine::TurnGen;

use super::position::PositionArgs;

/// Arguments of `tusk perft`.
#[derive(Args, Debug)]
pub struct PerftArgs {
    #[command(flatten)]
    pos: PositionArgs,
    /// Depth in whole turns (1 = the side to move's turns; 2 = and every reply; ...).
    #[arg(long, default_value_t = 1)]
    depth: u32,
    /// Print the count below each first step (depth 1) or each first turn (depth 2+).
    #[arg(long)]
    divide: bool,
    /// Worker threads (default: all cores). Use 1 to measure one core.
    #[arg(long)]
    threads: Option<usize>,
}

fn rate(n: u64, secs: f64) -> String {
    if secs <= 0.0 {
        return "-".into();
    }
    let r = n as f64 / secs;
    if r >= 1e6 {
        format!("{:.1}M/s", r / 1e6)
    } else if r >= 1e3 {
        format!("{:.1}k/s", r / 1e3)
    } else {
        format!("{r:.0}/s")
    }
}

/// Runs `tusk perft`.
pub fn run(args: &PerftArgs) -> Result<()> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads.unwrap_or(0))
        .build()
        .context("cannot start the worker threads")?;
    pool.install(|| run_inner(args))
}

fn run_inner(args: &PerftArgs) -> Result<()> {
    let game = args.pos.load()?;
    let pos = game.position();
    let mut out = std::io::stdout().lock();
    writeln!(out, "position {}", to_aei_with_side(pos))?;
    if game.in_setup() {
        anyhow::bail!("the position is in the setup phase; perft needs a position with pieces");
    }
    let max_steps = pos.steps_left();
    writeln!(
        out,
        "{:>5} {:>14} {:>12} {:>14} {:>9} {:>10}",
        "steps", "sequences", "positions", "steps made", "time", "speed"
    )?;
    // Distinct states for every depth, computed once, layer by layer.
    let layers = step_layers(pos, max_steps);
    for d in 1..=max_steps {
        let t = Instant::now();
        let (seqs, made) = step_perft_parallel(pos, d);
        let secs = t.elapsed().as_secs_f64();
        let distinct = layers.get(usize::from(d) - 1).map_or(0, |l| l.positions);
        writeln!(
            out,
            "{:>5} {:>14} {:>12} {:>14} {:>8.3}s {:>10}",
            d,
            seqs,
            distinct,
            made,
            secs,
            rate(made, secs)
        )?;
    }
    let t = Instant::now();
    let mut gen = TurnGen::new();
    let turns = gen.count(pos) as u64;
    let secs = t.elapsed().as_secs_f64();
    writeln!(
        out,
        "{:>5} {:>14} {:>12} {:>14} {:>8.3}s {:>10}",
        "turns", "count", "", "steps made", "", "speed"
    )?;
    writeln!(
        out,
        "{:>5} {:>14} {:>12} {:>14} {:>8.3}s {:>10}",
        1,
        turns,
        "",
        gen.steps_made(),
        secs,
        rate(turns, secs)
    )?;
    for depth in 2..=args.depth {
        let t = Instant::now();
        let parts = turn_divide(pos, depth);
        let total: u64 = parts.iter().map(|(_, n)| n).sum();
        let secs = t.elapsed().as_secs_f64();
        writeln!(
            out,
            "{:>5} {:>14} {:>12} {:>14} {:>8.3}s {:>10}",
            depth,
            total,
            "",
            "",
            secs,
            rate(total, secs)
        )?;
        if args.divide && depth == args.depth {
            for (turn, n) in &parts {
                writeln!(out, "{}: {n}", write_turn(pos, turn))?;
            }
        }
    }
    if args.divide && args.depth <= 1 {
        let d = max_steps;
        writeln!(out, "divide at {d} steps:")?;
        let mut parts = step_divide(pos, d);
        parts.sort_by_key(|(s, _, _)| (s.from(), s.dir() as u8));
        for (s, n, _) in parts {
            let letter = pos.piece_at(s.from()).map_or('?', |p| p.letter());
            writeln!(out, "{letter}{s}: {n}")?;
        }
    }
    Ok(())
}
