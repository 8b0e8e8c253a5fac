//! Squares and directions on the 8x8 board.

use std::fmt;

use crate::Color;

/// One of the four step directions, named from gold's side of the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Direction {
    /// Towards rank 8.
    North = 0,
    /// Towards rank 1.
    South = 1,
    /// Towards file h.
    East = 2,
    /// Towards file a.
    West = 3,
}

impl Direction {
    /// All four directions.
    pub const ALL: [Direction; 4] = [
        Direction::North,
        Direction::South,
        Direction::East,
        Direction::West,
    ];

    /// The notation letter: `n`, `s`, `e` or `w`.
    pub const fn letter(self) -> char {
        match self {
            Direction::North => 'n',
            Direction::South => 's',
            Direction::East => 'e',
            Direction::West => 'w',
        }
    }

    /// Reads a direction letter (`n`, `s`, `e`, `w`).
    pub const fn from_letter(c: char) -> Option<Direction> {
        match c {
            'n' => Some(Direction::North),
            's' => Some(Direction::South),
            'e' => Some(Direction::East),
            'w' => Some(Direction::West),
            _ => None,
        }
    }

    /// The change in square index for one step this way.
    #[inline]
    pub const fn offset(self) -> i8 {
        match self {
            Direction::North => 8,
            Direction::South => -8,
            Direction::East => 1,
            Direction::West => -1,
        }
    }

    /// The opposite direction.
    #[inline]
    pub const fn opposite(self) -> Direction {
        match self {
            Direction::North => Direction::South,
            Direction::South => Direction::North,
            Direction::East => Direction::West,
            Direction::West => Direction::East,
        }
    }

    /// The direction a rabbit of `color` may never step on its own (towards its home rank).
    #[inline]
    pub const fn backward(color: Color) -> Direction {
        match color {
            Color::Gold => Direction::South,
            Color::Silver => Direction::North,
        }
    }

    /// The direction mirrored top to bottom (north and south swap), for colour flips.
    #[inline]
    pub const fn flip_rank(self) -> Direction {
        match self {
            Direction::North => Direction::South,
            Direction::South => Direction::North,
            d => d,
        }
    }
}

/// A square of the board: index `rank * 8 + file`, so a1 = 0, h1 = 7, a8 = 56, h8 = 63.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// Number of squares.
    pub const NUM: usize = 64;
    /// The four trap squares.
    pub const TRAPS: [Square; 4] = [Square(18), Square(21), Square(42), Square(45)];

    /// The square with this index; `None` unless `index < 64`.
    #[inline]
    pub const fn try_from_index(index: u8) -> Option<Square> {
        if index < 64 {
            Some(Square(index))
        } else {
            None
        }
    }

    /// The square with this index. The caller promises `index < 64` (checked in debug builds).
    #[inline]
    pub const fn from_index(index: u8) -> Square {
        debug_assert!(index < 64);
        Square(index & 63)
    }

    /// The square on `file` (0 = a) and `rank` (0 = rank 1); both must be below 8.
    #[inline]
    pub const fn new(file: u8, rank: u8) -> Square {
        debug_assert!(file < 8 && rank < 8);
        Square((rank & 7) * 8 + (file & 7))
    }

    /// The index 0..64.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The file, 0 = a .. 7 = h.
    #[inline]
    pub const fn file(self) -> u8 {
        self.0 & 7
    }

    /// The rank, 0 = rank 1 .. 7 = rank 8.
    #[inline]
    pub const fn rank(self) -> u8 {
        self.0 >> 3
    }

    /// The neighbouring square in `dir`, or `None` off the board.
    #[inline]
    pub const fn step(self, dir: Direction) -> Option<Square> {
        let ok = match dir {
            Direction::North => self.rank() < 7,
            Direction::South => self.rank() > 0,
            Direction::East => self.file() < 7,
            Direction::West => self.file() > 0,
        };
        if ok {
            Some(Square((self.0 as i8 + dir.offset()) as u8))
        } else {
            None
        }
    }

    /// The direction from `self` to an orthogonally adjacent `to`, or `None` if not adjacent.
    pub const fn direction_to(self, to: Square) -> Option<Direction> {
        let d = to.0 as i8 - self.0 as i8;
        let same_rank = self.rank() == to.rank();
        match d {
            8 => Some(Direction::North),
            -8 => Some(Direction::South),
            1 if same_rank => Some(Direction::East),
            -1 if same_rank => Some(Direction::West),
            _ => None,
        }
    }

    /// Whether this is one of the four traps (c3, f3, c6, f6).
    #[inline]
    pub const fn is_trap(self) -> bool {
        matches!(self.0, 18 | 21 | 42 | 45)
    }

    /// How many ranks the square stands advanced from the home rank of `color` (gold's is rank
    /// 1, silver's rank 8): 0 on the home rank, 7 on the goal rank.
    #[inline]
    pub const fn ranks_from_home(self, color: Color) -> u8 {
        match color {
            Color::Gold => self.rank(),
            Color::Silver => 7 - self.rank(),
        }
    }

    /// How many ranks the square stands from the goal rank of `color`'s rabbits: 0 on the
    /// goal rank, 7 on the home rank.
    #[inline]
    pub const fn ranks_to_goal(self, color: Color) -> u8 {
        7 - self.ranks_from_home(color)
    }

    /// The Manhattan distance to `other`: the steps a piece needs on an empty board.
    #[inline]
    pub const fn distance(self, other: Square) -> u8 {
        self.file().abs_diff(other.file()) + self.rank().abs_diff(other.rank())
    }

    /// The same square seen from the other side (rank r becomes rank 9 - r).
    #[inline]
    pub const fn flip_rank(self) -> Square {
        Square(self.0 ^ 56)
    }

    /// Parses a square name such as `e4`.
    pub fn parse(s: &str) -> Option<Square> {
        let b = s.as_bytes();
        if b.len() != 2 {
            return None;
        }
        let file = b[0].wrapping_sub(b'a');
        let rank = b[1].wrapping_sub(b'1');
        if file < 8 && rank < 8 {
            Some(Square::new(file, rank))
        } else {
            None
        }
    }

    /// Every square, a1 first.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..64u8).map(Square)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.rank() + 1)
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_from_home_and_to_goal_count_from_each_sides_own_ranks() {
        let sq = |s: &str| Square::parse(s).unwrap();
        assert_eq!(sq("c1").ranks_from_home(Color::Gold), 0);
        assert_eq!(sq("c1").ranks_to_goal(Color::Gold), 7);
        assert_eq!(sq("c1").ranks_from_home(Color::Silver), 7);
        assert_eq!(sq("c1").ranks_to_goal(Color::Silver), 0);
        assert_eq!(sq("f6").ranks_from_home(Color::Gold), 5);
        assert_eq!(sq("f6").ranks_to_goal(Color::Silver), 5);
        assert_eq!(sq("a1").distance(sq("h8")), 14);
        assert_eq!(sq("c3").distance(sq("b4")), 2);
        for s in Square::all() {
            for c in [Color::Gold, Color::Silver] {
                assert_eq!(s.ranks_from_home(c) + s.ranks_to_goal(c), 7);
                assert_eq!(s.ranks_from_home(c), s.flip_rank().ranks_from_home(!c));
            }
            for t in Square::all() {
                assert_eq!(s.distance(t), t.distance(s));
                assert_eq!(s.distance(t), s.flip_rank().distance(t.flip_rank()));
            }
        }
    }
}
