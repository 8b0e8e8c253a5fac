//! `tusk moves`: every distinct legal turn of a position in official notation, or turn counts
//! for positions read from standard input.

use std::io::{BufRead, IsTerminal, Write};

use anyhow::{bail, Result};
use clap::Args;
use tusk_engine::notation::board::parse_aei;
use tusk_engine::notation::text::decode_utf8;
use tusk_engine::{ParseError, PositionError, TurnGen};

use super::position::{ensure_not_over, PositionArgs};

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
    ensure_not_over(&game)?;
    let turns = game.legal_turns(&mut gen);
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    if args.count {
        writeln!(out, "{}", turns.len())?;
        return Ok(());
    }
    let mut lines: Vec<String> = turns.iter().map(|(t, _)| game.turn_text(t)).collect();
    lines.sort();
    for l in lines {
        writeln!(out, "{l}")?;
    }
    Ok(())
}

/// Counts the distinct turns of each board read from standard input, one count per line
/// (`error` for a line that cannot be read, with the reason on standard error). This is the
/// move generator's batch mode: each board is counted as given, with no game history and
/// no end-of-game checks, as `pyrimaa.board.Position.get_moves()` counts.
fn count_stdin(gen: &mut TurnGen) -> Result<()> {
    let stdin = std::io::stdin();
    if stdin.is_terminal() {
        eprintln!(
            "tusk moves --count: reading positions from standard input, one \"<g|s> [<64 cells>]\" \
             per line (end with Ctrl-D; give --setposition, --position or --record for one position)"
        );
    }
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let mut failures = 0;
    let mut input = stdin.lock();
    let mut bytes = Vec::new();
    for n in 1.. {
        bytes.clear();
        if input.read_until(b'\n', &mut bytes)? == 0 {
            break;
        }
        let parsed = decode_utf8(&bytes)
            .map_err(|e| match e {
                ParseError::At { column, reason, .. } => {
                    format!("line {n}, column {column}: {reason}")
                }
                other => format!("line {n}: {other}"),
            })
            .and_then(|line| count_line(gen, &line).map_err(|e| format!("line {n}: {e}")));
        match parsed {
            Ok(None) => {}
            Ok(Some(count)) => writeln!(out, "{count}")?,
            Err(e) => {
                out.flush()?;
                eprintln!("error: {e}");
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

/// The turn count of one input line, or `None` for a blank or `#` comment line. Anything
/// after the closing bracket (e.g. expected counts in a fixture) is ignored.
fn count_line(gen: &mut TurnGen, line: &str) -> Result<Option<usize>, PositionError> {
    if line.trim().is_empty() || line.trim_start().starts_with('#') {
        return Ok(None);
    }
    let board = match line.find(']') {
        Some(i) => &line[..=i],
        None => line,
    };
    let pos = parse_aei(board)?;
    Ok(Some(gen.count(&pos)))
}
