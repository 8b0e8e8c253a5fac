//! A single step: one piece moving to an adjacent square.

use std::fmt;

use crate::{Direction, Square};

/// One step: the piece on `from` moves one square in `dir`. Whether the piece is the mover's
/// own or an enemy being pushed or pulled follows from the position it is played in.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Step {
    from: Square,
    dir: Direction,
}

impl Step {
    /// The step from `from` in `dir`, or `None` if it would leave the board.
    #[inline]
    pub const fn try_new(from: Square, dir: Direction) -> Option<Step> {
        match from.step(dir) {
            Some(_) => Some(Step { from, dir }),
            None => None,
        }
    }

    /// The step from `from` to the adjacent `to`, or `None` if they are not adjacent.
    #[inline]
    pub const fn between(from: Square, to: Square) -> Option<Step> {
        match from.direction_to(to) {
            Some(dir) => Some(Step { from, dir }),
            None => None,
        }
    }

    /// The step from `from` in `dir`; the caller promises it stays on the board.
    #[inline]
    pub(crate) const fn new_unchecked(from: Square, dir: Direction) -> Step {
        Step { from, dir }
    }

    /// The square the piece leaves.
    #[inline]
    pub const fn from(self) -> Square {
        self.from
    }

    /// The direction of the step.
    #[inline]
    pub const fn dir(self) -> Direction {
        self.dir
    }

    /// The square the piece arrives on.
    #[inline]
    pub const fn to(self) -> Square {
        Square::from_index((self.from.index() as i8 + self.dir.offset()) as u8)
    }

    /// The same step seen from the other side of the board (ranks mirrored).
    pub const fn flip_rank(self) -> Step {
        Step {
            from: self.from.flip_rank(),
            dir: self.dir.flip_rank(),
        }
    }
}

impl fmt::Display for Step {
    /// Writes `from` and direction, e.g. `e2n` (the piece letter needs the position).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from, self.dir.letter())
    }
}

impl fmt::Debug for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// A fixed-capacity list of steps, filled by the step generator without allocating.
#[derive(Clone)]
pub struct StepList {
    steps: [Step; StepList::CAPACITY],
    len: usize,
}

impl StepList {
    /// Upper bound on the legal steps of any position: at most 16 own pieces x 4 simple
    /// steps (64), 15 pushable enemy pieces x 3 free sides (45) and 4 pulls.
    pub const CAPACITY: usize = 128;

    /// An empty list.
    #[inline]
    pub const fn new() -> StepList {
        StepList {
            steps: [Step {
                from: Square::from_index(0),
                dir: Direction::North,
            }; StepList::CAPACITY],
            len: 0,
        }
    }

    /// Appends a step. The generator never exceeds [`StepList::CAPACITY`].
    #[inline]
    pub fn push(&mut self, step: Step) {
        debug_assert!(self.len < Self::CAPACITY);
        if self.len < Self::CAPACITY {
            self.steps[self.len] = step;
            self.len += 1;
        }
    }

    /// Removes every step.
    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Number of steps.
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the list is empty.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The steps as a slice.
    #[inline]
    pub fn as_slice(&self) -> &[Step] {
        &self.steps[..self.len]
    }
}

impl Default for StepList {
    fn default() -> Self {
        StepList::new()
    }
}

impl std::ops::Deref for StepList {
    type Target = [Step];
    fn deref(&self) -> &[Step] {
        self.as_slice()
    }
}
