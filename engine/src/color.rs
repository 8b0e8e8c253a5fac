//! The two sides, Gold (moves first) and Silver.

use std::ops::{Index, IndexMut, Not};

/// A side in the game. Gold sets up and moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Color {
    /// The first player; upper-case letters; wins by reaching rank 8.
    Gold = 0,
    /// The second player; lower-case letters; wins by reaching rank 1.
    Silver = 1,
}

impl Color {
    /// Both colours, Gold first.
    pub const ALL: [Color; 2] = [Color::Gold, Color::Silver];

    /// The index of this colour (Gold = 0, Silver = 1), for tables.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The notation letter of this colour: `g` or `s`.
    pub const fn letter(self) -> char {
        match self {
            Color::Gold => 'g',
            Color::Silver => 's',
        }
    }

    /// Reads a side letter: `g`/`s`, or the old names `w` (gold) and `b` (silver).
    pub fn from_letter(c: char) -> Option<Color> {
        match c {
            'g' | 'w' | 'G' | 'W' => Some(Color::Gold),
            's' | 'b' | 'S' | 'B' => Some(Color::Silver),
            _ => None,
        }
    }

    /// The full lower-case name, `gold` or `silver`.
    pub const fn name(self) -> &'static str {
        match self {
            Color::Gold => "gold",
            Color::Silver => "silver",
        }
    }
}

impl Not for Color {
    type Output = Color;
    #[inline]
    fn not(self) -> Color {
        match self {
            Color::Gold => Color::Silver,
            Color::Silver => Color::Gold,
        }
    }
}

/// A pair of values, one per colour, indexed by [`Color`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct ByColor<T>(pub [T; 2]);

impl<T> ByColor<T> {
    /// The pair of gold's value and silver's.
    #[inline]
    pub const fn new(gold: T, silver: T) -> ByColor<T> {
        ByColor([gold, silver])
    }

    /// Applies `f` to both values, gold's first.
    #[inline]
    pub fn map<U>(self, f: impl FnMut(T) -> U) -> ByColor<U> {
        ByColor(self.0.map(f))
    }
}

impl<T> Index<Color> for ByColor<T> {
    type Output = T;
    #[inline]
    fn index(&self, c: Color) -> &T {
        &self.0[c.index()]
    }
}

impl<T> IndexMut<Color> for ByColor<T> {
    #[inline]
    fn index_mut(&mut self, c: Color) -> &mut T {
        &mut self.0[c.index()]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn by_color_builds_indexes_and_maps_by_colour() {
        let seats = ByColor::new("gold's", "silver's");
        assert_eq!(seats[Color::Gold], "gold's");
        assert_eq!(seats[Color::Silver], "silver's");
        assert_eq!(seats.map(str::len), ByColor::new(6, 8));
    }
}
