//! Playing and undoing steps, and ending turns: trap captures are resolved after every step.

use crate::bitboard::{ADJACENT_TRAP, NEIGHBOURS};
use crate::position::Pending;
use crate::{zobrist, Bitboard, Piece, PieceKind, Position, Square, Step};

/// What [`Position::play_step_unchecked`] changed, for [`Position::undo_step`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StepUndo {
    captured: Option<(Piece, Square)>,
    pending: Pending,
    hash: u64,
}

impl StepUndo {
    /// The piece captured on a trap by this step, if any (it may be the moving piece itself).
    #[inline]
    pub fn captured(&self) -> Option<(Piece, Square)> {
        self.captured
    }
}

/// What [`Position::end_turn`] changed, for [`Position::undo_end_turn`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TurnUndo {
    steps_left: u8,
    pending: Pending,
    turn_start: u64,
    hash: u64,
}

impl Position {
    /// Plays `step`, which must be legal here (one of [`Position::legal_steps`]; checked only in
    /// debug builds). Resolves the trap capture it causes and updates the pending push/pull
    /// state, the steps left and the hash. Allocation-free.
    #[inline]
    pub fn play_step_unchecked(&mut self, step: Step) -> StepUndo {
        debug_assert!(self.is_legal_step(step), "illegal step {step} in {self:?}");
        let from = step.from();
        let to = step.to();
        let saved_pending = self.pending();
        let saved_hash = self.hash();
        let Some(piece) = self.piece_at(from) else {
            // Unreachable for legal steps; leave the position untouched.
            return StepUndo {
                captured: None,
                pending: saved_pending,
                hash: saved_hash,
            };
        };
        let color = piece.color();
        self.shift_piece(piece, from, to);

        // Only the moving piece's side can lose a piece: the trap it stepped onto, or the trap
        // its departure left unguarded. At most one trap is involved.
        let own = self.occupied_by(color);
        let trap =
            (ADJACENT_TRAP[from.index()] | (Bitboard::from_square(to) & Bitboard::TRAPS)) & own;
        let mut captured = None;
        if let Some(t) = trap.first() {
            if (NEIGHBOURS[t.index()] & own).is_empty() {
                if let Some(victim) = self.piece_at(t) {
                    self.remove(victim, t);
                    captured = Some((victim, t));
                }
            }
        }

        let steps_left = self.steps_left() - 1;
        let pending = if color == self.side() {
            match saved_pending {
                // This step completes a push; the pusher cannot also pull.
                Pending::Push { square, .. } if square == to => Pending::None,
                _ => {
                    let kind = piece.kind();
                    if steps_left > 0
                        && kind != PieceKind::Rabbit
                        && (self.weaker_than(!color, kind) & NEIGHBOURS[from.index()]).any()
                    {
                        Pending::Pull {
                            square: from,
                            puller: kind,
                        }
                    } else {
                        Pending::None
                    }
                }
            }
        } else {
            match saved_pending {
                Pending::Pull { square, puller } if square == to && piece.kind() < puller => {
                    Pending::None
                }
                _ => Pending::Push {
                    square: from,
                    victim: piece.kind(),
                },
            }
        };
        self.set_turn_state(steps_left, pending);
        StepUndo {
            captured,
            pending: saved_pending,
            hash: saved_hash,
        }
    }

    /// Undoes `step`, which was just played with [`Position::play_step_unchecked`] returning
    /// `undo`. Restores the exact previous position and hash.
    #[inline]
    pub fn undo_step(&mut self, step: Step, undo: StepUndo) {
        let from = step.from();
        let to = step.to();
        if let Some((victim, sq)) = undo.captured {
            self.put(victim, sq);
        }
        if let Some(piece) = self.piece_at(to) {
            self.shift_piece(piece, to, from);
        }
        self.restore_turn_state(self.steps_left() + 1, undo.pending, undo.hash);
    }

    /// Ends the turn: the other side moves next with 4 steps. The caller checks
    /// [`Position::can_end_turn`] first where the rules matter.
    #[inline]
    pub fn end_turn(&mut self) -> TurnUndo {
        let undo = TurnUndo {
            steps_left: self.steps_left(),
            pending: self.pending(),
            turn_start: self.turn_start_key(),
            hash: self.hash(),
        };
        self.set_turn_state(4, Pending::None);
        self.set_side(!self.side());
        let key = self.board_key();
        self.set_turn_start(key);
        undo
    }

    /// Undoes [`Position::end_turn`].
    #[inline]
    pub fn undo_end_turn(&mut self, undo: TurnUndo) {
        self.set_side(!self.side());
        self.set_turn_state(undo.steps_left, undo.pending);
        self.set_turn_start(undo.turn_start);
        self.restore_hash(undo.hash);
    }

    /// The piece that `step` (legal here) captures, and the trap it dies on, without playing
    /// it: the moving piece itself stepping onto a trap where no friend stays beside it, or a
    /// friend left alone on the trap the mover guarded. Only the mover's own colour matters,
    /// so for the second step of a push or pull it may be asked in the position before the
    /// first step (which moved the other colour). The same as [`StepUndo::captured`] after
    /// playing it.
    #[inline]
    pub fn step_capture(&self, step: Step) -> Option<(Piece, Square)> {
        let from = step.from();
        let to = step.to();
        let piece = self.piece_at(from)?;
        let to_bb = Bitboard::from_square(to);
        let own = self.occupied_by(piece.color()) ^ Bitboard::from_square(from) ^ to_bb;
        let trap = (ADJACENT_TRAP[from.index()] | (to_bb & Bitboard::TRAPS)) & own;
        let t = trap.first()?;
        if (NEIGHBOURS[t.index()] & own).any() {
            return None;
        }
        let victim = if t == to {
            Some(piece)
        } else {
            self.piece_at(t)
        };
        victim.map(|v| (v, t))
    }

    /// The board key (pieces and side to move) after `step`, which must be legal here,
    /// computed without playing it: the moved piece and the trap capture it causes.
    #[inline]
    pub fn board_key_after(&self, step: Step) -> u64 {
        let from = step.from();
        let to = step.to();
        let Some(piece) = self.piece_at(from) else {
            return self.board_key();
        };
        let mut key =
            self.board_key() ^ zobrist::piece_key(piece, from) ^ zobrist::piece_key(piece, to);
        if let Some((victim, trap)) = self.step_capture(step) {
            key ^= zobrist::piece_key(victim, trap);
        }
        key
    }

    /// The position after `step` (copy-make).
    #[inline]
    pub fn after_step(&self, step: Step) -> Position {
        let mut p = self.clone();
        p.play_step_unchecked(step);
        p
    }
}

#[cfg(test)]
mod tests {
    use crate::notation::board::parse_aei;
    use crate::StepList;

    /// [`crate::Position::step_capture`] names exactly the capture that playing the step makes.
    #[test]
    fn step_capture_agrees_with_playing_every_step() {
        let mut captures = 0;
        for text in [
            "g [ D      c   r HcR   M r rC  r R r  r E R R C  R R    D      R  R]",
            "s [ D      c   r HcR   M r rC  r R r  r E R R C  R R    D      R  R]",
            crate::notation::board::STANDARD_OPENING,
            // The elephant on d3 is the dog's only guard on trap c3, the cat on e3 the
            // rabbit's on f3.
            "g [       r e                                DEcr        R R       ]",
        ] {
            let p = parse_aei(text).unwrap();
            let mut steps = StepList::new();
            p.legal_steps(&mut steps);
            for &s in steps.iter() {
                let mut q = p.clone();
                let u = q.play_step_unchecked(s);
                assert_eq!(p.step_capture(s), u.captured(), "{s} in {text}");
                captures += usize::from(u.captured().is_some());
            }
        }
        assert!(captures >= 4, "{captures} capturing steps");
    }
}
