//! A set of squares as a 64-bit word (bit `i` = square index `i`, a1 = bit 0).

use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not, Sub};

use crate::{Direction, Square};

/// A set of squares. Set operators are bitwise; `-` is set difference.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Bitboard(pub u64);

const NOT_A_FILE: u64 = 0xFEFE_FEFE_FEFE_FEFE;
const NOT_H_FILE: u64 = 0x7F7F_7F7F_7F7F_7F7F;

impl Bitboard {
    /// No squares.
    pub const EMPTY: Bitboard = Bitboard(0);
    /// Every square.
    pub const FULL: Bitboard = Bitboard(!0);
    /// The four traps c3, f3, c6, f6.
    pub const TRAPS: Bitboard = Bitboard((1 << 18) | (1 << 21) | (1 << 42) | (1 << 45));
    /// Rank 1 (silver's goal).
    pub const RANK_1: Bitboard = Bitboard(0xFF);
    /// Rank 8 (gold's goal).
    pub const RANK_8: Bitboard = Bitboard(0xFF << 56);
    /// File a.
    pub const FILE_A: Bitboard = Bitboard(0x0101_0101_0101_0101);
    /// File h.
    pub const FILE_H: Bitboard = Bitboard(0x8080_8080_8080_8080);

    /// The set holding only `sq`.
    #[inline]
    pub const fn from_square(sq: Square) -> Bitboard {
        Bitboard(1 << sq.index())
    }

    /// The set of the given rank (0 = rank 1).
    #[inline]
    pub const fn rank(rank: u8) -> Bitboard {
        Bitboard(0xFF << (8 * (rank as u32 & 7)))
    }

    /// Whether the set is empty.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether the set has at least one square.
    #[inline]
    pub const fn any(self) -> bool {
        self.0 != 0
    }

    /// Whether `sq` is in the set.
    #[inline]
    pub const fn contains(self, sq: Square) -> bool {
        self.0 & (1 << sq.index()) != 0
    }

    /// Number of squares in the set.
    #[inline]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// The lowest square, if any.
    #[inline]
    pub const fn first(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square::from_index(self.0.trailing_zeros() as u8))
        }
    }

    /// Every square moved one step in `dir`; squares that would leave the board vanish.
    #[inline]
    pub const fn shift(self, dir: Direction) -> Bitboard {
        Bitboard(match dir {
            Direction::North => self.0 << 8,
            Direction::South => self.0 >> 8,
            Direction::East => (self.0 & NOT_H_FILE) << 1,
            Direction::West => (self.0 & NOT_A_FILE) >> 1,
        })
    }

    /// Every square orthogonally adjacent to some square of the set (the set itself excluded
    /// unless a member is adjacent to another member).
    #[inline]
    pub const fn neighbours(self) -> Bitboard {
        let b = self.0;
        Bitboard((b << 8) | (b >> 8) | ((b & NOT_H_FILE) << 1) | ((b & NOT_A_FILE) >> 1))
    }

    /// The set with the ranks mirrored (rank r becomes rank 9 - r).
    #[inline]
    pub const fn flip_ranks(self) -> Bitboard {
        Bitboard(self.0.swap_bytes())
    }
}

/// The neighbours of each square, as a table.
pub const NEIGHBOURS: [Bitboard; 64] = {
    let mut t = [Bitboard(0); 64];
    let mut i = 0;
    while i < 64 {
        t[i] = Bitboard(1u64 << i).neighbours();
        i += 1;
    }
    t
};

/// For each square, the trap next to it (empty if none). A square touches at most one trap.
pub const ADJACENT_TRAP: [Bitboard; 64] = {
    let mut t = [Bitboard(0); 64];
    let mut i = 0;
    while i < 64 {
        t[i] = Bitboard(NEIGHBOURS[i].0 & Bitboard::TRAPS.0);
        i += 1;
    }
    t
};

impl Iterator for Bitboard {
    type Item = Square;
    #[inline]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            let sq = Square::from_index(self.0.trailing_zeros() as u8);
            self.0 &= self.0 - 1;
            Some(sq)
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Bitboard {}

macro_rules! bit_ops {
    ($($tr:ident $f:ident $op:tt, $tra:ident $fa:ident $opa:tt;)*) => {$(
        impl $tr for Bitboard {
            type Output = Bitboard;
            #[inline]
            fn $f(self, rhs: Bitboard) -> Bitboard { Bitboard(self.0 $op rhs.0) }
        }
        impl $tra for Bitboard {
            #[inline]
            fn $fa(&mut self, rhs: Bitboard) { self.0 $opa rhs.0; }
        }
    )*};
}

bit_ops! {
    BitAnd bitand &, BitAndAssign bitand_assign &=;
    BitOr bitor |, BitOrAssign bitor_assign |=;
    BitXor bitxor ^, BitXorAssign bitxor_assign ^=;
}

impl Sub for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn sub(self, rhs: Bitboard) -> Bitboard {
        Bitboard(self.0 & !rhs.0)
    }
}

impl std::ops::SubAssign for Bitboard {
    #[inline]
    fn sub_assign(&mut self, rhs: Bitboard) {
        self.0 &= !rhs.0;
    }
}

impl Not for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn not(self) -> Bitboard {
        Bitboard(!self.0)
    }
}

impl From<Square> for Bitboard {
    fn from(sq: Square) -> Bitboard {
        Bitboard::from_square(sq)
    }
}

impl fmt::Debug for Bitboard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "Bitboard({:#018x})", self.0)?;
        for rank in (0..8).rev() {
            for file in 0..8 {
                let c = if self.contains(Square::new(file, rank)) {
                    'X'
                } else {
                    '.'
                };
                write!(f, "{c}")?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shifts_drop_off_board_squares() {
        let h4 = Bitboard::from_square(Square::parse("h4").unwrap());
        assert!(h4.shift(Direction::East).is_empty());
        let a4 = Bitboard::from_square(Square::parse("a4").unwrap());
        assert!(a4.shift(Direction::West).is_empty());
        assert_eq!(h4.shift(Direction::West).first(), Square::parse("g4"));
        assert!(Bitboard::RANK_8.shift(Direction::North).is_empty());
    }

    #[test]
    fn each_square_touches_at_most_one_trap() {
        for sq in Square::all() {
            assert!(ADJACENT_TRAP[sq.index()].count() <= 1);
            assert!(NEIGHBOURS[sq.index()].count() >= 2);
        }
    }
}
