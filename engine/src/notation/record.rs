//! Game records (`1g Ra1 ... 1s ... 2g Ee2n ...`, with optional tags) and position files.

use thiserror::Error;

use super::board::{from_pieces, parse_framed, to_framed};
use super::token::Token;
use super::turn::play_steps;
use crate::error::{ParseError, PositionError, TurnError};
use crate::{Color, Game, Position};

/// An error in a game record or position file, naming the move or line.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum RecordError {
    /// A syntax error.
    #[error(transparent)]
    Parse(#[from] ParseError),
    /// An illegal move, with its label (e.g. `3s`).
    #[error("move {label}: {error}")]
    Move {
        /// The move label as written.
        label: String,
        /// Why it is illegal.
        error: TurnError,
    },
    /// An impossible board.
    #[error(transparent)]
    Position(#[from] PositionError),
}

/// One move of a record: its label as written (`12s`) and its text (`Ee2n Ee3n`, a setup,
/// `resigns`, `lost`, `takeback`, or empty).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordMove {
    /// Move number.
    pub number: u32,
    /// Side.
    pub side: Color,
    /// The move text, tokens joined by single spaces.
    pub text: String,
}

impl RecordMove {
    /// The label, e.g. `12s`.
    pub fn label(&self) -> String {
        format!("{}{}", self.number, self.side.letter())
    }
}

/// A parsed game record: tags in order, then moves.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Record {
    /// `(name, value)` pairs; multi-line values keep their newlines.
    pub tags: Vec<(String, String)>,
    /// The moves in order, as written.
    pub moves: Vec<RecordMove>,
}

fn parse_label(word: &str) -> Option<(u32, Color)> {
    let side_char = word.chars().last()?;
    let digits = &word[..word.len() - side_char.len_utf8()];
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let side = Color::from_letter(side_char)?;
    if !side_char.is_ascii_lowercase() {
        return None;
    }
    Some((digits.parse().ok()?, side))
}

fn is_tag_line(line: &str) -> Option<(&str, &str)> {
    let (name, value) = line.split_once(':')?;
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return None;
    }
    if parse_label(name.trim()).is_some() {
        return None;
    }
    Some((name, value.strip_prefix(' ').unwrap_or(value)))
}

impl Record {
    /// Reads a record. Tags (`Name: value`, or `Name: -=+=-` ... `-=+=-` for several lines)
    /// come first; moves may be one per line or run together; `w`/`b` are read as `g`/`s`.
    pub fn parse(text: &str) -> Result<Record, RecordError> {
        let mut rec = Record::default();
        let lines: Vec<&str> = text.lines().collect();
        let mut i = 0;
        // Tags.
        while i < lines.len() {
            let line = lines[i].trim_end();
            if line.trim().is_empty() {
                i += 1;
                continue;
            }
            let Some((name, value)) = is_tag_line(line.trim_start()) else {
                break;
            };
            if value.trim() == "-=+=-" {
                let mut body = Vec::new();
                i += 1;
                loop {
                    let Some(l) = lines.get(i) else {
                        return Err(ParseError::Line {
                            line: i,
                            reason: format!("tag {name}: no closing -=+=- line"),
                        }
                        .into());
                    };
                    if l.starts_with("-=+=-") {
                        break;
                    }
                    body.push(*l);
                    i += 1;
                }
                rec.tags.push((name.to_string(), body.join("\n")));
            } else {
                rec.tags.push((name.to_string(), value.to_string()));
            }
            i += 1;
        }
        // Moves.
        let mut current: Option<(RecordMove, usize)> = None;
        for (ln, line) in lines.iter().enumerate().skip(i) {
            for word in line.split_whitespace() {
                if let Some((number, side)) = parse_label(word) {
                    if let Some((m, _)) = current.take() {
                        rec.moves.push(m);
                    }
                    current = Some((
                        RecordMove {
                            number,
                            side,
                            text: String::new(),
                        },
                        ln,
                    ));
                } else if let Some((m, _)) = current.as_mut() {
                    if !m.text.is_empty() {
                        m.text.push(' ');
                    }
                    m.text.push_str(word);
                } else {
                    return Err(ParseError::Line {
                        line: ln + 1,
                        reason: format!("\"{word}\" comes before the first move label (like 1g)"),
                    }
                    .into());
                }
            }
        }
        if let Some((m, _)) = current {
            rec.moves.push(m);
        }
        Ok(rec)
    }

    /// The value of a tag, by case-insensitive name.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// Replays the record from the empty board, through the first `limit` moves (all if
    /// `None`), honouring `takeback`. Stops at `resigns` and `lost`, and at an empty move.
    pub fn replay(&self, limit: Option<usize>) -> Result<Game, RecordError> {
        let mut history: Vec<Game> = vec![Game::new()];
        for (n, mv) in self.moves.iter().enumerate() {
            if limit.is_some_and(|l| n >= l) {
                break;
            }
            let game = history.last().cloned().unwrap_or_default();
            let label = mv.label();
            let words: Vec<&str> = mv.text.split_whitespace().collect();
            match words.as_slice() {
                [] | ["resigns"] | ["lost"] | ["resigns", ..] => break,
                ["takeback"] => {
                    if history.len() > 1 {
                        history.pop();
                    }
                    continue;
                }
                _ => {}
            }
            let want = (game.move_number(), game.side_to_move());
            if (mv.number, mv.side) != want {
                return Err(RecordError::Move {
                    label,
                    error: TurnError::Parse(ParseError::Token {
                        token: mv.label(),
                        reason: format!("expected move {}{}", want.0, want.1.letter()),
                    }),
                });
            }
            let mut next = game;
            next.play_text(&mv.text)
                .map_err(|error| RecordError::Move { label, error })?;
            history.push(next);
        }
        Ok(history.pop().unwrap_or_default())
    }
}

/// A position file: the framed board, with an optional first line giving the move number,
/// the side to move and any steps already taken this turn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionFile {
    /// The move number (1 if the file gives none).
    pub move_number: u32,
    /// The position shown, with the steps of the move line already taken.
    pub position: Position,
    /// The steps already taken this turn, as written on the move line.
    pub steps_taken: String,
}

impl PositionFile {
    /// Reads a position file. Without a move line, gold is to move at move 1 (see
    /// [`PositionFile::parse_with_default_side`] for another default).
    pub fn parse(text: &str) -> Result<PositionFile, RecordError> {
        Self::parse_with_default_side(text, Color::Gold)
    }

    /// Reads a position file; `side` is used when there is no move line.
    pub fn parse_with_default_side(text: &str, side: Color) -> Result<PositionFile, RecordError> {
        let lines: Vec<&str> = text.lines().collect();
        let Some(frame) = lines.iter().position(|l| l.trim_start().starts_with('+')) else {
            return Err(ParseError::Line {
                line: 1,
                reason: "no board frame (a line like \" +-----------------+\") found".into(),
            }
            .into());
        };
        let mut move_number = 1;
        let mut side = side;
        let mut steps_taken = String::new();
        let header: Vec<(usize, &str)> = lines[..frame]
            .iter()
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty())
            .map(|(i, l)| (i, *l))
            .collect();
        if let Some(&(ln, line)) = header.last() {
            let mut words = line.split_whitespace();
            let first = words.next().unwrap_or("");
            let (n, s) = parse_label(first).ok_or_else(|| ParseError::Line {
                line: ln + 1,
                reason: format!("expected a move label like 7g, found \"{first}\""),
            })?;
            move_number = n;
            side = s;
            steps_taken = words.collect::<Vec<_>>().join(" ");
        }
        let pieces = parse_framed(&lines[frame..], frame + 1)?;
        let shown = from_pieces(side, &pieces)?;
        let position = if steps_taken.is_empty() {
            shown
        } else {
            rebuild_mid_turn(&shown, &steps_taken, move_number)?
        };
        Ok(PositionFile {
            move_number,
            position,
            steps_taken,
        })
    }

    /// Writes the file: the move line, then the framed board.
    pub fn write(&self) -> String {
        let mut s = format!("{}{}", self.move_number, self.position.side().letter());
        if !self.steps_taken.is_empty() {
            s.push(' ');
            s.push_str(&self.steps_taken);
        }
        s.push('\n');
        s.push_str(&to_framed(&self.position));
        s
    }
}

/// From the board shown after `steps` were taken, works back to the turn-start board, then
/// replays the steps with full legality checks and confirms they reach the board shown.
fn rebuild_mid_turn(
    shown: &Position,
    steps: &str,
    move_number: u32,
) -> Result<Position, RecordError> {
    let label = format!("{move_number}{}", shown.side().letter());
    let fail = |reason: String| RecordError::Move {
        label: label.clone(),
        error: TurnError::Parse(ParseError::Token {
            token: steps.to_string(),
            reason,
        }),
    };
    let mut pieces: Vec<(crate::Piece, crate::Square)> = crate::Square::all()
        .filter_map(|sq| shown.piece_at(sq).map(|p| (p, sq)))
        .collect();
    let tokens: Vec<&str> = steps.split_whitespace().collect();
    for word in tokens.iter().rev() {
        match Token::parse(word)? {
            Token::Capture { piece, square } => {
                if pieces.iter().any(|&(_, s)| s == square) {
                    return Err(fail(format!(
                        "\"{word}\": {square} is not empty in the board shown"
                    )));
                }
                pieces.push((piece, square));
            }
            Token::Step { piece, from, dir } => {
                let to = from
                    .step(dir)
                    .ok_or_else(|| fail(format!("\"{word}\" leaves the board")))?;
                let slot = pieces
                    .iter_mut()
                    .find(|(p, s)| *s == to && *p == piece)
                    .ok_or_else(|| {
                        fail(format!(
                            "\"{word}\": {} is not on {to} in the board shown",
                            piece.describe()
                        ))
                    })?;
                slot.1 = from;
            }
            Token::Place { .. } => {
                return Err(fail(format!("\"{word}\" is a placement, not a step")))
            }
        }
    }
    let start = from_pieces(shown.side(), &pieces)?;
    let (_, after) = play_steps(&start, steps).map_err(|error| RecordError::Move {
        label: label.clone(),
        error,
    })?;
    if after.board_key() != shown.board_key() {
        return Err(fail("the steps do not lead to the board shown".into()));
    }
    Ok(after)
}
