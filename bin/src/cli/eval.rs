//! `tusk eval`: the static evaluation of a position, term by term.

use std::io::Write;

use anyhow::{bail, Result};
use clap::Args;
use tusk_engine::notation::board::{to_aei_with_side, to_framed};
use tusk_eval::{explain, Weights};

use super::position::{ensure_not_over, PositionArgs};

/// Arguments of `tusk eval`.
#[derive(Args, Debug)]
pub struct EvalArgs {
    #[command(flatten)]
    pos: PositionArgs,
}

/// Runs `tusk eval`: the board, then every term for gold, for silver and the difference, and
/// the score from the side to move's view in centirabbits.
pub fn run(args: &EvalArgs) -> Result<()> {
    let game = args.pos.load()?;
    if game.in_setup() {
        bail!("the position is in the setup phase; there is nothing to evaluate yet");
    }
    ensure_not_over(&game)?;
    let pos = game.position();
    let breakdown = explain(pos, &Weights::default());
    let mut out = std::io::stdout().lock();
    writeln!(out, "position {}", to_aei_with_side(pos))?;
    write!(out, "{}", to_framed(pos))?;
    writeln!(out, "{breakdown}")?;
    Ok(())
}
