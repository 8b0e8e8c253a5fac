//! Board formats: the AEI `[64 cells]` string and the framed position file.

use crate::error::{ParseError, PositionError};
use crate::{Color, Piece, PieceKind, Position, Square};

/// Writes the board as `[` + 64 cells + `]`, rank 8 first, a to h, space for empty.
pub fn to_aei(pos: &Position) -> String {
    let mut s = String::with_capacity(66);
    s.push('[');
    for rank in (0..8).rev() {
        for file in 0..8 {
            s.push(
                pos.piece_at(Square::new(file, rank))
                    .map_or(' ', |p| p.letter()),
            );
        }
    }
    s.push(']');
    s
}

/// Writes `<side> [64 cells]`, the form `setposition` and `tusk moves` read.
pub fn to_aei_with_side(pos: &Position) -> String {
    format!("{} {}", pos.side().letter(), to_aei(pos))
}

/// Checks that a board could occur in a game: no side has more pieces of a kind than it
/// owns, and no piece stands unguarded on a trap. Reports the first fault found.
pub fn validate(pos: &Position) -> Result<(), PositionError> {
    for color in Color::ALL {
        for kind in PieceKind::ALL {
            let count = pos.count(color, kind);
            if count > kind.initial_count() {
                return Err(PositionError::TooMany {
                    color,
                    kind,
                    count,
                    max: kind.initial_count(),
                });
            }
        }
    }
    if let Some(square) = pos.unguarded_on_traps().first() {
        if let Some(piece) = pos.piece_at(square) {
            return Err(PositionError::UnguardedOnTrap { square, piece });
        }
    }
    Ok(())
}

/// Builds a turn-start position from a list of pieces, and validates it.
pub fn from_pieces(side: Color, pieces: &[(Piece, Square)]) -> Result<Position, PositionError> {
    let mut pos = Position::empty(side);
    for &(p, sq) in pieces {
        if let Some(other) = pos.piece_at(sq) {
            return Err(ParseError::Board(format!(
                "{sq} holds both {} and {}",
                other.describe(),
                p.describe()
            ))
            .into());
        }
        pos.put(p, sq);
    }
    let key = pos.board_key();
    pos.set_turn_start(key);
    validate(&pos)?;
    Ok(pos)
}

/// Reads the 64 cells between brackets (`[`...`]`), which may contain runs of spaces.
pub fn parse_aei_board(side: Color, text: &str) -> Result<Position, PositionError> {
    let open = text
        .find('[')
        .ok_or_else(|| ParseError::Board("missing '[' before the 64 cells".into()))?;
    let close = text[open..]
        .find(']')
        .map(|i| i + open)
        .ok_or_else(|| ParseError::Board("missing ']' after the 64 cells".into()))?;
    let trailing = text[close + 1..].trim();
    if !trailing.is_empty() {
        return Err(ParseError::Board(format!("unexpected text \"{trailing}\" after ']'")).into());
    }
    let cells: Vec<char> = text[open + 1..close].chars().collect();
    if cells.len() != 64 {
        return Err(ParseError::Board(format!(
            "expected 64 cells between '[' and ']', found {}",
            cells.len()
        ))
        .into());
    }
    let mut pieces = Vec::with_capacity(32);
    for (i, &c) in cells.iter().enumerate() {
        let sq = Square::new((i % 8) as u8, 7 - (i / 8) as u8);
        match c {
            ' ' | '.' => {}
            'x' | 'X' if sq.is_trap() => {}
            _ => {
                let p = Piece::from_letter(c).ok_or_else(|| {
                    ParseError::Board(format!(
                        "cell {} ({sq}): '{c}' is not a piece letter or space",
                        i + 1
                    ))
                })?;
                pieces.push((p, sq));
            }
        }
    }
    from_pieces(side, &pieces)
}

/// Reads `<side> [64 cells]` (side `g`/`s`, or the old `w`/`b`).
pub fn parse_aei(text: &str) -> Result<Position, PositionError> {
    let t = text.trim_start();
    let (side_text, rest) = t.split_once(' ').unwrap_or((t, ""));
    let mut cs = side_text.chars();
    let side = match (cs.next(), cs.next()) {
        (Some(c), None) => Color::from_letter(c),
        _ => None,
    }
    .ok_or_else(|| ParseError::Side(side_text.to_string()))?;
    parse_aei_board(side, rest)
}

/// Writes the framed board of the notation document (without a move line).
pub fn to_framed(pos: &Position) -> String {
    let mut s = String::new();
    s.push_str(" +-----------------+\n");
    for rank in (0..8u8).rev() {
        s.push_str(&format!("{}|", rank + 1));
        for file in 0..8 {
            let sq = Square::new(file, rank);
            let c = match pos.piece_at(sq) {
                Some(p) => p.letter(),
                None if sq.is_trap() => 'x',
                None => '.',
            };
            s.push(' ');
            s.push(c);
        }
        s.push_str(" |\n");
    }
    s.push_str(" +-----------------+\n");
    s.push_str("   a b c d e f g h\n");
    s
}

/// Reads the framed board: 8 lines `N| c c c c c c c c |` between `+---+` lines, cells being
/// piece letters, spaces, `.` or `x`/`X`. `lines` start at the top frame; `first_line` is the
/// 1-based number of that line in the file, for error messages. Returns the pieces.
pub fn parse_framed(lines: &[&str], first_line: usize) -> Result<Vec<(Piece, Square)>, ParseError> {
    let err = |i: usize, reason: String| ParseError::Line {
        line: first_line + i,
        reason,
    };
    let top = lines
        .first()
        .ok_or_else(|| err(0, "missing the board frame".into()))?;
    if !top.trim().starts_with('+') {
        return Err(err(
            0,
            format!(
                "expected the top frame \" +-----------------+\", found \"{}\"",
                top.trim_end()
            ),
        ));
    }
    let mut pieces = Vec::new();
    for r in 0..8 {
        let i = r + 1;
        let line = lines
            .get(i)
            .ok_or_else(|| err(i, "the board ends before rank 1".into()))?;
        let rank = 8 - r as u8;
        let t = line.trim_start();
        let (label, rest) = t.split_once('|').ok_or_else(|| {
            err(
                i,
                format!("expected \"{rank}| ... |\", found \"{}\"", line.trim_end()),
            )
        })?;
        if label.trim() != rank.to_string() {
            return Err(err(
                i,
                format!("expected rank {rank}, found \"{}\"", label.trim()),
            ));
        }
        let cells: Vec<char> = rest.chars().collect();
        for file in 0..8u8 {
            let c = cells.get(1 + 2 * file as usize).copied().unwrap_or(' ');
            let sq = Square::new(file, rank - 1);
            match c {
                ' ' | '.' | 'x' | 'X' => {}
                _ => {
                    let p = Piece::from_letter(c).ok_or_else(|| {
                        err(
                            i,
                            format!("{sq}: '{c}' is not a piece letter, space, '.' or 'x'"),
                        )
                    })?;
                    pieces.push((p, sq));
                }
            }
        }
    }
    let bottom = lines
        .get(9)
        .ok_or_else(|| err(9, "missing the bottom frame".into()))?;
    if !bottom.trim().starts_with('+') {
        return Err(err(
            9,
            format!("expected the bottom frame, found \"{}\"", bottom.trim_end()),
        ));
    }
    Ok(pieces)
}

#[cfg(test)]
mod tests {
    use super::*;

    const START: &str = "g [rrrrrrrrdhcemchd                                DHCMECHDRRRRRRRR]";

    #[test]
    fn aei_round_trip() {
        let p = parse_aei(START).unwrap();
        assert_eq!(to_aei_with_side(&p), START);
        assert_eq!(p.count(Color::Gold, PieceKind::Rabbit), 8);
        assert_eq!(
            p.piece_at(Square::parse("e2").unwrap()),
            Piece::from_letter('E')
        );
        assert_eq!(
            p.piece_at(Square::parse("d7").unwrap()),
            Piece::from_letter('e')
        );
    }

    #[test]
    fn aei_old_side_letters() {
        let w = parse_aei(&START.replacen('g', "w", 1)).unwrap();
        assert_eq!(w.side(), Color::Gold);
        let b = parse_aei(&START.replacen('g', "b", 1)).unwrap();
        assert_eq!(b.side(), Color::Silver);
    }

    #[test]
    fn aei_errors_name_the_fault() {
        let e = parse_aei("g [rr]").unwrap_err().to_string();
        assert!(e.contains("found 2"), "{e}");
        let e = parse_aei(&START.replace("rrrrrrrrd", "rrrrrrrrQ"))
            .unwrap_err()
            .to_string();
        assert!(e.contains("cell 9 (a7)") && e.contains("'Q'"), "{e}");
        let e = parse_aei(&START.replace("[", "")).unwrap_err().to_string();
        assert!(e.contains("'['"), "{e}");
        let e = parse_aei(&START.replacen('g', "q", 1))
            .unwrap_err()
            .to_string();
        assert!(e.contains("\"q\" is not a side"), "{e}");
        let e = parse_aei(&START.replace("DHCMECHD", "DHCMECHR"))
            .unwrap_err()
            .to_string();
        assert!(e.contains("9 rabbits"), "{e}");
    }

    #[test]
    fn unguarded_trap_piece_is_rejected() {
        let mut cells = vec![' '; 64];
        // c3 is index (8-3)*8+2 = 42.
        cells[42] = 'R';
        let text = format!("g [{}]", cells.iter().collect::<String>());
        let e = parse_aei(&text).unwrap_err().to_string();
        assert!(e.contains("trap c3"), "{e}");
        cells[43] = 'C'; // d3 guards it
        let text = format!("g [{}]", cells.iter().collect::<String>());
        assert!(parse_aei(&text).is_ok());
    }

    #[test]
    fn framed_round_trip() {
        let p = parse_aei(START).unwrap();
        let text = to_framed(&p);
        let lines: Vec<&str> = text.lines().collect();
        let pieces = parse_framed(&lines, 1).unwrap();
        let q = from_pieces(Color::Gold, &pieces).unwrap();
        assert_eq!(p, q);
    }
}
