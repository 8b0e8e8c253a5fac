//! Where a subcommand gets its position: `--setposition`, `--position FILE`, or `--record FILE`
//! with `--upto N`; and the one way every command reports a game that is already decided.

use std::fmt;
use std::path::PathBuf;

use anyhow::{bail, Context, Result};
use clap::Args;

use crate::files::read_text_file;
use tusk_engine::notation::board::parse_aei;
use tusk_engine::notation::record::{PositionFile, Record};
use tusk_engine::{Game, GameResult};

/// The standard opening position used when no position is given.
pub use tusk_engine::notation::board::STANDARD_OPENING as START;

/// The exit status of a command asked about a game that is already decided.
pub const GAME_OVER_STATUS: u8 = 3;

/// A game already decided on the board (goal, elimination, immobilization or repetition).
/// Every command reports it the same way: `main` prints this one line on standard output,
/// `game over: gold wins by goal`, and exits with [`GAME_OVER_STATUS`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameOver(pub GameResult);

impl fmt::Display for GameOver {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "game over: {} wins by {}",
            self.0.winner.name(),
            self.0.reason.name()
        )
    }
}

impl std::error::Error for GameOver {}

/// Fails with [`GameOver`] when the game is decided, so that a command neither lists, counts
/// nor evaluates play from a finished position. Every command calls it right after loading.
pub fn ensure_not_over(game: &Game) -> Result<(), GameOver> {
    match game.result() {
        Some(result) => Err(GameOver(result)),
        None => Ok(()),
    }
}

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
    /// With --record: replay only the first N moves (setups, takebacks and a final
    /// `resigns` count as moves; N beyond the record is an error), or up to the move labelled
    /// like `23s` (the position where 23s is to be played).
    #[arg(long, value_name = "N|LABEL", requires = "record")]
    pub upto: Option<Upto>,
}

impl PositionArgs {
    /// Whether any position option was given.
    pub fn given(&self) -> bool {
        self.position.is_some() || self.setposition.is_some() || self.record.is_some()
    }

    /// The game at the chosen position (the standard start if none was given). A record that
    /// ends with `resigns`, `lost` or an empty move is replayed up to it, and a note on
    /// standard error says so.
    pub fn load(&self) -> Result<Game> {
        if let Some(path) = &self.position {
            let text = read_text_file(path, "position file")?;
            let pf = PositionFile::parse(&text).with_context(|| path.display().to_string())?;
            return Ok(
                Game::from_position(pf.position, pf.move_number).with_steps_taken(&pf.steps_taken)
            );
        }
        if let Some(path) = &self.record {
            let text = read_text_file(path, "game record")?;
            let rec = Record::parse(&text).with_context(|| path.display().to_string())?;
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
            let replayed = rec
                .replay_upto(count)
                .with_context(|| path.display().to_string())?;
            if let Some(Upto::Label(label)) = &self.upto {
                if replayed.game.move_label() != *label {
                    bail!(
                        "{}: --upto {label}: the record has no move {label} (it reaches {})",
                        path.display(),
                        replayed.game.move_label()
                    );
                }
            }
            if let Some(end) = &replayed.ended_by {
                let found = if end.text.is_empty() {
                    format!("the empty move {}", end.label())
                } else {
                    format!("\"{} {}\"", end.label(), end.text)
                };
                eprintln!(
                    "note: {} line {}: the record ends with {found}; this is the position before it",
                    path.display(),
                    end.line
                );
            }
            if replayed.game.in_setup() {
                bail!(
                    "{}: the position after {} moves is still in the setup phase",
                    path.display(),
                    count.unwrap_or(rec.moves.len())
                );
            }
            return Ok(replayed.game);
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
