//! Search scores: centirabbits from the side to move's view, or a win or loss in a number of
//! steps.

use std::fmt;

/// A search score from the side to move's view. Ordinary values are centirabbits; values
/// beyond [`Score::WIN_BOUND`] encode a game won (or lost) in a number of steps from the root.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Score(pub i32);

/// What a score means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScoreKind {
    /// A judgement in centirabbits.
    Centirabbits(i32),
    /// The side to move wins in this many steps.
    WinIn(u32),
    /// The side to move loses in this many steps.
    LossIn(u32),
}

impl Score {
    /// The score of a win at the root itself (a win in `n` steps is `WIN - n`).
    pub const WIN: i32 = 1_000_000;
    /// Scores above this (below its negation) are wins (losses).
    pub const WIN_BOUND: i32 = Score::WIN - 10_000;

    /// An ordinary score.
    pub const fn centirabbits(cr: i32) -> Score {
        Score(cr)
    }

    /// A win for the side to move in `steps` steps.
    pub const fn win_in(steps: u32) -> Score {
        Score(Score::WIN - steps as i32)
    }

    /// A loss for the side to move in `steps` steps.
    pub const fn loss_in(steps: u32) -> Score {
        Score(-Score::WIN + steps as i32)
    }

    /// What the score means.
    pub fn kind(self) -> ScoreKind {
        if self.0 > Score::WIN_BOUND {
            ScoreKind::WinIn((Score::WIN - self.0) as u32)
        } else if self.0 < -Score::WIN_BOUND {
            ScoreKind::LossIn((self.0 + Score::WIN) as u32)
        } else {
            ScoreKind::Centirabbits(self.0)
        }
    }

    /// The score as AEI's `info score` wants it: centirabbits, wins and losses as large
    /// values of the right sign.
    pub fn to_aei(self) -> i32 {
        match self.kind() {
            ScoreKind::Centirabbits(c) => c,
            ScoreKind::WinIn(n) => 100_000 - n as i32,
            ScoreKind::LossIn(n) => -100_000 + n as i32,
        }
    }
}

impl fmt::Display for Score {
    /// `+35`, `win in 7 steps`, `loss in 5 steps`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind() {
            ScoreKind::Centirabbits(c) => write!(f, "{c:+}"),
            ScoreKind::WinIn(n) => write!(f, "win in {n} step{}", plural(n)),
            ScoreKind::LossIn(n) => write!(f, "loss in {n} step{}", plural(n)),
        }
    }
}

fn plural(n: u32) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_and_text() {
        assert_eq!(Score::win_in(7).kind(), ScoreKind::WinIn(7));
        assert_eq!(Score::loss_in(5).to_string(), "loss in 5 steps");
        assert_eq!(Score::centirabbits(35).to_string(), "+35");
        assert!(Score::win_in(3) > Score::win_in(9));
        assert!(Score::loss_in(9) > Score::loss_in(3));
        assert_eq!(Score::win_in(4).to_aei(), 99_996);
    }
}
