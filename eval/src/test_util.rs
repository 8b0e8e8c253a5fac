//! Hand-built positions for the unit tests.

use tusk_engine::notation::board::from_pieces;
use tusk_engine::{Color, Piece, Position, Square, StepList};

/// A position with `side` (`"g"` or `"s"`) to move and the listed pieces (letter, square).
pub fn pos(side: &str, pieces: &[(&str, &str)]) -> Position {
    let side = Color::from_letter(side.chars().next().expect("side letter")).expect("side");
    let list: Vec<(Piece, Square)> = pieces
        .iter()
        .map(|(p, s)| {
            (
                Piece::from_letter(p.chars().next().expect("piece letter")).expect("piece"),
                Square::parse(s).expect("square"),
            )
        })
        .collect();
    from_pieces(side, &list).expect("valid test position")
}

/// A full opening position whose silver army mirrors gold's exactly, gold to move.
pub fn opening() -> Position {
    let back = "RRRDDRRR";
    let front = "RHCMECHR";
    let mut list = Vec::new();
    for (rank, row) in [(0u8, back), (1, front)] {
        for (file, c) in row.chars().enumerate() {
            let p = Piece::from_letter(c).expect("piece");
            list.push((p, Square::new(file as u8, rank)));
            list.push((p.flip_color(), Square::new(file as u8, 7 - rank)));
        }
    }
    from_pieces(Color::Gold, &list).expect("valid opening")
}

/// The worked position of the rules walk-through (seed 000 / 004), with `side` to move.
pub fn seed_diagram(side: &str) -> Position {
    pos(
        side,
        &[
            ("r", "h8"),
            ("r", "a7"),
            ("R", "b7"),
            ("c", "c7"),
            ("d", "f7"),
            ("r", "g7"),
            ("D", "a6"),
            ("d", "b6"),
            ("H", "d6"),
            ("e", "d5"),
            ("r", "c4"),
            ("r", "f4"),
            ("D", "b3"),
            ("r", "c3"),
            ("E", "d3"),
            ("R", "e3"),
            ("R", "g3"),
            ("h", "c2"),
            ("r", "d2"),
            ("h", "f2"),
            ("C", "c1"),
            ("C", "d1"),
            ("R", "e1"),
            ("R", "f1"),
            ("R", "g1"),
            ("R", "h1"),
        ],
    )
}

/// Step `i` of the tests' deterministic walk from a position: the turn ends where it may and
/// `i` is a multiple of three (or no step is legal), else the `(7 i mod n)`-th legal step is
/// played. `list` is scratch space.
pub fn walk_step(p: &mut Position, i: usize, list: &mut StepList) {
    p.legal_steps(list);
    if list.is_empty() || (p.can_end_turn() && i.is_multiple_of(3)) {
        p.end_turn();
    } else {
        p.play_step_unchecked(list[(i * 7) % list.len()]);
    }
}
