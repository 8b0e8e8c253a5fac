//! Where a subcommand gets its position: `--setposition`, `--position FILE`, or `--record FILE`
//! with `--upto N`; and the one way every command reports a game that is already decided.

use std::fmt;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use clap::Args;
use tusk_engine::notation::board::parse_aei;
use tusk_engine::notation::record::{PositionFile, Record};
use tusk_engine::notation::text::decode_utf8;
use tusk_engine::{Game, GameResult};

/// The standard opening position used when no position is given.
pub const START: &str = "g [rrrrrrrrdhcemchd                                DHCMECHDRRRRRRRR]";

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
    /// `resigns` count as moves); N beyond the record is an error.
    #[arg(long, value_name = "N", requires = "record")]
    pub upto: Option<usize>,
}

/// Reads a whole text file as UTF-8; errors name the file, and the line and column of a byte
/// that is not UTF-8.
pub fn read_text(path: &Path, what: &str) -> Result<String> {
    let bytes =
        std::fs::read(path).with_context(|| format!("cannot read {what} {}", path.display()))?;
    decode_utf8(&bytes).with_context(|| path.display().to_string())
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
            let text = read_text(path, "position file")?;
            let pf = PositionFile::parse(&text).with_context(|| path.display().to_string())?;
            return Ok(Game::from_position(pf.position, pf.move_number));
        }
        if let Some(path) = &self.record {
            let text = read_text(path, "game record")?;
            let rec = Record::parse(&text).with_context(|| path.display().to_string())?;
            let replayed = rec
                .replay_upto(self.upto)
                .with_context(|| path.display().to_string())?;
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
                    self.upto.unwrap_or(rec.moves.len())
                );
            }
            return Ok(replayed.game);
        }
        let text = self.setposition.as_deref().unwrap_or(START);
        let pos = parse_aei(text).with_context(|| format!("in --setposition \"{text}\""))?;
        Ok(Game::from_position(pos, 2))
    }
}
