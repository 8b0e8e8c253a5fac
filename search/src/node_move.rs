//! The search's node moves: one step, a push or pull as one two-step move, or a pass that ends
//! the turn. Packed into 32 bits for the transposition table.

use tusk_engine::{Direction, Square, Step};

/// A node move. `NodeMove::NONE` is the absence of a move (an empty hash move).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct NodeMove(u32);

const KIND_NONE: u32 = 0;
const KIND_ONE: u32 = 1;
const KIND_TWO: u32 = 2;
const KIND_PASS: u32 = 3;

#[inline]
fn code(s: Step) -> u32 {
    (s.from().index() as u32) << 2 | s.dir() as u32
}

#[inline]
fn decode(c: u32) -> Step {
    let from = Square::from_index((c >> 2) as u8 & 63);
    let dir = Direction::ALL[(c & 3) as usize];
    // Codes only ever come from real steps, so the step stays on the board; a corrupt code
    // (impossible: the TT rejects mismatched entries) falls back to a harmless step.
    Step::try_new(from, dir)
        .unwrap_or_else(|| Step::try_new(Square::from_index(0), Direction::North).expect("a1n"))
}

impl NodeMove {
    /// No move.
    pub const NONE: NodeMove = NodeMove(KIND_NONE);
    /// Ending the turn now (the board has changed and no push is half done).
    pub const PASS: NodeMove = NodeMove(KIND_PASS);

    /// A single step.
    #[inline]
    pub fn one(s: Step) -> NodeMove {
        NodeMove(KIND_ONE | code(s) << 2)
    }

    /// Two steps as one move: a push (enemy step, then the pusher), or a step and the pull it
    /// allows.
    #[inline]
    pub fn two(a: Step, b: Step) -> NodeMove {
        NodeMove(KIND_TWO | code(a) << 2 | code(b) << 10)
    }

    /// The packed value (fits in 18 bits).
    #[inline]
    pub const fn bits(self) -> u32 {
        self.0
    }

    /// The move from packed bits.
    #[inline]
    pub const fn from_bits(bits: u32) -> NodeMove {
        NodeMove(bits & 0x3_FFFF)
    }

    /// Whether this is no move.
    #[inline]
    pub const fn is_none(self) -> bool {
        self.0 & 3 == KIND_NONE
    }

    /// Whether this is a pass.
    #[inline]
    pub const fn is_pass(self) -> bool {
        self.0 & 3 == KIND_PASS
    }

    /// Steps this move takes (0 for a pass or no move).
    #[inline]
    pub const fn len(self) -> u32 {
        match self.0 & 3 {
            KIND_ONE => 1,
            KIND_TWO => 2,
            _ => 0,
        }
    }

    /// The first step (for one- and two-step moves).
    #[inline]
    pub fn first(self) -> Step {
        decode(self.0 >> 2 & 0xFF)
    }

    /// The second step (for two-step moves).
    #[inline]
    pub fn second(self) -> Step {
        decode(self.0 >> 10 & 0xFF)
    }

    /// A small index for history tables: the first step's code plus, for two-step moves, 256.
    #[inline]
    pub fn history_index(self) -> usize {
        match self.0 & 3 {
            KIND_ONE => (self.0 >> 2 & 0xFF) as usize,
            KIND_TWO => 256 + (self.0 >> 2 & 0xFF) as usize,
            _ => 512,
        }
    }
}

/// Size of a history table indexed by [`NodeMove::history_index`].
pub const HISTORY_SIZE: usize = 513;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packing_round_trips() {
        let a = Step::try_new(Square::from_index(12), Direction::North).unwrap();
        let b = Step::try_new(Square::from_index(63), Direction::West).unwrap();
        let m = NodeMove::two(a, b);
        assert_eq!(NodeMove::from_bits(m.bits()), m);
        assert_eq!((m.first(), m.second(), m.len()), (a, b, 2));
        let o = NodeMove::one(b);
        assert_eq!((o.first(), o.len()), (b, 1));
        assert!(NodeMove::PASS.is_pass() && NodeMove::PASS.len() == 0);
        assert!(NodeMove::NONE.is_none());
        assert!(m.bits() < 1 << 18);
    }
}
