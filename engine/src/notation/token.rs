//! Single tokens of move notation, read without a board.

use crate::error::ParseError;
use crate::{Direction, Piece, Square};

/// One token of a move: a step, a capture record, or a setup placement.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Token {
    /// `Ed2n`: the piece on the square steps in the direction.
    Step {
        /// The piece letter written.
        piece: Piece,
        /// The from-square.
        from: Square,
        /// The direction.
        dir: Direction,
    },
    /// `rc3x`: the piece was captured on the trap.
    Capture {
        /// The captured piece.
        piece: Piece,
        /// The trap.
        square: Square,
    },
    /// `Ra1`: the piece is placed on the square (setup).
    Place {
        /// The piece.
        piece: Piece,
        /// The square.
        square: Square,
    },
}

fn bad(token: &str, reason: impl Into<String>) -> ParseError {
    ParseError::Token {
        token: token.to_string(),
        reason: reason.into(),
    }
}

impl Token {
    /// Reads one token.
    pub fn parse(text: &str) -> Result<Token, ParseError> {
        let chars: Vec<char> = text.chars().collect();
        if chars.len() < 3 || chars.len() > 4 {
            return Err(bad(
                text,
                "expected a step like Ed2n, a capture like rc3x or a placement like Ra1",
            ));
        }
        let piece = Piece::from_letter(chars[0]).ok_or_else(|| {
            bad(
                text,
                format!("'{}' is not a piece letter (RCDHME or rcdhme)", chars[0]),
            )
        })?;
        let sq_text: String = chars[1..3].iter().collect();
        let square = Square::parse(&sq_text)
            .ok_or_else(|| bad(text, format!("\"{sq_text}\" is not a square (a1..h8)")))?;
        if chars.len() == 3 {
            return Ok(Token::Place { piece, square });
        }
        match chars[3] {
            'x' => {
                if !square.is_trap() {
                    return Err(bad(
                        text,
                        format!("{square} is not a trap, nothing can be captured there"),
                    ));
                }
                Ok(Token::Capture { piece, square })
            }
            c => {
                let dir = Direction::from_letter(c).ok_or_else(|| {
                    bad(text, format!("'{c}' is not a direction (n, s, e, w) or x"))
                })?;
                if square.step(dir).is_none() {
                    return Err(bad(
                        text,
                        format!(
                            "{square} has no neighbour to the {}",
                            match dir {
                                Direction::North => "north",
                                Direction::South => "south",
                                Direction::East => "east",
                                Direction::West => "west",
                            }
                        ),
                    ));
                }
                Ok(Token::Step {
                    piece,
                    from: square,
                    dir,
                })
            }
        }
    }
}

impl std::fmt::Display for Token {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            Token::Step { piece, from, dir } => write!(f, "{piece}{from}{}", dir.letter()),
            Token::Capture { piece, square } => write!(f, "{piece}{square}x"),
            Token::Place { piece, square } => write!(f, "{piece}{square}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_round_trip() {
        for t in ["Ed2n", "hd7s", "rc3x", "Ra1", "mh8w", "Ca1e"] {
            assert_eq!(Token::parse(t).unwrap().to_string(), t);
        }
    }

    #[test]
    fn bad_tokens_say_why() {
        let e = Token::parse("Zd2n").unwrap_err().to_string();
        assert!(e.contains("not a piece letter"), "{e}");
        let e = Token::parse("Ed9n").unwrap_err().to_string();
        assert!(e.contains("not a square"), "{e}");
        let e = Token::parse("Ed2q").unwrap_err().to_string();
        assert!(e.contains("not a direction"), "{e}");
        let e = Token::parse("Ea1w").unwrap_err().to_string();
        assert!(e.contains("no neighbour"), "{e}");
        let e = Token::parse("rd3x").unwrap_err().to_string();
        assert!(e.contains("not a trap"), "{e}");
        assert!(Token::parse("Eé2n").is_err());
    }
}
