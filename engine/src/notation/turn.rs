//! Turns and setups in official notation, checked against a position.

use super::token::Token;
use crate::error::{ParseError, SetupError, TurnError};
use crate::position::Pending;
use crate::{Color, Piece, PieceKind, Placement, Position, Setup, Step, Turn};

/// Writes `turn` as played from `pos`: step tokens with capture tokens right after the step
/// that caused them (so a capture by a push stands between its two steps).
pub fn write_turn(pos: &Position, turn: &Turn) -> String {
    let mut p = pos.clone();
    let mut out = String::new();
    for step in turn.steps() {
        let Some(piece) = p.piece_at(step.from()) else {
            break;
        };
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(&format!("{piece}{step}"));
        if !p.is_legal_step(step) {
            break;
        }
        let undo = p.play_step_unchecked(step);
        if let Some((victim, sq)) = undo.captured() {
            out.push_str(&format!(" {victim}{sq}x"));
        }
    }
    out
}

/// Writes a line of play from `pos`, one official-notation string per turn: the first turn is
/// played from `pos` (from a mid-turn position, the steps after those already taken), each
/// later one from the start of the turn after the one before it. The last turn may be cut
/// short (a search's horizon). Stops before a turn with an illegal step, and after a turn that
/// cannot end there (no push left half done, a changed board), so what it writes always plays.
/// An empty turn (ending a mid-turn start's turn at once) is written as an empty string.
pub fn write_line(pos: &Position, line: &[Turn]) -> Vec<String> {
    let mut out = Vec::with_capacity(line.len());
    let mut p = pos.clone();
    for (i, turn) in line.iter().enumerate() {
        if i > 0 {
            if !p.can_end_turn() {
                break;
            }
            p.end_turn();
        }
        let start = p.clone();
        if !turn.steps().all(|s| {
            let legal = p.is_legal_step(s);
            if legal {
                p.play_step_unchecked(s);
            }
            legal
        }) {
            break;
        }
        out.push(write_turn(&start, turn));
    }
    out
}

/// Reads the steps of a turn from `text` and plays them on a copy of `pos`, checking every
/// step, every capture token given, and the end of the turn (at least one step, no push left
/// half done, the board changed). Returns the turn and the position after it (other side to
/// move). Capture tokens may be omitted.
pub fn parse_turn(pos: &Position, text: &str) -> Result<(Turn, Position), TurnError> {
    let (turn, p) = play_steps(pos, text)?;
    Ok((turn, finish_turn(&turn, p)?))
}

/// Plays `turn` on a copy of `pos`, checking every step, and ends it (see [`parse_turn`]).
pub fn play_turn(pos: &Position, turn: &Turn) -> Result<Position, TurnError> {
    let mut p = pos.clone();
    for (i, step) in turn.steps().enumerate() {
        let token = match p.piece_at(step.from()) {
            Some(piece) => format!("{piece}{step}"),
            None => step.to_string(),
        };
        p.check_step(step).map_err(|error| TurnError::Step {
            index: i + 1,
            token,
            error,
        })?;
        p.play_step_unchecked(step);
    }
    finish_turn(turn, p)
}

/// Ends a turn whose steps were played on `p`: at least one step, no push left half done, and
/// a board different from the turn's start.
///
/// From a mid-turn position the turn's earlier steps count: an empty `turn` then ends the turn
/// at once, which is legal when the board has already changed.
fn finish_turn(turn: &Turn, mut p: Position) -> Result<Position, TurnError> {
    if turn.is_empty() && p.at_turn_start() {
        return Err(TurnError::NoSteps);
    }
    if let Pending::Push { square, .. } = p.pending() {
        return Err(TurnError::IncompletePush(square));
    }
    if !p.can_end_turn() {
        return Err(TurnError::Unchanged);
    }
    p.end_turn();
    Ok(p)
}

/// The text of a move without its capture tokens (every four-character token ending in `x`,
/// as pyrimaa's parser skips them): what a lenient reader plays when a capture token given
/// by another program is wrong. Tokens are rejoined with single spaces.
pub fn without_capture_tokens(text: &str) -> String {
    text.split_whitespace()
        .filter(|t| !(t.len() == 4 && t.ends_with('x')))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Reads step and capture tokens and plays them on a copy of `pos` without ending the turn.
/// Checks every step and every capture token given. Returns the steps and the position.
pub fn play_steps(pos: &Position, text: &str) -> Result<(Turn, Position), TurnError> {
    let mut p = pos.clone();
    let mut turn = Turn::new();
    let mut last_capture: Option<(Piece, crate::Square)> = None;
    let mut step_index = 0;
    for word in text.split_whitespace() {
        match Token::parse(word)? {
            Token::Step { piece, from, dir } => {
                step_index += 1;
                if turn.len() == 4 {
                    return Err(TurnError::TooManySteps(
                        text.split_whitespace()
                            .filter(|w| !w.ends_with('x'))
                            .count(),
                    ));
                }
                let step_err = |error| TurnError::Step {
                    index: step_index,
                    token: word.to_string(),
                    error,
                };
                let step = Step::try_new(from, dir)
                    .ok_or_else(|| step_err(crate::StepError::OffBoard(from)))?;
                match p.piece_at(from) {
                    Some(found) if found != piece => {
                        return Err(step_err(crate::StepError::WrongPiece {
                            square: from,
                            expected: piece,
                            found,
                        }))
                    }
                    _ => {}
                }
                p.check_step(step).map_err(step_err)?;
                let undo = p.play_step_unchecked(step);
                last_capture = undo.captured();
                turn.push(step);
            }
            Token::Capture { piece, square } => match last_capture.take() {
                Some((victim, sq)) if victim == piece && sq == square => {}
                Some((victim, sq)) => {
                    return Err(TurnError::Capture {
                        token: word.to_string(),
                        reason: format!("the capture here is {victim}{sq}x"),
                    })
                }
                None => {
                    return Err(TurnError::Capture {
                        token: word.to_string(),
                        reason: "the step before it captures nothing".to_string(),
                    })
                }
            },
            Token::Place { .. } => {
                return Err(TurnError::WrongPhase {
                    expected: "a turn of steps",
                    got: "a setup placement",
                })
            }
        }
    }
    Ok((turn, p))
}

/// Reads a setup for `side` (`Ra1 Rb1 ...`, any order) and checks it: own colour, own two
/// home ranks, free squares, no more of a kind than the side owns, and all 16 pieces placed.
pub fn parse_setup(side: Color, text: &str) -> Result<Setup, TurnError> {
    let mut placements = Vec::with_capacity(16);
    for word in text.split_whitespace() {
        match Token::parse(word)? {
            Token::Place { piece, square } => placements.push(Placement { piece, square }),
            _ => {
                return Err(TurnError::WrongPhase {
                    expected: "a setup of placements like Ra1",
                    got: "a step",
                })
            }
        }
    }
    if placements.is_empty() {
        return Err(ParseError::Empty.into());
    }
    let setup = Setup::new(placements);
    check_setup(side, &setup, &Position::empty(side))?;
    Ok(setup)
}

/// Checks a setup of `side` against the board it is placed on.
pub fn check_setup(side: Color, setup: &Setup, board: &Position) -> Result<(), SetupError> {
    let mut counts = [0u32; PieceKind::NUM];
    let mut taken = board.occupied();
    for pl in setup.placements() {
        let token = pl.to_string();
        if pl.piece.color() != side {
            return Err(SetupError::WrongColor { token, side });
        }
        let home = match side {
            Color::Gold => pl.square.rank() <= 1,
            Color::Silver => pl.square.rank() >= 6,
        };
        if !home {
            return Err(SetupError::OutsideHomeRanks { token, side });
        }
        if taken.contains(pl.square) {
            return Err(SetupError::SquareTaken {
                token,
                square: pl.square,
            });
        }
        taken |= crate::Bitboard::from_square(pl.square);
        let k = pl.piece.kind();
        counts[k.index()] += 1;
        if counts[k.index()] > k.initial_count() {
            return Err(SetupError::TooMany {
                token,
                kind: k,
                max: k.initial_count(),
            });
        }
    }
    for k in PieceKind::ALL {
        if counts[k.index()] != k.initial_count() {
            return Err(SetupError::Missing {
                kind: k,
                placed: counts[k.index()],
                max: k.initial_count(),
            });
        }
    }
    Ok(())
}

/// Places a checked setup on `pos` (the pieces only; sides are the caller's business).
pub(crate) fn place_setup(pos: &mut Position, setup: &Setup) {
    for pl in setup.placements() {
        pos.put(pl.piece, pl.square);
    }
}
