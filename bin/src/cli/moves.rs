//! `tusk moves`: every distinct legal turn of a position in official notation, or turn counts
//! for positions read from standard input.

use std::io::{BufRead, Write};

use anyhow::{bail, Result};
use clap::Args;
use tusk_engine::notation::board::parse_aei;
use tusk_engine::notation::turn::write_turn;
use tusk_engine::TurnGen;

use super::position::PositionArgs;

/// Arguments of `tusk moves`.
#[derive(Args, Debug)]
pub struct MovesArgs {
    #[command(flatten)]
    pos: PositionArgs,
    /// Print only the number of distinct turns. With no position given, read lines
    /// `<g|s> [<64 cells>]` from standard input and print one count per line.
    #[arg(long)]
    count: bool,
}

/// Runs `tusk moves`.
pub fn run(args: &MovesArgs) -> Result<()> {
    let mut gen = TurnGen::new();
    if args.count && !args.pos.given() {
        return count_stdin(&mut gen);
    }
    let game = args.pos.load()?;
    if game.in_setup() {
        bail!("the position is in the setup phase");
    }
    let turns = game.legal_turns(&mut gen);
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    if args.count {
        writeln!(out, "{}", turns.len())?;
        return Ok(());
    }
    let mut lines: Vec<String> = turns
        .iter()
        .map(|(t, _)| write_turn(game.position(), t))
        .collect();
    lines.sort();
    for l in lines {
        writeln!(out, "{l}")?;
    }
    Ok(())
}

fn count_stdin(gen: &mut TurnGen) -> Result<()> {
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let mut failures = 0;
    for (n, line) in stdin.lock().lines().enumerate() {
        let line = line?;
        if line.trim().is_empty() || line.trim_start().starts_with('#') {
            continue;
        }
        // Anything after the closing bracket (e.g. expected counts in a fixture) is ignored.
        let board = match line.find(']') {
            Some(i) => &line[..=i],
            None => line.as_str(),
        };
        match parse_aei(board) {
            Ok(pos) => writeln!(out, "{}", gen.count(&pos))?,
            Err(e) => {
                out.flush()?;
                eprintln!("error: line {}: {e}", n + 1);
                writeln!(out, "error")?;
                failures += 1;
            }
        }
    }
    out.flush()?;
    if failures > 0 {
        bail!("{failures} line(s) could not be read");
    }
    Ok(())
}
