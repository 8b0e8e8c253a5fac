//! Capture moves: every shortest sequence of steps, within the steps left in the turn, that
//! captures an enemy piece, as one move each (the approach, the push or pull, the capture, and
//! the push's completion when the capture is its first half). The searcher's quiescence plays
//! them as whole moves.
//!
//! A victim is an enemy piece of a kind captured on a trap. For each victim the generator
//! yields every distinct board reached by a sequence of that victim's fewest steps that ends
//! with its capture and captures nothing before it; a longer sequence capturing the same
//! victim (a wasted step, a detour) is not a move of its own: the search plays the rest of the
//! turn after the capture. It is exact: a depth-first search over legal steps by increasing
//! length, pruned only by the admissible bound of [`crate::captures`] for the victims still
//! wanted (a node from which no such capture is within reach cannot lie on a sequence that
//! yields a move; the victims found at a shorter length are not wanted again), so the sets
//! equal those of enumerating every step sequence (pinned by a brute-force test). Nothing is
//! allocated once the output list has grown to its working size.

use tusk_engine::{Bitboard, Pending, PieceKind, Position, Square, Step, StepList, StepMask};

use crate::captures::{bound_by_trap, capture_bound, lone_guards, KindSet};

/// The most steps a capture move takes (a whole turn).
pub const MAX_STEPS: usize = 4;

/// One capture move: its steps, what it captures and what it loses on the way.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CaptureMove {
    steps: [Step; MAX_STEPS],
    len: u8,
    /// The kind of the enemy piece captured.
    pub captured: PieceKind,
    /// The trap it is captured on.
    pub trap: Square,
    /// The kind of an own piece captured on the way (a trap left unguarded), if any.
    pub lost: Option<PieceKind>,
    /// The hash of the position after the move ([`Position::hash`]): distinct moves of one
    /// victim reach distinct positions.
    pub hash: u64,
}

impl CaptureMove {
    /// The move's steps, in order.
    #[inline]
    pub fn steps(&self) -> &[Step] {
        &self.steps[..self.len as usize]
    }
}

/// Victims by kind: the traps a piece of each kind was captured on.
type Found = [Bitboard; PieceKind::NUM];

/// The worse of an own loss so far and a new one of `kind`.
#[inline]
fn with_loss(lost: Option<PieceKind>, kind: PieceKind) -> Option<PieceKind> {
    Some(lost.map_or(kind, |k| k.max(kind)))
}

/// Positions already searched in one call of the generator, by hash, steps left and the length
/// sought: a position reached again by another order of the same steps has the same
/// continuations, so it is searched once. Direct-mapped; entries carry the call's stamp, so
/// nothing is cleared between calls.
pub struct Visited {
    slots: Vec<(u64, u32)>,
    stamp: u32,
}

impl Visited {
    const SIZE: usize = 1 << 12;

    /// An empty table (allocates its slots once).
    pub fn new() -> Visited {
        Visited {
            slots: vec![(0, 0); Visited::SIZE],
            stamp: 0,
        }
    }

    /// Starts a new call: every entry of earlier calls is forgotten.
    pub(crate) fn next_call(&mut self) {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.slots.fill((0, 0));
            self.stamp = 1;
        }
    }

    /// Whether `key` was seen in this call; marks it seen.
    #[inline]
    pub(crate) fn check_and_insert(&mut self, key: u64) -> bool {
        let slot = &mut self.slots[(key >> 52) as usize & (Visited::SIZE - 1)];
        if *slot == (key, self.stamp) {
            return true;
        }
        *slot = (key, self.stamp);
        false
    }
}

impl Default for Visited {
    fn default() -> Visited {
        Visited::new()
    }
}

/// The generator's state for one position.
struct Walk<'a> {
    out: &'a mut Vec<CaptureMove>,
    visited: &'a mut Visited,
    /// Victims of earlier lengths: not wanted again.
    done: Found,
    /// Victims of the current length (moved into `done` when the length is finished).
    now: Found,
    path: [Step; MAX_STEPS],
    /// The own piece lost so far on the path, if any.
    lost: Option<PieceKind>,
    /// Per trap of [`Square::TRAPS`], the kinds whose capture there is still wanted (not found
    /// at an earlier length): the bound that prunes the walk counts only those.
    wanted: [KindSet; 4],
    /// The steps played so far (the generator's work).
    played: u32,
}

impl Walk<'_> {
    /// Records the capture made by the path of `len` steps, ending on `pos`.
    fn record(&mut self, pos: &Position, len: usize, kind: PieceKind, trap: Square) {
        if self.done[kind.index()].contains(trap) {
            return;
        }
        self.now[kind.index()] |= Bitboard::from_square(trap);
        let hash = pos.hash();
        let seen = self
            .out
            .iter()
            .any(|m| m.hash == hash && m.captured == kind && m.trap == trap);
        if !seen {
            self.out.push(CaptureMove {
                steps: self.path,
                len: len as u8,
                captured: kind,
                trap,
                lost: self.lost,
                hash,
            });
        }
    }

    /// Extends the path of `len` steps on `pos` by every legal step, looking for sequences of
    /// exactly `depth` steps that end with the first capture.
    fn search(&mut self, pos: &mut Position, len: usize, depth: usize) {
        let remaining = depth - len;
        let us = pos.side();
        let enemies = pos.occupied_by(!us);
        // Only the steps that can start a capture of the remaining length are tried. Every
        // capture is a step of the enemy piece that is the lone enemy piece beside a trap (it
        // enters the trap, or leaves the piece on it unguarded), by a push (that step first)
        // or a pull (an own step first, from beside it); own steps never change which enemy
        // pieces are lone. With one step left only a pull can be completed; with two, the
        // capture is a push begun now or a pull whose own step is now.
        // With three, and nothing open, an own first step can only matter to the last two if
        // it starts or ends within two squares of a lone piece (see `captures`: else the same
        // capture was there without it, in fewer steps).
        let (own_from, own_to, enemy_from) = match remaining {
            1 => (Bitboard::EMPTY, Bitboard::EMPTY, enemies),
            2 => {
                let lone = lone_guards(pos);
                (lone.neighbours(), Bitboard::EMPTY, lone)
            }
            3 if pos.pending() == Pending::None => {
                let lone = lone_guards(pos);
                let near = lone | lone.neighbours();
                let zone = near | near.neighbours();
                (zone, zone, lone)
            }
            _ => (Bitboard::FULL, Bitboard::FULL, Bitboard::FULL),
        };
        let mut steps = StepList::new();
        pos.legal_steps_touching(
            StepMask {
                own_from,
                own_to,
                enemy_from,
                enemy_to: Bitboard::EMPTY,
            },
            &mut steps,
        );
        self.played += steps.len() as u32;
        for &step in steps.iter() {
            let undo = pos.play_step_unchecked(step);
            self.path[len] = step;
            let lost_before = self.lost;
            match undo.captured() {
                Some((piece, trap)) if piece.color() != us => {
                    // The first capture ends the move; a push begun must be completed.
                    if let Pending::Push { .. } = pos.pending() {
                        if remaining == 2 {
                            self.complete_push(pos, len + 2, piece.kind(), trap);
                        }
                    } else if remaining == 1 {
                        self.record(pos, len + 1, piece.kind(), trap);
                    }
                }
                captured => {
                    if let Some((piece, _)) = captured {
                        self.lost = with_loss(self.lost, piece.kind());
                    }
                    let left = (remaining - 1) as u8;
                    let may_capture = left > 0
                        && (left > 1 || matches!(pos.pending(), Pending::Pull { .. }))
                        && bound_by_trap(pos, self.wanted, left, left) <= left;
                    if may_capture {
                        let key = pos.hash()
                            ^ ((depth as u64) << 8 | u64::from(left))
                                .wrapping_mul(0x9E37_79B9_7F4A_7C15);
                        if !self.visited.check_and_insert(key) {
                            self.search(pos, len + 1, depth);
                        }
                    }
                }
            }
            self.lost = lost_before;
            pos.undo_step(step, undo);
        }
    }

    /// Records every completion of the push just begun (the capture of `kind` on `trap`),
    /// the path being `len` steps long with the completion its last.
    fn complete_push(&mut self, pos: &mut Position, len: usize, kind: PieceKind, trap: Square) {
        let mut steps = StepList::new();
        pos.legal_steps(&mut steps);
        self.played += steps.len() as u32;
        let lost_before = self.lost;
        for &step in steps.iter() {
            let undo = pos.play_step_unchecked(step);
            self.path[len - 1] = step;
            if let Some((piece, _)) = undo.captured() {
                self.lost = with_loss(self.lost, piece.kind());
            }
            self.record(pos, len, kind, trap);
            self.lost = lost_before;
            pos.undo_step(step, undo);
        }
    }
}

/// Fills `out` with the capture moves of the side to move in `pos` (see the module docs),
/// shortest first; `pos` is searched on and left exactly as it was. `visited` is the
/// generator's work table, kept by the caller between calls. Returns the number of steps the
/// generator played (its work, which a searcher may charge against a node limit).
pub fn capture_moves(pos: &mut Position, out: &mut Vec<CaptureMove>, visited: &mut Visited) -> u32 {
    out.clear();
    visited.next_call();
    let limit = pos.steps_left();
    let lower = capture_bound(pos, KindSet::ALL, limit);
    if limit == 0 || lower > limit {
        return 0;
    }
    let mut walk = Walk {
        out,
        visited,
        done: [Bitboard::EMPTY; PieceKind::NUM],
        now: [Bitboard::EMPTY; PieceKind::NUM],
        path: [Step::try_new(Square::from_index(0), tusk_engine::Direction::North)
            .expect("a1n is a step"); MAX_STEPS],
        lost: None,
        wanted: [KindSet::ALL; 4],
        played: 0,
    };
    for depth in lower.max(1)..=limit {
        walk.search(pos, 0, depth as usize);
        for (done, now) in walk.done.iter_mut().zip(&mut walk.now) {
            *done |= std::mem::replace(now, Bitboard::EMPTY);
        }
        for (t, trap) in Square::TRAPS.into_iter().enumerate() {
            for kind in PieceKind::ALL {
                if walk.done[kind.index()].contains(trap) {
                    walk.wanted[t].remove(kind);
                }
            }
        }
    }
    walk.played
}
