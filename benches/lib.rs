//! Positions shared by the benchmarks.

use tusk_engine::notation::board::parse_aei;
use tusk_engine::Position;

/// The standard opening position.
pub const START: &str = tusk_engine::notation::board::STANDARD_OPENING;
/// The published mid-game position (101,363 distinct turns).
pub const MIDGAME: &str = "g [ D      c   r HcR   M r rC  r R r  r E R R C  R R    D      R  R]";

/// Parses one of the constants above.
pub fn position(text: &str) -> Position {
    parse_aei(text).expect("benchmark positions are valid")
}

/// The first `n` positions of `tests/data/turn_counts.txt` (the pyrimaa fixtures).
pub fn fixture_positions(n: usize) -> Vec<Position> {
    tusk_tests::turn_counts()
        .into_iter()
        .take(n)
        .map(|t| t.position)
        .collect()
}
