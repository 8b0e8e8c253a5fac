//! Where a subcommand gets its position: `--setposition`, `--position FILE`, or `--record FILE`
//! with `--upto N`.

use std::path::PathBuf;

use anyhow::{bail, Context, Result};
use clap::Args;
use tusk_engine::notation::board::parse_aei;
use tusk_engine::notation::record::{PositionFile, Record};
use tusk_engine::Game;

/// The standard opening position used when no position is given.
pub const START: &str = "g [rrrrrrrrdhcemchd                                DHCMECHDRRRRRRRR]";

/// Position-selecting options shared by the subcommands.
#[derive(Args, Clone, Debug, Default)]
pub struct PositionArgs {
    /// A position file (the framed board of the notation, with an optional move line).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["setposition", "record"])]
    pub position: Option<PathBuf>,
    /// A position as AEI gives it: `g [<64 cells>]` (side g or s).
    #[arg(long, value_name = "\"g [..64..]\"", conflicts_with = "record")]
    pub setposition: Option<String>,
    /// A game record (`1g Ra1 ... 2g Ee2n ...`); see --upto.
    #[arg(long, value_name = "FILE")]
    pub record: Option<PathBuf>,
    /// With --record: replay only the first N moves (setups count as moves).
    #[arg(long, value_name = "N", requires = "record")]
    pub upto: Option<usize>,
}

impl PositionArgs {
    /// Whether any position option was given.
    pub fn given(&self) -> bool {
        self.position.is_some() || self.setposition.is_some() || self.record.is_some()
    }

    /// The game at the chosen position (the standard start if none was given).
    pub fn load(&self) -> Result<Game> {
        if let Some(path) = &self.position {
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("cannot read position file {}", path.display()))?;
            let pf =
                PositionFile::parse(&text).with_context(|| format!("in {}", path.display()))?;
            return Ok(Game::from_position(pf.position, pf.move_number));
        }
        if let Some(path) = &self.record {
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("cannot read game record {}", path.display()))?;
            let rec = Record::parse(&text).with_context(|| format!("in {}", path.display()))?;
            let game = rec
                .replay(self.upto)
                .with_context(|| format!("in {}", path.display()))?;
            if game.in_setup() {
                bail!(
                    "{}: the position after {} moves is still in the setup phase",
                    path.display(),
                    self.upto.unwrap_or(rec.moves.len())
                );
            }
            return Ok(game);
        }
        let text = self.setposition.as_deref().unwrap_or(START);
        let pos = parse_aei(text).with_context(|| format!("in --setposition \"{text}\""))?;
        Ok(Game::from_position(pos, 2))
    }
}
