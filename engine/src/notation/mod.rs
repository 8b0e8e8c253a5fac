//! The official Arimaa notation, kept apart from legality where it can be.
//!
//! * [`token`]: one step (`Ed2n`), capture (`rc3x`) or placement (`Ra1`) token, read alone.
//! * [`turn`]: a turn or setup checked against a position; printing always writes capture
//!   tokens, reading accepts them or their absence (a present one must be right).
//! * [`board`]: the AEI `[64 cells]` board and the framed position file.
//! * [`record`]: whole game records with tags.
//! * [`text`]: files read as bytes, with the line and column of a byte that is not UTF-8.
//!
//! Tolerances: `w`/`b` are read as `g`/`s`; in boards (AEI and framed) `.` marks an empty
//! cell and `x`/`X` an empty trap (only on a trap); placements may come in any order.
//! Otherwise input is read strictly, and every error names where it is: the line and column
//! (framed boards, files), the move and token (records, move lines), or the cell (AEI boards).

pub mod board;
pub mod record;
pub mod text;
pub mod token;
pub mod turn;
