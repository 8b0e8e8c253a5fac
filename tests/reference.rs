//! An independent reference of the step rules, written straight from the official rules (seed
//! 003) with none of the engine's code: plain arrays, no bitboards, no hashing. It exists to
//! cross-check the engine's step generator, freezing, trap captures, push/pull bookkeeping and
//! distinct-turn enumeration, at turn starts and mid-turn.
//!
//! Squares are indices 0..64 (a1 = 0, h1 = 7, a8 = 56), as in the engine's `Square::index`.

use std::collections::HashSet;

use tusk_engine::{Color, Position, Square};

/// One piece of the reference board: (is gold, strength 0 = rabbit .. 5 = elephant).
pub type RefPiece = (bool, u8);

/// The reference board: what stands on each square.
pub type Cells = [Option<RefPiece>; 64];

/// What the previous step of the turn leaves open, in the reference.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Last {
    /// Nothing (turn start, or a pull just completed).
    Nothing,
    /// An own piece of strength `kind` left `from`; `pushed` if that step completed a push
    /// (and so cannot pull).
    Own {
        /// The square the own piece left.
        from: usize,
        /// Its strength.
        kind: u8,
        /// Whether the step completed a push.
        pushed: bool,
    },
    /// An enemy piece of strength `kind` was pushed off `from`: the push must be completed.
    Victim {
        /// The square the victim left.
        from: usize,
        /// Its strength.
        kind: u8,
    },
}

/// A reference position at step granularity.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct RefPos {
    /// The board.
    pub cells: Cells,
    /// Whether gold is to move.
    pub gold_to_move: bool,
    /// Steps left in the turn (4 at its start).
    pub steps_left: u8,
    /// What the previous step left open.
    pub last: Last,
}

/// The trap squares c3, f3, c6, f6 as indices.
pub const TRAP_INDICES: [usize; 4] = [18, 21, 42, 45];

/// The orthogonal neighbours of square `i`.
pub fn neighbours(i: usize) -> Vec<usize> {
    let (f, r) = (i % 8, i / 8);
    let mut v = Vec::with_capacity(4);
    if r < 7 {
        v.push(i + 8);
    }
    if r > 0 {
        v.push(i - 8);
    }
    if f < 7 {
        v.push(i + 1);
    }
    if f > 0 {
        v.push(i - 1);
    }
    v
}

/// The board of a position, read square by square through `piece_at`.
pub fn cells_of(pos: &Position) -> Cells {
    let mut cells = [None; 64];
    for (i, cell) in cells.iter_mut().enumerate() {
        if let Some(p) = pos.piece_at(Square::from_index(i as u8)) {
            let kind = "RCDHME"
                .find(p.letter().to_ascii_uppercase())
                .expect("a piece letter") as u8;
            *cell = Some((p.letter().is_ascii_uppercase(), kind));
        }
    }
    cells
}

/// The board written like the AEI board, `[` 64 cells `]`, rank 8 first.
pub fn cells_aei(cells: &Cells) -> String {
    let mut s = String::from("[");
    for rank in (0..8).rev() {
        for file in 0..8 {
            s.push(match cells[rank * 8 + file] {
                None => ' ',
                Some((gold, k)) => {
                    let c = "RCDHME".as_bytes()[k as usize] as char;
                    if gold {
                        c
                    } else {
                        c.to_ascii_lowercase()
                    }
                }
            });
        }
    }
    s.push(']');
    s
}

impl RefPos {
    /// The reference of a turn-start position (panics if `pos` is mid-turn: the reference
    /// reaches mid-turn states only by playing its own steps, so it never trusts the engine's
    /// mid-turn bookkeeping).
    pub fn from_position(pos: &Position) -> RefPos {
        assert!(
            pos.at_turn_start(),
            "the reference starts from turn starts only: {pos:?}"
        );
        RefPos {
            cells: cells_of(pos),
            gold_to_move: pos.side() == Color::Gold,
            steps_left: 4,
            last: Last::Nothing,
        }
    }

    /// The board written like the AEI board (no side letter).
    pub fn aei(&self) -> String {
        cells_aei(&self.cells)
    }

    /// Whether the piece on `i` is frozen: a stronger enemy next to it and no friend.
    pub fn frozen(&self, i: usize) -> bool {
        let Some((gold, kind)) = self.cells[i] else {
            return false;
        };
        let ns = neighbours(i);
        let friend = ns
            .iter()
            .any(|&n| matches!(self.cells[n], Some((g, _)) if g == gold));
        let stronger_enemy = ns
            .iter()
            .any(|&n| matches!(self.cells[n], Some((g, k)) if g != gold && k > kind));
        stronger_enemy && !friend
    }

    /// Every legal step as (from, to), possibly with repeats.
    pub fn legal(&self) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        if self.steps_left == 0 {
            return out;
        }
        let us = self.gold_to_move;
        if let Last::Victim { from, kind } = self.last {
            for n in neighbours(from) {
                if matches!(self.cells[n], Some((g, k)) if g == us && k > kind) && !self.frozen(n) {
                    out.push((n, from));
                }
            }
            return out;
        }
        for i in 0..64 {
            let Some((g, kind)) = self.cells[i] else {
                continue;
            };
            for t in neighbours(i) {
                if self.cells[t].is_some() {
                    continue;
                }
                if g == us {
                    let backward = if us { t + 8 == i } else { i + 8 == t };
                    let rabbit_back = kind == 0 && backward;
                    if !self.frozen(i) && !rabbit_back {
                        out.push((i, t));
                    }
                } else {
                    let pull = matches!(self.last,
                        Last::Own { from, kind: pk, pushed: false } if from == t && kind < pk);
                    let push = self.steps_left >= 2
                        && neighbours(i).iter().any(|&n| {
                            matches!(self.cells[n], Some((pg, pk)) if pg == us && pk > kind)
                                && !self.frozen(n)
                        });
                    if pull || push {
                        out.push((i, t));
                    }
                }
            }
        }
        out
    }

    /// The position after the step `from` -> `to` (which must be legal), trap captures done.
    pub fn apply(&self, from: usize, to: usize) -> RefPos {
        let mut n = self.clone();
        let (gold, kind) = n.cells[from].take().expect("a piece on the from square");
        n.cells[to] = Some((gold, kind));
        for t in TRAP_INDICES {
            if let Some((g, _)) = n.cells[t] {
                let guarded = neighbours(t)
                    .iter()
                    .any(|&x| matches!(n.cells[x], Some((h, _)) if h == g));
                if !guarded {
                    n.cells[t] = None;
                }
            }
        }
        n.last = if gold == self.gold_to_move {
            Last::Own {
                from,
                kind,
                pushed: matches!(self.last, Last::Victim { .. }),
            }
        } else {
            match self.last {
                Last::Own {
                    from: f,
                    kind: k,
                    pushed: false,
                } if f == to && kind < k => Last::Nothing,
                _ => Last::Victim { from, kind },
            }
        };
        n.steps_left -= 1;
        n
    }

    /// Plays steps given as (from, to) pairs, checking each against [`RefPos::legal`].
    pub fn play(&self, steps: &[(usize, usize)]) -> RefPos {
        let mut r = self.clone();
        for &(f, t) in steps {
            assert!(
                r.legal().contains(&(f, t)),
                "reference: step {f}->{t} is illegal in {r:?}"
            );
            r = r.apply(f, t);
        }
        r
    }

    /// Whether the turn may end here, given the board the turn started on: a step taken, no
    /// push half done, and a board that differs from `start`.
    pub fn can_end(&self, start: &Cells) -> bool {
        self.steps_left < 4 && !matches!(self.last, Last::Victim { .. }) && self.cells != *start
    }

    /// The position after ending the turn: the other side to move with four steps.
    pub fn end_turn(&self) -> RefPos {
        RefPos {
            cells: self.cells,
            gold_to_move: !self.gold_to_move,
            steps_left: 4,
            last: Last::Nothing,
        }
    }

    /// Every distinct board a legal completion of the current turn reaches, by brute force
    /// over every step sequence from here; `start` is the board the turn began with (at a turn
    /// start, `self.cells`). Ending the turn at once counts when it is allowed.
    pub fn turn_boards(&self, start: &Cells) -> HashSet<String> {
        fn dfs(r: &RefPos, start: &Cells, seen: &mut HashSet<RefPos>, out: &mut HashSet<String>) {
            for (f, t) in r.legal() {
                let n = r.apply(f, t);
                if !seen.insert(n.clone()) {
                    continue;
                }
                if n.can_end(start) {
                    out.insert(n.aei());
                }
                dfs(&n, start, seen, out);
            }
        }
        let mut seen = HashSet::new();
        let mut out = HashSet::new();
        if self.can_end(start) {
            out.insert(self.aei());
        }
        dfs(self, start, &mut seen, &mut out);
        out
    }
}
