//! `tusk bench`: a fixed, deterministic workload that prints its node counts and speed, so that
//! two builds can be compared (same counts = same behaviour; the speed is the measure).

use std::io::Write;
use std::time::Instant;

use anyhow::{Context, Result};
use clap::Args;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use tusk_engine::notation::board::{parse_aei, to_aei_with_side};
use tusk_engine::perft::step_perft;
use tusk_engine::setup::random_setup;
use tusk_engine::{Color, Game, Move, Position, TurnGen};

use super::position::START;

/// Arguments of `tusk bench`.
#[derive(Args, Debug)]
pub struct BenchArgs {
    /// How many seeded random-game positions to add to the two standard ones.
    #[arg(long, default_value_t = 16)]
    positions: usize,
}

const MIDGAME: &str = "g [ D      c   r HcR   M r rC  r R r  r E R R C  R R    D      R  R]";

/// The benchmark positions: the opening, the published mid-game position, and positions from
/// seeded random games (fixed forever by their seeds).
pub fn bench_positions(extra: usize) -> Result<Vec<Position>> {
    let mut v = vec![
        parse_aei(START).context("built-in position")?,
        parse_aei(MIDGAME).context("built-in position")?,
    ];
    let mut gen = TurnGen::new();
    for seed in 0..extra as u64 {
        let mut rng = SmallRng::seed_from_u64(seed);
        let mut game = Game::new();
        for c in Color::ALL {
            game.play(&Move::Setup(random_setup(c, &mut rng)))?;
        }
        let plies = 10 + 3 * seed as usize;
        for _ in 0..plies {
            let turns = game.legal_turns(&mut gen);
            if turns.is_empty() || game.result().is_some() {
                break;
            }
            let i = rng.gen_range(0..turns.len());
            game.play(&Move::Turn(turns[i].0))?;
        }
        if game.result().is_none() {
            v.push(game.position().clone());
        }
    }
    Ok(v)
}

/// Runs `tusk bench` on one thread.
pub fn run(args: &BenchArgs) -> Result<()> {
    let positions = bench_positions(args.positions)?;
    let mut out = std::io::stdout().lock();
    let mut gen = TurnGen::new();
    let (mut steps, mut turns, mut step_secs, mut turn_secs) = (0u64, 0u64, 0f64, 0f64);
    writeln!(
        out,
        "{:>3} {:>10} {:>12} {:>9}  position",
        "#", "turns", "perft3", "ms"
    )?;
    for (i, p) in positions.iter().enumerate() {
        let t = Instant::now();
        let mut q = p.clone();
        let (_, made) = step_perft(&mut q, 3);
        let s1 = t.elapsed().as_secs_f64();
        let t = Instant::now();
        let n = gen.count(p) as u64;
        let s2 = t.elapsed().as_secs_f64();
        steps += made;
        turns += n;
        step_secs += s1;
        turn_secs += s2;
        writeln!(
            out,
            "{:>3} {:>10} {:>12} {:>9.2}  {}",
            i + 1,
            n,
            made,
            (s1 + s2) * 1e3,
            to_aei_with_side(p)
        )?;
    }
    writeln!(out,
        "bench: {} positions, {} steps made in perft ({:.1} M steps/s), {} distinct turns ({:.2} M turns/s)",
        positions.len(),
        steps,
        steps as f64 / step_secs.max(1e-9) / 1e6,
        turns,
        turns as f64 / turn_secs.max(1e-9) / 1e6
    )?;
    Ok(())
}
