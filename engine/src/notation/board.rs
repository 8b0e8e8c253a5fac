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

/// Reads `[` 64 cells `]`, rank 8 first, a to h. A cell is a piece letter, a space (or `.`)
/// for an empty square, or `x`/`X` for an empty trap. Only whitespace may stand before `[`
/// and after `]`. Errors name the cell by its number (1 to 64) and square.
pub fn parse_aei_board(side: Color, text: &str) -> Result<Position, PositionError> {
    let open = text
        .find('[')
        .ok_or_else(|| ParseError::Board("missing '[' before the 64 cells".into()))?;
    let before = text[..open].trim();
    if !before.is_empty() {
        return Err(ParseError::Board(format!("unexpected text \"{before}\" before '['")).into());
    }
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
        let cell = |reason: String| ParseError::Board(format!("cell {} ({sq}): {reason}", i + 1));
        if let Some(p) = read_cell(c, sq).map_err(cell)? {
            pieces.push((p, sq));
        }
    }
    from_pieces(side, &pieces)
}

/// Reads one board cell on `sq`: a piece, or nothing for a space, `.`, or `x`/`X` on a trap.
fn read_cell(c: char, sq: Square) -> Result<Option<Piece>, String> {
    match c {
        ' ' | '.' => Ok(None),
        'x' | 'X' if sq.is_trap() => Ok(None),
        'x' | 'X' => Err(format!(
            "'{c}' marks an empty trap, but {sq} is not a trap (c3, f3, c6, f6)"
        )),
        _ => Piece::from_letter(c).map(Some).ok_or_else(|| {
            format!("{c:?} is not a piece letter (RCDHME, rcdhme) or an empty cell (space, '.')")
        }),
    }
}

/// Reads `<side> [64 cells]` (side `g`/`s`, or the old `w`/`b`), see [`parse_aei_board`].
pub fn parse_aei(text: &str) -> Result<Position, PositionError> {
    let t = text.trim_start();
    let end = t
        .find(|c: char| c.is_whitespace() || c == '[')
        .unwrap_or(t.len());
    let side_text = &t[..end];
    if side_text.is_empty() {
        return Err(if t.is_empty() {
            ParseError::Empty
        } else {
            ParseError::Side(String::new())
        }
        .into());
    }
    let mut cs = side_text.chars();
    let side = match (cs.next(), cs.next()) {
        (Some(c), None) => Color::from_letter(c),
        _ => None,
    }
    .ok_or_else(|| ParseError::Side(side_text.to_string()))?;
    parse_aei_board(side, &t[end..])
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

/// The standard opening position as AEI writes it (gold to move, the setups of the rules'
/// diagram): the default position of every command that takes one.
pub const STANDARD_OPENING: &str =
    "g [rrrrrrrrdhcemchd                                DHCMECHDRRRRRRRR]";

/// The frame line above and below the ranks of a framed board (after its indentation).
pub const FRAME: &str = "+-----------------+";
/// The optional footer line under a framed board, naming the files (after its indentation).
pub const FILE_LETTERS: &str = "a b c d e f g h";

/// Where a framed-board fault is: `index` into the lines given, a 1-based column.
struct Fault {
    index: usize,
    column: usize,
    reason: String,
}

/// The line without its trailing whitespace, as characters, and the width of its indentation.
fn split_indent(line: &str) -> (Vec<char>, usize) {
    let chars: Vec<char> = line.trim_end().chars().collect();
    let indent = chars.iter().take_while(|c| c.is_whitespace()).count();
    (chars, indent)
}

fn show(c: Option<&char>) -> String {
    c.map_or_else(|| "the end of the line".to_string(), |c| format!("{c:?}"))
}

/// Checks that line `index` is exactly `expected` after its indentation; else names the first
/// column that differs.
fn expect_line(lines: &[&str], index: usize, expected: &str, what: &str) -> Result<(), Fault> {
    let Some(line) = lines.get(index) else {
        return Err(Fault {
            index: index.min(lines.len()),
            column: 1,
            reason: format!("the board ends here; expected {what} \"{expected}\""),
        });
    };
    let (chars, indent) = split_indent(line);
    let found = &chars[indent..];
    let want: Vec<char> = expected.chars().collect();
    if found == want.as_slice() {
        return Ok(());
    }
    let at = found.iter().zip(&want).take_while(|(a, b)| a == b).count();
    Err(Fault {
        index,
        column: indent + at + 1,
        reason: format!(
            "expected {what} \"{expected}\", found \"{}\"",
            found.iter().collect::<String>()
        ),
    })
}

/// Reads rank line `index` (`8| c c c c c c c c |`), appending its pieces.
fn read_rank(
    lines: &[&str],
    index: usize,
    rank: u8,
    pieces: &mut Vec<(Piece, Square)>,
) -> Result<(), Fault> {
    let Some(line) = lines.get(index) else {
        return Err(Fault {
            index: index.min(lines.len()),
            column: 1,
            reason: format!("the board ends before rank {rank}"),
        });
    };
    let (chars, indent) = split_indent(line);
    let c = &chars[indent..];
    let fault = |i: usize, reason: String| Fault {
        index,
        column: indent + i + 1,
        reason,
    };
    let label = char::from(b'0' + rank);
    if c.first() != Some(&label) {
        return Err(fault(
            0,
            format!(
                "expected the rank {rank} line \"{label}| . . . . . . . . |\", found \"{}\"",
                c.iter().collect::<String>()
            ),
        ));
    }
    if c.get(1) != Some(&'|') {
        return Err(fault(
            1,
            format!(
                "expected '|' after the rank label, found {}",
                show(c.get(1))
            ),
        ));
    }
    for file in 0..8u8 {
        let sq = Square::new(file, rank - 1);
        let gap = 2 + 2 * usize::from(file);
        if let Some(i) = (gap..gap + 2).find(|&i| c.get(i) == Some(&'|')) {
            return Err(fault(
                i,
                format!("rank {rank} closes after {file} cells; a rank has 8 cells, then \" |\""),
            ));
        }
        if c.len() <= gap + 1 {
            return Err(fault(
                c.len(),
                format!("the line ends before the {sq} cell; a rank has 8 cells, then \" |\""),
            ));
        }
        if c[gap] != ' ' {
            return Err(fault(
                gap,
                format!(
                    "expected a space before the {sq} cell (cells stand in every other column), found {:?}",
                    c[gap]
                ),
            ));
        }
        let cell = c[gap + 1];
        if let Some(p) = read_cell(cell, sq).map_err(|r| fault(gap + 1, format!("{sq}: {r}")))? {
            pieces.push((p, sq));
        }
    }
    if c.get(18) != Some(&' ') || c.get(19) != Some(&'|') {
        let i = if c.get(18) == Some(&' ') { 19 } else { 18 };
        return Err(fault(
            i,
            format!(
                "expected \" |\" after the 8 cells of rank {rank}, found {}",
                show(c.get(i))
            ),
        ));
    }
    if c.len() > 20 {
        return Err(fault(
            20,
            format!(
                "unexpected text \"{}\" after the closing '|'",
                c[20..].iter().collect::<String>()
            ),
        ));
    }
    Ok(())
}

/// Reads the framed board of the notation document, strictly:
///
/// ```text
///  +-----------------+
/// 8| r r r r r r r r |
/// ...
/// 1| R R R R R R R R |
///  +-----------------+
///    a b c d e f g h
/// ```
///
/// `lines` start at the top frame and run to the end of the input; `first_line` is the
/// 1-based number of that line in the file, for error messages. Every line may be indented
/// and may carry trailing whitespace; otherwise the frame lines are exactly [`FRAME`], each
/// rank line is its rank digit, `|`, then for each file a space and a cell (a piece letter,
/// a space or `.` for an empty square, `x`/`X` for an empty trap), then ` |`. The file-letter
/// footer [`FILE_LETTERS`] may follow (after blank lines, if any) and must then be exact;
/// nothing else may follow. Errors name the line and column of the first fault.
pub fn parse_framed(lines: &[&str], first_line: usize) -> Result<Vec<(Piece, Square)>, ParseError> {
    read_framed(lines).map_err(|f| ParseError::At {
        line: first_line + f.index,
        column: f.column,
        reason: f.reason,
    })
}

fn read_framed(lines: &[&str]) -> Result<Vec<(Piece, Square)>, Fault> {
    expect_line(lines, 0, FRAME, "the top frame")?;
    let mut pieces = Vec::with_capacity(32);
    for r in 0..8u8 {
        read_rank(lines, usize::from(r) + 1, 8 - r, &mut pieces)?;
    }
    expect_line(lines, 9, FRAME, "the bottom frame")?;
    let mut rest = (10..lines.len()).filter(|&i| !lines[i].trim().is_empty());
    if let Some(i) = rest.next() {
        expect_line(lines, i, FILE_LETTERS, "the file letters")?;
    }
    if let Some(i) = rest.next() {
        let (_, indent) = split_indent(lines[i]);
        return Err(Fault {
            index: i,
            column: indent + 1,
            reason: format!("unexpected text \"{}\" after the board", lines[i].trim()),
        });
    }
    Ok(pieces)
}

#[cfg(test)]
mod tests {
    use super::*;

    const START: &str = STANDARD_OPENING;

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
    fn aei_refuses_text_before_the_board_and_x_off_traps() {
        let e = parse_aei(&START.replacen("g [", "g junk [", 1))
            .unwrap_err()
            .to_string();
        assert_eq!(e, "board: unexpected text \"junk\" before '['");
        let e = parse_aei(&START.replacen("g [", "g[", 1)).unwrap();
        assert_eq!(to_aei_with_side(&e), START);
        let tab = parse_aei(&START.replacen("g [", "g\t[", 1)).unwrap();
        assert_eq!(to_aei_with_side(&tab), START);
        // Cell 20 is d6, not a trap; cell 19 is c6, a trap.
        let mut cells: Vec<char> = START[3..67].chars().collect();
        cells[19] = 'x';
        let text = format!("g [{}]", cells.iter().collect::<String>());
        let e = parse_aei(&text).unwrap_err().to_string();
        assert_eq!(
            e,
            "board: cell 20 (d6): 'x' marks an empty trap, but d6 is not a trap (c3, f3, c6, f6)"
        );
        cells[19] = ' ';
        cells[18] = 'x';
        let text = format!("g [{}]", cells.iter().collect::<String>());
        assert_eq!(to_aei_with_side(&parse_aei(&text).unwrap()), START);
        cells[18] = '\t';
        let text = format!("g [{}]", cells.iter().collect::<String>());
        let e = parse_aei(&text).unwrap_err().to_string();
        assert!(
            e.starts_with("board: cell 19 (c6): '\\t' is not a piece letter"),
            "{e}"
        );
        assert_eq!(
            parse_aei("  ").unwrap_err().to_string(),
            "the input is empty"
        );
        let e = parse_aei(&format!("{START}]")).unwrap_err().to_string();
        assert_eq!(e, "board: unexpected text \"]\" after ']'");
    }

    /// The opening as a framed board, with one line replaced (0 = top frame, 1 = rank 8, ...).
    fn framed_with(index: usize, line: &str) -> String {
        let mut lines: Vec<String> = to_framed(&parse_aei(START).unwrap())
            .lines()
            .map(str::to_string)
            .collect();
        if index == lines.len() {
            lines.push(line.to_string());
        } else {
            lines[index] = line.to_string();
        }
        lines.join("\n")
    }

    fn framed_error(text: &str) -> String {
        let lines: Vec<&str> = text.lines().collect();
        parse_framed(&lines, 3).unwrap_err().to_string()
    }

    #[test]
    fn framed_board_faults_are_named_by_line_and_column() {
        // Line numbers count from 3: the board's first line is line 3 of the file.
        let cases = [
            // Cells shifted one column left: the gap before a8 holds the a8 cell.
            (1, "8|r r r r r r r r  |", "line 4, column 3: expected a space before the a8 cell (cells stand in every other column), found 'r'"),
            // Shifted right: the a8 cell is a space and b8's gap holds a rabbit.
            (1, "8|  r r r r r r r r|", "line 4, column 5: expected a space before the b8 cell (cells stand in every other column), found 'r'"),
            // A ninth cell.
            (1, "8| r r r r r r r r r |", "line 4, column 20: expected \" |\" after the 8 cells of rank 8, found 'r'"),
            // Seven cells.
            (1, "8| r r r r r r r |", "line 4, column 18: rank 8 closes after 7 cells; a rank has 8 cells, then \" |\""),
            (1, "8| r r r r r r r  ", "line 4, column 17: the line ends before the h8 cell; a rank has 8 cells, then \" |\""),
            // An unknown letter.
            (2, "7| d h c e m c h Q |", "line 5, column 18: h7: 'Q' is not a piece letter (RCDHME, rcdhme) or an empty cell (space, '.')"),
            // 'x' on a square that is not a trap.
            (5, "4| . . . x . . . . |", "line 8, column 10: d4: 'x' marks an empty trap, but d4 is not a trap (c3, f3, c6, f6)"),
            // Ranks out of order.
            (1, "7| r r r r r r r r |", "line 4, column 1: expected the rank 8 line \"8| . . . . . . . . |\", found \"7| r r r r r r r r |\""),
            // No '|' after the label.
            (8, "1 R R R R R R R R |", "line 11, column 2: expected '|' after the rank label, found ' '"),
            // Text after the closing bar.
            (8, "1| R R R R R R R R | R", "line 11, column 21: unexpected text \" R\" after the closing '|'"),
            // A short frame.
            (0, " +----------------+", "line 3, column 19: expected the top frame \"+-----------------+\", found \"+----------------+\""),
            (9, " +-----------------", "line 12, column 20: expected the bottom frame \"+-----------------+\", found \"+-----------------\""),
            // A wrong footer, and text after a right one.
            (10, "   a b c d e f g i", "line 13, column 18: expected the file letters \"a b c d e f g h\", found \"a b c d e f g i\""),
            (11, "2g Ee2n", "line 14, column 1: unexpected text \"2g Ee2n\" after the board"),
        ];
        for (index, line, want) in cases {
            assert_eq!(framed_error(&framed_with(index, line)), want, "{line:?}");
        }
        // The board ends early.
        let text = framed_with(0, " +-----------------+");
        let short: Vec<&str> = text.lines().take(5).collect();
        assert_eq!(
            parse_framed(&short, 1).unwrap_err().to_string(),
            "line 6, column 1: the board ends before rank 4"
        );
    }

    #[test]
    fn framed_board_allows_indentation_trailing_space_and_no_footer() {
        let want = parse_aei(START).unwrap();
        let text = to_framed(&want);
        let indented: String = text.lines().map(|l| format!("\t  {l}   \n")).collect();
        let lines: Vec<&str> = indented.lines().collect();
        let got = from_pieces(Color::Gold, &parse_framed(&lines, 1).unwrap()).unwrap();
        assert_eq!(got, want);
        let lines: Vec<&str> = text.lines().take(10).chain(["", "  "]).collect();
        let got = from_pieces(Color::Gold, &parse_framed(&lines, 1).unwrap()).unwrap();
        assert_eq!(got, want);
        // Spaces, dots and trap marks are all empty cells.
        let spaced = text.replace(". . x . . x . .", "    X     x    ");
        let lines: Vec<&str> = spaced.lines().collect();
        let got = from_pieces(Color::Gold, &parse_framed(&lines, 1).unwrap()).unwrap();
        assert_eq!(got, want);
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
