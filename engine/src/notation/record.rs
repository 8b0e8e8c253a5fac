//! Game records (`1g Ra1 ... 1s ... 2g Ee2n ...`, with optional tags) and position files.

use thiserror::Error;

use super::board::{from_pieces, parse_framed, to_framed, FRAME};
use super::token::Token;
use super::turn::play_steps;
use crate::error::{ParseError, PositionError, TurnError};
use crate::{Color, Game, GameResult, Position};

/// An error in a game record or position file, naming the line and the move or token.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum RecordError {
    /// A syntax error (with its line, and column where one can be named).
    #[error(transparent)]
    Parse(#[from] ParseError),
    /// An illegal or misnumbered move, with its label (e.g. `3s`) and the line it starts on.
    #[error("move {label}: {error} (line {line})")]
    Move {
        /// The move label as written.
        label: String,
        /// 1-based line of the label.
        line: usize,
        /// Why it is illegal.
        error: TurnError,
    },
    /// An impossible board.
    #[error(transparent)]
    Position(#[from] PositionError),
    /// A move with no text that is not the last move of the record.
    #[error("line {line}: move {label} is empty; only the last move of a record may be empty")]
    EmptyMove {
        /// The move label.
        label: String,
        /// 1-based line of the label.
        line: usize,
    },
    /// A move after `resigns` or `lost`, which end a record.
    #[error(
        "line {line}: move {label} follows \"{end}\" on line {end_line}, which ends the record"
    )]
    AfterEnd {
        /// The label of the move that follows.
        label: String,
        /// Its 1-based line.
        line: usize,
        /// The ending move as written, e.g. `16s resigns`.
        end: String,
        /// The 1-based line of the ending move.
        end_line: usize,
    },
    /// A move of steps after the game was decided on the board.
    #[error("line {line}: move {label} comes after the end of the game ({} won by {})", result.winner.name(), result.reason.name())]
    AfterGameOver {
        /// The label of the move.
        label: String,
        /// Its 1-based line.
        line: usize,
        /// How the game had ended.
        result: GameResult,
    },
    /// A replay limit beyond the moves the record holds.
    #[error("asked for the first {asked} moves, but the record has only {available}")]
    BeyondEnd {
        /// The number of moves asked for.
        asked: usize,
        /// The number of moves in the record (`takeback`, `resigns` and an empty last move count).
        available: usize,
    },
}

/// One move of a record: its label as written (`12s`), its text (`Ee2n Ee3n`, a setup,
/// `resigns`, `lost`, `takeback`, or empty for the last move only) and where it stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordMove {
    /// Move number.
    pub number: u32,
    /// Side.
    pub side: Color,
    /// The move text, tokens joined by single spaces.
    pub text: String,
    /// The 1-based line of the label in the record's text.
    pub line: usize,
}

impl RecordMove {
    /// The label, e.g. `12s`.
    pub fn label(&self) -> String {
        format!("{}{}", self.number, self.side.letter())
    }

    /// Whether the move ends the record without being played: `resigns`, `lost`, or no text.
    pub fn ends_record(&self) -> bool {
        matches!(self.text.as_str(), "" | "resigns" | "lost")
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

/// The game a replay reached, and the record move that ended it early, if any.
#[derive(Clone, Debug)]
pub struct Replayed {
    /// The game after the moves replayed.
    pub game: Game,
    /// The `resigns`, `lost` or empty last move the replay stopped at (within the limit);
    /// `None` when every move asked for was played.
    pub ended_by: Option<RecordMove>,
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
    /// come first; then every non-blank line starts with a move label, and a line may hold
    /// several moves; `w`/`b` are read as `g`/`s`.
    /// `resigns` and `lost` stand alone and only as the last move; only the last move may be
    /// empty. Errors name the line (and the word or move).
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
                let opened = i + 1;
                let mut body = Vec::new();
                i += 1;
                loop {
                    let Some(l) = lines.get(i) else {
                        return Err(ParseError::Line {
                            line: opened,
                            reason: format!(
                                "tag {name}: no closing -=+=- line before the end of the file"
                            ),
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
        for (ln, line) in lines.iter().enumerate().skip(i) {
            let first = line.split_whitespace().next();
            if let Some(word) = first.filter(|w| parse_label(w).is_none()) {
                return Err(ParseError::At {
                    line: ln + 1,
                    column: 1 + line.chars().take_while(|c| c.is_whitespace()).count(),
                    reason: format!(
                        "expected a move label like 2g at the start of the line, found \"{word}\""
                    ),
                }
                .into());
            }
            for word in line.split_whitespace() {
                if let Some((number, side)) = parse_label(word) {
                    rec.moves.push(RecordMove {
                        number,
                        side,
                        text: String::new(),
                        line: ln + 1,
                    });
                } else if let Some(m) = rec.moves.last_mut() {
                    // Every line starts with a label, so `m` begins on this line.
                    if !m.text.is_empty() {
                        m.text.push(' ');
                    }
                    m.text.push_str(word);
                }
            }
        }
        rec.check_ends()?;
        Ok(rec)
    }

    /// Checks that `resigns`, `lost` and empty moves stand only at the end, and alone.
    fn check_ends(&self) -> Result<(), RecordError> {
        let last = self.moves.len().saturating_sub(1);
        for (n, mv) in self.moves.iter().enumerate() {
            let words: Vec<&str> = mv.text.split_whitespace().collect();
            if let [first, _, ..] = words.as_slice() {
                if matches!(*first, "resigns" | "lost" | "takeback") {
                    return Err(RecordError::Move {
                        label: mv.label(),
                        line: mv.line,
                        error: TurnError::Parse(ParseError::Token {
                            token: mv.text.clone(),
                            reason: format!("\"{first}\" must stand alone"),
                        }),
                    });
                }
            }
            if n == last || !mv.ends_record() {
                continue;
            }
            let next = &self.moves[n + 1];
            if mv.text.is_empty() {
                return Err(RecordError::EmptyMove {
                    label: mv.label(),
                    line: mv.line,
                });
            }
            return Err(RecordError::AfterEnd {
                label: next.label(),
                line: next.line,
                end: format!("{} {}", mv.label(), mv.text),
                end_line: mv.line,
            });
        }
        Ok(())
    }

    /// The value of a tag, by case-insensitive name.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// Replays the record from the empty board, through the first `limit` moves (all if
    /// `None`); see [`Record::replay_upto`], which also tells where the record ended.
    pub fn replay(&self, limit: Option<usize>) -> Result<Game, RecordError> {
        self.replay_upto(limit).map(|r| r.game)
    }

    /// Replays the record from the empty board, through the first `limit` moves (all if
    /// `None`; every record entry counts, `takeback` included). Honours `takeback`; stops at
    /// `resigns`, `lost` or an empty last move and says so in [`Replayed::ended_by`]. Every
    /// label must be the one expected, and no move of steps may follow a decided game. A
    /// `limit` beyond the record's moves is an error.
    pub fn replay_upto(&self, limit: Option<usize>) -> Result<Replayed, RecordError> {
        if let Some(asked) = limit.filter(|&l| l > self.moves.len()) {
            return Err(RecordError::BeyondEnd {
                asked,
                available: self.moves.len(),
            });
        }
        let count = limit.unwrap_or(self.moves.len());
        let mut history: Vec<Game> = vec![Game::new()];
        let mut ended_by = None;
        for mv in &self.moves[..count] {
            let game = history.last().cloned().unwrap_or_default();
            let label = mv.label();
            let fail = |error: TurnError| RecordError::Move {
                label: label.clone(),
                line: mv.line,
                error,
            };
            let want = (game.move_number(), game.side_to_move());
            if (mv.number, mv.side) != want {
                return Err(fail(TurnError::Parse(ParseError::Token {
                    token: label.clone(),
                    reason: format!("expected move {}{}", want.0, want.1.letter()),
                })));
            }
            if mv.ends_record() {
                ended_by = Some(mv.clone());
                break;
            }
            if mv.text == "takeback" {
                if history.len() < 2 {
                    return Err(fail(TurnError::Parse(ParseError::Token {
                        token: mv.text.clone(),
                        reason: "there is no move to take back".into(),
                    })));
                }
                history.pop();
                continue;
            }
            if let Some(result) = game.result() {
                return Err(RecordError::AfterGameOver {
                    label,
                    line: mv.line,
                    result,
                });
            }
            let mut next = game;
            next.play_text(&mv.text).map_err(fail)?;
            history.push(next);
        }
        Ok(Replayed {
            game: history.pop().unwrap_or_default(),
            ended_by,
        })
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

    /// Reads a position file; `side` is used when there is no move line. The file is an
    /// optional move line (`7g`, or `7g Da1n Cc1n` with the steps already taken), then the
    /// framed board read strictly by [`parse_framed`]; blank lines may stand around them.
    /// Errors name the line and column, or the move and token.
    pub fn parse_with_default_side(text: &str, side: Color) -> Result<PositionFile, RecordError> {
        let lines: Vec<&str> = text.lines().collect();
        let next_text = |from: usize| (from..lines.len()).find(|&i| !lines[i].trim().is_empty());
        let Some(first) = next_text(0) else {
            return Err(ParseError::Line {
                line: 1,
                reason: "the file is empty; expected an optional move line like 7g, then the \
                         framed board"
                    .into(),
            }
            .into());
        };
        let mut move_number = 1;
        let mut side = side;
        let mut steps_taken = String::new();
        let mut move_line = 0;
        let mut frame = first;
        if !lines[first].trim_start().starts_with('+') {
            let line = lines[first];
            let word = line.split_whitespace().next().unwrap_or("");
            let (n, s) = parse_label(word).ok_or_else(|| ParseError::At {
                line: first + 1,
                column: 1 + line.chars().take_while(|c| c.is_whitespace()).count(),
                reason: format!(
                    "expected a move label like 7g or the board frame \"{FRAME}\", found \"{}\"",
                    line.trim()
                ),
            })?;
            move_number = n;
            side = s;
            steps_taken = line
                .split_whitespace()
                .skip(1)
                .collect::<Vec<_>>()
                .join(" ");
            move_line = first + 1;
            frame = next_text(first + 1).ok_or_else(|| ParseError::Line {
                line: lines.len(),
                reason: format!(
                    "the file ends after the move line; expected the board frame \"{FRAME}\""
                ),
            })?;
        }
        let pieces = parse_framed(&lines[frame..], frame + 1)?;
        let shown = from_pieces(side, &pieces)?;
        let position = if steps_taken.is_empty() {
            shown
        } else {
            rebuild_mid_turn(&shown, &steps_taken, move_number, move_line)?
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
    line: usize,
) -> Result<Position, RecordError> {
    let label = format!("{move_number}{}", shown.side().letter());
    let fail = |reason: String| RecordError::Move {
        label: label.clone(),
        line,
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
        let token = Token::parse(word).map_err(|e| RecordError::Move {
            label: label.clone(),
            line,
            error: e.into(),
        })?;
        match token {
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
        line,
        error,
    })?;
    if after.board_key() != shown.board_key() {
        return Err(fail("the steps do not lead to the board shown".into()));
    }
    Ok(after)
}

#[cfg(test)]
mod tests {
    use super::*;

    const SETUPS: &str = "1g Ra1 Rb1 Rc1 Rd1 Re1 Rf1 Rg1 Rh1 Da2 Hb2 Cc2 Md2 Ee2 Cf2 Hg2 Dh2\n\
                          1s ra8 rb8 rc8 rd8 re8 rf8 rg8 rh8 da7 hb7 cc7 md7 ee7 cf7 hg7 dh7\n";

    fn record(moves: &str) -> String {
        format!("Event: test\n\n{SETUPS}{moves}")
    }

    fn replay_error(text: &str, limit: Option<usize>) -> String {
        match Record::parse(text) {
            Err(e) => e.to_string(),
            Ok(rec) => rec.replay_upto(limit).unwrap_err().to_string(),
        }
    }

    #[test]
    fn moves_know_their_lines() {
        let rec = Record::parse(&record("2g Ee2n Ee3n\n\n2s ee7s 3g Ee4n\n")).unwrap();
        let lines: Vec<(String, usize)> = rec.moves.iter().map(|m| (m.label(), m.line)).collect();
        let want = [("1g", 3), ("1s", 4), ("2g", 5), ("2s", 7), ("3g", 7)];
        assert_eq!(lines, want.map(|(l, n)| (l.to_string(), n)));
    }

    #[test]
    fn a_record_ending_in_resigns_replays_up_to_it_and_says_so() {
        let rec = Record::parse(&record("2g Ee2n Ee3n\n2s resigns\n")).unwrap();
        let r = rec.replay_upto(None).unwrap();
        assert_eq!(r.game.move_label(), "2s");
        let end = r.ended_by.unwrap();
        assert_eq!(
            (end.label(), end.text.as_str(), end.line),
            ("2s".into(), "resigns", 6)
        );
        // Up to the move before it, nothing ends early; up to it, it is reported.
        assert!(rec.replay_upto(Some(3)).unwrap().ended_by.is_none());
        assert!(rec.replay_upto(Some(4)).unwrap().ended_by.is_some());
        // An empty last move ends the record too.
        let rec = Record::parse(&record("2g Ee2n Ee3n\n2s\n")).unwrap();
        let r = rec.replay_upto(None).unwrap();
        assert_eq!(r.ended_by.map(|m| m.line), Some(6));
        // A record without such an ending plays every move.
        let rec = Record::parse(&record("2g Ee2n Ee3n\n2s ee7s\n")).unwrap();
        let r = rec.replay_upto(None).unwrap();
        assert!(r.ended_by.is_none());
        assert_eq!(r.game.move_label(), "3g");
    }

    #[test]
    fn record_structure_faults_are_named() {
        let cases = [
            (
                record("2g Ee2n Ee3n\n2s resigns\n3g Ee4n\n"),
                "line 7: move 3g follows \"2s resigns\" on line 6, which ends the record",
            ),
            (
                record("2g Ee2n Ee3n\n2s lost\n3g\n"),
                "line 7: move 3g follows \"2s lost\" on line 6, which ends the record",
            ),
            (
                record("2g\n2s ee7s\n"),
                "line 5: move 2g is empty; only the last move of a record may be empty",
            ),
            (
                record("2g Ee2n\n2s resigns now\n"),
                "move 2s: token \"resigns now\": \"resigns\" must stand alone (line 6)",
            ),
            (
                record("2g Ee2n Ee3n garbage\n"),
                "move 2g: token \"garbage\": expected a step like Ed2n, a capture like rc3x or a placement like Ra1 (line 5)",
            ),
            (
                record("2g Ee2n\n3g Ee3n\n"),
                "move 3g: token \"3g\": expected move 2s (line 6)",
            ),
            (
                record("2g Ee2n\n2s ee7s\n3g Ee3n\n3s takeback\n3s takeback\n3g Ee3n\n"),
                "move 3s: token \"3s\": expected move 3g (line 9)",
            ),
            (
                "1g takeback\n".to_string(),
                "move 1g: token \"takeback\": there is no move to take back (line 1)",
            ),
            (
                record("2g Ee2n Ee3n\n2s ee7s Ee4n\n"),
                "move 2s: step 2 \"Ee4n\": an elephant cannot be pushed or pulled (line 6)",
            ),
            (
                "Chat: -=+=-\nhello\n".to_string(),
                "line 1: tag Chat: no closing -=+=- line before the end of the file",
            ),
            (
                "Event: x\nRa1 1g\n".to_string(),
                "line 2, column 1: expected a move label like 2g at the start of the line, found \"Ra1\"",
            ),
            (
                record("2g Ee2n\n  Ee3n\n"),
                "line 6, column 3: expected a move label like 2g at the start of the line, found \"Ee3n\"",
            ),
        ];
        for (text, want) in cases {
            assert_eq!(replay_error(&text, None), want, "{text}");
        }
        // Takebacks that fit the numbering are played.
        let text = record("2g Ee2n\n2s ee7s\n3g Ee3n\n3s takeback\n3g takeback\n2s ee7s\n");
        let game = Record::parse(&text).unwrap().replay(None).unwrap();
        assert_eq!(game.move_label(), "3g");
    }

    #[test]
    fn a_limit_beyond_the_record_is_an_error() {
        let rec = Record::parse(&record("2g Ee2n Ee3n\n2s resigns\n")).unwrap();
        assert!(rec.replay(Some(4)).is_ok());
        assert_eq!(
            rec.replay(Some(5)).unwrap_err().to_string(),
            "asked for the first 5 moves, but the record has only 4"
        );
    }

    const BOARD: &str = " +-----------------+\n8| r r r r r r r r |\n7| d h c e m c h d |\n\
                         6| . . x . . x . . |\n5| . . . . . . . . |\n4| . . . . . . . . |\n\
                         3| . . x . . x . . |\n2| D H C M E C H D |\n1| R R R R R R R R |\n\
                         +-----------------+\n   a b c d e f g h\n";

    #[test]
    fn position_file_header_faults_are_named() {
        let ok = PositionFile::parse(&format!("\n2s\n\n{BOARD}")).unwrap();
        assert_eq!((ok.move_number, ok.position.side()), (2, Color::Silver));
        let cases = [
            (
                format!("2g\n3g\n{BOARD}"),
                "line 2, column 1: expected the top frame \"+-----------------+\", found \"3g\"",
            ),
            (
                format!("  Position after 2g:\n{BOARD}"),
                "line 1, column 3: expected a move label like 7g or the board frame \"+-----------------+\", found \"Position after 2g:\"",
            ),
            ("\n \n".to_string(), "line 1: the file is empty; expected an optional move line like 7g, then the framed board"),
            ("2g\n\n".to_string(), "line 2: the file ends after the move line; expected the board frame \"+-----------------+\""),
            (
                format!("\n2g Ee2n Qe3n\n{BOARD}"),
                "move 2g: token \"Qe3n\": 'Q' is not a piece letter (RCDHME or rcdhme) (line 2)",
            ),
            (
                format!("2g\n{BOARD}2g Ee2n\n"),
                "line 13, column 1: unexpected text \"2g Ee2n\" after the board",
            ),
        ];
        for (text, want) in cases {
            assert_eq!(
                PositionFile::parse(&text).unwrap_err().to_string(),
                want,
                "{text}"
            );
        }
    }
}
