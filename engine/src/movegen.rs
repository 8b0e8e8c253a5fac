//! Legal step generation with bitboard masks: simple steps, push halves, pulls.

use crate::bitboard::NEIGHBOURS;
use crate::position::Pending;
use crate::{Bitboard, Direction, PieceKind, Position, Square, Step, StepList};

#[inline]
fn push_steps_from_dests(out: &mut StepList, dests: Bitboard, dir: Direction) {
    let back = dir.offset();
    for to in dests {
        let from = Square::from_index((to.index() as i8 - back) as u8);
        out.push(Step::new_unchecked(from, dir));
    }
}

impl Position {
    /// Fills `out` with every legal next step of the side to move (never a pass). When a push
    /// is pending, only the steps that complete it. Allocation-free.
    ///
    /// A step that moves an enemy piece onto the square the last own step vacated is a pull
    /// when the last mover was stronger; it is then generated once (as a pull), never also as
    /// the start of a push, which reaches no other end position.
    pub fn legal_steps(&self, out: &mut StepList) {
        out.clear();
        if self.steps_left() == 0 {
            return;
        }
        let us = self.side();
        let them = !us;
        let empty = self.empty_squares();
        let mobile = self.occupied_by(us) - self.frozen(us);

        if let Pending::Push { square, victim } = self.pending() {
            let pushers = mobile & self.stronger_than(us, victim) & NEIGHBOURS[square.index()];
            for from in pushers {
                if let Some(s) = Step::between(from, square) {
                    out.push(s);
                }
            }
            return;
        }

        let own_rabbits = self.pieces_of(us, PieceKind::Rabbit);
        let backward = Direction::backward(us);
        for dir in Direction::ALL {
            let movers = if dir == backward {
                mobile - own_rabbits
            } else {
                mobile
            };
            push_steps_from_dests(out, movers.shift(dir) & empty, dir);
        }

        let mut pull_target = Bitboard::EMPTY;
        let mut pull_strength = PieceKind::Rabbit;
        if let Pending::Pull { square, puller } = self.pending() {
            let victims = self.weaker_than(them, puller) & NEIGHBOURS[square.index()];
            for from in victims {
                if let Some(s) = Step::between(from, square) {
                    out.push(s);
                }
            }
            pull_target = Bitboard::from_square(square);
            pull_strength = puller;
        }

        if self.steps_left() >= 2 {
            let mut attackers = mobile - own_rabbits;
            for v in 0..PieceKind::NUM - 1 {
                let kind = PieceKind::from_index(v);
                let victims = self.pieces_of(them, kind) & attackers.neighbours();
                if victims.any() {
                    // Squares already covered by the pull generated above.
                    let skip = if kind < pull_strength {
                        pull_target
                    } else {
                        Bitboard::EMPTY
                    };
                    for dir in Direction::ALL {
                        let dests = (victims.shift(dir) & empty) - skip;
                        push_steps_from_dests(out, dests, dir);
                    }
                }
                attackers -= self.pieces_of(us, PieceKind::from_index(v + 1));
            }
        }
    }

    /// Whether `step` is legal here (a member of [`Position::legal_steps`]).
    pub fn is_legal_step(&self, step: Step) -> bool {
        let mut list = StepList::new();
        self.legal_steps(&mut list);
        list.contains(&step)
    }

    /// Whether the side to move has any legal step.
    pub fn has_legal_step(&self) -> bool {
        let mut list = StepList::new();
        self.legal_steps(&mut list);
        !list.is_empty()
    }
}

impl Position {
    /// Checks `step` and, when it is illegal, says why.
    pub fn check_step(&self, step: Step) -> Result<(), crate::StepError> {
        use crate::StepError as E;
        if self.is_legal_step(step) {
            return Ok(());
        }
        let from = step.from();
        let to = step.to();
        if self.steps_left() == 0 {
            return Err(E::NoStepsLeft);
        }
        let Some(piece) = self.piece_at(from) else {
            return Err(E::EmptySquare(from));
        };
        if let Some(occupant) = self.piece_at(to) {
            return Err(E::Occupied {
                square: to,
                piece: occupant,
            });
        }
        if let Pending::Push { square, .. } = self.pending() {
            if piece.color() == self.side()
                && to == square
                && self.frozen(self.side()).contains(from)
            {
                return Err(E::Frozen {
                    square: from,
                    piece,
                });
            }
            return Err(E::PushNotCompleted(square));
        }
        if piece.color() == self.side() {
            if self.frozen(self.side()).contains(from) {
                return Err(E::Frozen {
                    square: from,
                    piece,
                });
            }
            if piece.kind() == PieceKind::Rabbit && step.dir() == Direction::backward(self.side()) {
                return Err(E::RabbitBackward);
            }
            return Err(E::Illegal);
        }
        if piece.kind() == PieceKind::Elephant {
            return Err(E::ElephantDislodged);
        }
        let could_push = ((self.stronger_than(self.side(), piece.kind())
            - self.frozen(self.side()))
            & NEIGHBOURS[from.index()])
        .any();
        if could_push && self.steps_left() == 1 {
            return Err(E::PushOnLastStep);
        }
        Err(E::NoPusher {
            side: self.side(),
            piece,
            square: from,
        })
    }
}
