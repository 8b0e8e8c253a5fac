//! Turns (1 to 4 steps) and setups, and the [`Move`] that is either.

use crate::{Piece, Square, Step};

/// A turn of one to four steps, in order.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Turn {
    steps: [Option<Step>; 4],
    len: u8,
}

impl Turn {
    /// The empty turn (not playable; add steps with [`Turn::push`]).
    pub const fn new() -> Turn {
        Turn {
            steps: [None; 4],
            len: 0,
        }
    }

    /// A turn made of `steps`; `None` if there are more than four.
    pub fn from_steps(steps: &[Step]) -> Option<Turn> {
        if steps.len() > 4 {
            return None;
        }
        let mut t = Turn::new();
        for &s in steps {
            t.push(s);
        }
        Some(t)
    }

    /// Appends a step; returns false (and does nothing) if the turn already has four.
    pub fn push(&mut self, step: Step) -> bool {
        if self.len >= 4 {
            return false;
        }
        self.steps[self.len as usize] = Some(step);
        self.len += 1;
        true
    }

    /// Removes the last step.
    pub fn pop(&mut self) -> Option<Step> {
        if self.len == 0 {
            return None;
        }
        self.len -= 1;
        self.steps[self.len as usize].take()
    }

    /// Number of steps.
    pub fn len(&self) -> usize {
        self.len as usize
    }

    /// Whether there are no steps.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The steps in order.
    pub fn steps(&self) -> impl Iterator<Item = Step> + '_ {
        self.steps[..self.len as usize].iter().flatten().copied()
    }
}

impl std::fmt::Debug for Turn {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let v: Vec<String> = self.steps().map(|s| s.to_string()).collect();
        write!(f, "Turn[{}]", v.join(" "))
    }
}

/// One piece placed on one square during the setup phase.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Placement {
    /// The piece placed.
    pub piece: Piece,
    /// Where.
    pub square: Square,
}

impl std::fmt::Display for Placement {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}{}", self.piece, self.square)
    }
}

/// A side's setup: the placements of its pieces, in the order written.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct Setup {
    placements: Vec<Placement>,
}

impl Setup {
    /// A setup from placements (checked only when played).
    pub fn new(placements: Vec<Placement>) -> Setup {
        Setup { placements }
    }

    /// The placements in order.
    pub fn placements(&self) -> &[Placement] {
        &self.placements
    }
}

impl std::fmt::Display for Setup {
    /// Writes the placements separated by spaces, e.g. `Ra1 Rb1 ...`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for (i, p) in self.placements.iter().enumerate() {
            if i > 0 {
                write!(f, " ")?;
            }
            write!(f, "{p}")?;
        }
        Ok(())
    }
}

/// A move of the game: a setup (first move of each side) or a turn of steps.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// A side's initial placement.
    Setup(Setup),
    /// A turn of one to four steps.
    Turn(Turn),
}
