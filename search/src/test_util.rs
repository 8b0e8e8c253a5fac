//! Helpers shared by the unit tests.

use tusk_engine::notation::board::from_pieces;
use tusk_engine::{Color, Piece, Position, Square};

/// The turn start of `pieces` (letter and square, `('E', "d4")`) with `side` to move.
pub(crate) fn position(side: Color, pieces: &[(char, &str)]) -> Position {
    let list: Vec<(Piece, Square)> = pieces
        .iter()
        .map(|&(p, s)| (Piece::from_letter(p).unwrap(), Square::parse(s).unwrap()))
        .collect();
    from_pieces(side, &list).unwrap()
}
