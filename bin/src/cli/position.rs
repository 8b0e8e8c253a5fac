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
    /// With --record: replay only the first N moves (setups count as moves), or up to the
    /// move labelled like `23s` (the position where 23s is to be played).
    #[arg(long, value_name = "N|LABEL", requires = "record")]
    pub upto: Option<Upto>,
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
            let count = match &self.upto {
                None => None,
                Some(Upto::Moves(n)) => Some(*n),
                Some(Upto::Label(label)) => Some(
                    rec.moves
                        .iter()
                        .position(|m| m.label() == *label)
                        .unwrap_or(rec.moves.len()),
                ),
            };
            let game = rec
                .replay(count)
                .with_context(|| format!("in {}", path.display()))?;
            if let Some(Upto::Label(label)) = &self.upto {
                if game.move_label() != *label {
                    bail!(
                        "{}: --upto {label}: the record has no move {label} (it reaches {})",
                        path.display(),
                        game.move_label()
                    );
                }
            }
            if game.in_setup() {
                bail!(
                    "{}: the position after {} moves is still in the setup phase",
                    path.display(),
                    count.unwrap_or(rec.moves.len())
                );
            }
            return Ok(game);
        }
        let text = self.setposition.as_deref().unwrap_or(START);
        let pos = parse_aei(text).with_context(|| format!("in --setposition \"{text}\""))?;
        Ok(Game::from_position(pos, 2))
    }
}

/// How far `--upto` replays a record: a number of moves, or up to a move label.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Upto {
    /// The first N moves.
    Moves(usize),
    /// The moves before the one labelled like `23s`.
    Label(String),
}

impl std::str::FromStr for Upto {
    type Err = String;

    /// `N` (a move count) or a label: a move number and `g`, `s`, `w` or `b` (`23s`).
    fn from_str(s: &str) -> Result<Upto, String> {
        let t = s.trim();
        if let Ok(n) = t.parse::<usize>() {
            return Ok(Upto::Moves(n));
        }
        let bad = || format!("\"{s}\" is neither a move count nor a move label like 23s");
        let (num, side) = t.split_at(t.len().saturating_sub(1));
        let n: u32 = num.parse().map_err(|_| bad())?;
        let side = match side {
            "g" | "w" => 'g',
            "s" | "b" => 's',
            _ => return Err(bad()),
        };
        if n == 0 {
            return Err(bad());
        }
        Ok(Upto::Label(format!("{n}{side}")))
    }
}
