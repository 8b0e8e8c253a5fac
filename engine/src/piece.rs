//! Piece kinds (ordered by strength) and coloured pieces.

use std::fmt;

use crate::Color;

/// A kind of piece. The order is strength: `Rabbit < Cat < ... < Elephant`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum PieceKind {
    /// Weakest piece; cannot step backwards; reaching the far rank wins.
    Rabbit = 0,
    /// Cat.
    Cat = 1,
    /// Dog.
    Dog = 2,
    /// Horse.
    Horse = 3,
    /// Camel (letter `M`/`m`).
    Camel = 4,
    /// Strongest piece; can never be pushed, pulled or frozen.
    Elephant = 5,
}

impl PieceKind {
    /// Number of kinds.
    pub const NUM: usize = 6;
    /// All kinds, weakest first.
    pub const ALL: [PieceKind; 6] = [
        PieceKind::Rabbit,
        PieceKind::Cat,
        PieceKind::Dog,
        PieceKind::Horse,
        PieceKind::Camel,
        PieceKind::Elephant,
    ];

    /// How many of this kind each side starts with.
    pub const fn initial_count(self) -> u32 {
        match self {
            PieceKind::Rabbit => 8,
            PieceKind::Cat | PieceKind::Dog | PieceKind::Horse => 2,
            PieceKind::Camel | PieceKind::Elephant => 1,
        }
    }

    /// The index 0..6 (strength order).
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The kind with this index; the caller promises `i < 6`.
    #[inline]
    pub const fn from_index(i: usize) -> PieceKind {
        PieceKind::ALL[i]
    }

    /// The upper-case (gold) letter: `R C D H M E`.
    pub const fn upper_letter(self) -> char {
        match self {
            PieceKind::Rabbit => 'R',
            PieceKind::Cat => 'C',
            PieceKind::Dog => 'D',
            PieceKind::Horse => 'H',
            PieceKind::Camel => 'M',
            PieceKind::Elephant => 'E',
        }
    }

    /// The lower-case English name.
    pub const fn name(self) -> &'static str {
        match self {
            PieceKind::Rabbit => "rabbit",
            PieceKind::Cat => "cat",
            PieceKind::Dog => "dog",
            PieceKind::Horse => "horse",
            PieceKind::Camel => "camel",
            PieceKind::Elephant => "elephant",
        }
    }
}

/// A coloured piece, packed as `color * 6 + kind` (0..12).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Piece(u8);

impl Piece {
    /// Number of distinct coloured pieces.
    pub const NUM: usize = 12;

    /// The piece of `color` and `kind`.
    #[inline]
    pub const fn new(color: Color, kind: PieceKind) -> Piece {
        Piece(color as u8 * 6 + kind as u8)
    }

    /// Its colour.
    #[inline]
    pub const fn color(self) -> Color {
        if self.0 >= 6 {
            Color::Silver
        } else {
            Color::Gold
        }
    }

    /// Its kind.
    #[inline]
    pub const fn kind(self) -> PieceKind {
        PieceKind::ALL[(self.0 % 6) as usize]
    }

    /// Index 0..12 for tables.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The notation letter: upper case for gold, lower case for silver.
    pub const fn letter(self) -> char {
        let c = self.kind().upper_letter();
        match self.color() {
            Color::Gold => c,
            Color::Silver => c.to_ascii_lowercase(),
        }
    }

    /// Reads a piece letter (`RCDHME` gold, `rcdhme` silver).
    pub const fn from_letter(c: char) -> Option<Piece> {
        let kind = match c.to_ascii_uppercase() {
            'R' => PieceKind::Rabbit,
            'C' => PieceKind::Cat,
            'D' => PieceKind::Dog,
            'H' => PieceKind::Horse,
            'M' => PieceKind::Camel,
            'E' => PieceKind::Elephant,
            _ => return None,
        };
        let color = if c.is_ascii_uppercase() {
            Color::Gold
        } else {
            Color::Silver
        };
        Some(Piece::new(color, kind))
    }

    /// The same kind in the other colour.
    #[inline]
    pub const fn flip_color(self) -> Piece {
        Piece::new(
            match self.color() {
                Color::Gold => Color::Silver,
                Color::Silver => Color::Gold,
            },
            self.kind(),
        )
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

impl fmt::Debug for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

impl Piece {
    /// A phrase such as `a silver horse`, for error messages.
    pub fn describe(self) -> String {
        format!("a {} {}", self.color().name(), self.kind().name())
    }
}
