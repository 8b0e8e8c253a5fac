//! `tusk perft`: step sequences, distinct positions and distinct turns, with time and speed.

use std::io::Write;
use std::time::Instant;

use anyhow::{Context, Result};
use clap::Args;
use tusk_engine::notation::board::to_aei_with_side;
use tusk_engine::notation::turn::write_turn;
use tusk_engine::perft::{step_divide, step_layers, step_perft_parallel, turn_divide_in_history};
use tusk_engine::TurnGen;

use super::position::{ensure_not_over, PositionArgs};

/// Arguments of `tusk perft`.
#[derive(Args, Debug)]
pub struct PerftArgs {
    #[command(flatten)]
    pos: PositionArgs,
    /// Depth in whole turns (1 = the side to move's turns; 2 = and every reply; ...), 1 to 5.
    /// Depth 3 from the opening counts tens of billions of turns; more only ends on nearly
    /// empty boards.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=MAX_DEPTH))]
    depth: u32,
    /// Print the count below each first step (depth 1) or each first turn (depth 2+).
    #[arg(long)]
    divide: bool,
    /// Worker threads, 1 to 256 (default: all cores). Use 1 to measure one core.
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=MAX_THREADS))]
    threads: Option<u16>,
}

/// The deepest turn perft allowed.
pub const MAX_DEPTH: i64 = 5;
/// The most worker threads allowed.
pub const MAX_THREADS: i64 = 256;

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
        .num_threads(args.threads.map_or(0, usize::from))
        .build()
        .context("cannot start the worker threads")?;
    pool.install(|| run_inner(args))
}

fn run_inner(args: &PerftArgs) -> Result<()> {
    let game = args.pos.load()?;
    if game.in_setup() {
        anyhow::bail!("the position is in the setup phase; perft needs a position with pieces");
    }
    ensure_not_over(&game)?;
    let pos = game.position();
    let mut out = std::io::stdout().lock();
    writeln!(out, "position {}", to_aei_with_side(pos))?;
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
    // The third-repetition rule applies to every turn: the game's history (at least the
    // position itself) and, deeper, the boards along each path.
    let t = Instant::now();
    let mut gen = TurnGen::new();
    let turns = gen.count_excluding(pos, &|k| game.would_repeat_third_time(k)) as u64;
    let secs = t.elapsed().as_secs_f64();
    writeln!(
        out,
        "{:>5} {:>14} {:>12} {:>14} {:>9} {:>10}",
        "turns", "count", "", "steps made", "time", "speed"
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
    let seen = game.seen_boards();
    for depth in 2..=args.depth {
        let t = Instant::now();
        let parts = turn_divide_in_history(pos, depth, &seen);
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
