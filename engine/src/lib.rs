//! # tusk-engine
//!
//! The rules of Arimaa at step granularity: a bitboard [`Position`], legal [`Step`]
//! generation, make/undo with trap captures, Zobrist hashing, distinct-turn enumeration,
//! the [`Game`] with its repetition and end-of-game rules, setups, and the official notation.
//!
//! Squares are indexed `rank * 8 + file` (a1 = 0, h8 = 63). Directions are named from gold's
//! side. Nothing here panics on input: every parser returns a typed error naming the bad token.

#![forbid(unsafe_code)]

mod bitboard;
mod color;
pub mod error;
mod game;
mod make;
mod movegen;
mod moves;
pub mod notation;
pub mod perft;
mod piece;
mod position;
pub mod setup;
mod square;
mod step;
mod turns;
pub mod zobrist;

pub use bitboard::{Bitboard, ADJACENT_TRAP, NEIGHBOURS};
pub use color::{ByColor, Color};
pub use error::{ParseError, PositionError, StepError, TurnError};
pub use game::{turn_boundary_result, EndReason, Game, GameResult};
pub use make::{StepUndo, TurnUndo};
pub use movegen::StepMask;
pub use moves::{Move, Placement, Setup, Turn};
pub use piece::{Piece, PieceKind};
pub use position::{Pending, Position};
pub use square::{Direction, Square};
pub use step::{Step, StepList};
pub use turns::{TurnGen, TurnVisit};
