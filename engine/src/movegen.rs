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

/// Which steps [`Position::legal_steps_touching`] keeps: a step of the side to move's own
/// piece when it starts on `own_from` or ends on `own_to`; a step of an enemy piece (the first
/// half of a push, the second of a pull) when it starts on `enemy_from` or ends on `enemy_to`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StepMask {
    /// Origins of own steps kept.
    pub own_from: Bitboard,
    /// Destinations of own steps kept.
    pub own_to: Bitboard,
    /// Origins of enemy steps kept.
    pub enemy_from: Bitboard,
    /// Destinations of enemy steps kept.
    pub enemy_to: Bitboard,
}

impl StepMask {
    /// Every step.
    pub const ALL: StepMask = StepMask {
        own_from: Bitboard::FULL,
        own_to: Bitboard::FULL,
        enemy_from: Bitboard::FULL,
        enemy_to: Bitboard::FULL,
    };

    /// Every step, own or enemy, that starts on `from` or ends on `to`.
    pub const fn touching(from: Bitboard, to: Bitboard) -> StepMask {
        StepMask {
            own_from: from,
            own_to: to,
            enemy_from: from,
            enemy_to: to,
        }
    }

    /// Whether the mask keeps `step` as a step of an own piece.
    #[inline]
    pub fn keeps_own(&self, step: Step) -> bool {
        self.own_from.contains(step.from()) || self.own_to.contains(step.to())
    }

    /// Whether the mask keeps `step` as a step of an enemy piece.
    #[inline]
    pub fn keeps_enemy(&self, step: Step) -> bool {
        self.enemy_from.contains(step.from()) || self.enemy_to.contains(step.to())
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
        self.legal_steps_touching(StepMask::ALL, out);
    }

    /// The steps of [`Position::legal_steps`] that `mask` keeps (see [`StepMask`]), in the
    /// same order: a search that tries only the steps touching some squares asks for those
    /// alone instead of filtering the whole list. Allocation-free.
    pub fn legal_steps_touching(&self, mask: StepMask, out: &mut StepList) {
        out.clear();
        if self.steps_left() == 0 {
            return;
        }
        let us = self.side();
        let them = !us;
        let empty = self.empty_squares();
        let mobile = self.occupied_by(us) - self.frozen(us);
        // The destinations a step in `dir` may have: on `to`, or coming from `from`.
        let wanted = |from: Bitboard, to: Bitboard, dir: Direction| to | from.shift(dir);

        if let Pending::Push { square, victim } = self.pending() {
            let pushers = mobile & self.stronger_than(us, victim) & NEIGHBOURS[square.index()];
            for from in pushers {
                if let Some(s) = Step::between(from, square) {
                    if mask.keeps_own(s) {
                        out.push(s);
                    }
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
            let dests = movers.shift(dir) & empty & wanted(mask.own_from, mask.own_to, dir);
            push_steps_from_dests(out, dests, dir);
        }

        let mut pull_target = Bitboard::EMPTY;
        let mut pull_strength = PieceKind::Rabbit;
        if let Pending::Pull { square, puller } = self.pending() {
            let victims = self.weaker_than(them, puller) & NEIGHBOURS[square.index()];
            for from in victims {
                if let Some(s) = Step::between(from, square) {
                    if mask.keeps_enemy(s) {
                        out.push(s);
                    }
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
                        let dests = dests & wanted(mask.enemy_from, mask.enemy_to, dir);
                        push_steps_from_dests(out, dests, dir);
                    }
                }
                attackers -= self.pieces_of(us, PieceKind::from_index(v + 1));
            }
        }
    }

    /// Whether `step` is legal here: exactly membership of [`Position::legal_steps`], decided
    /// from the few squares involved without generating the list. Allocation-free.
    pub fn is_legal_step(&self, step: Step) -> bool {
        if self.steps_left() == 0 {
            return false;
        }
        let from = step.from();
        let to = step.to();
        let Some(piece) = self.piece_at(from) else {
            return false;
        };
        if self.piece_at(to).is_some() {
            return false;
        }
        let us = self.side();
        if let Pending::Push { square, victim } = self.pending() {
            return to == square
                && piece.color() == us
                && piece.kind() > victim
                && !self.frozen(us).contains(from);
        }
        if piece.color() == us {
            let rabbit_backward =
                piece.kind() == PieceKind::Rabbit && step.dir() == Direction::backward(us);
            return !rabbit_backward && !self.frozen(us).contains(from);
        }
        // An enemy piece: a pull onto the square the last own step vacated, or the first half
        // of a push by an unfrozen stronger own piece beside it (a push needs two steps).
        if let Pending::Pull { square, puller } = self.pending() {
            if to == square && piece.kind() < puller {
                return true;
            }
        }
        self.steps_left() >= 2
            && ((self.stronger_than(us, piece.kind()) - self.frozen(us)) & NEIGHBOURS[from.index()])
                .any()
    }

    /// Whether the side to move has any legal step: exactly whether [`Position::legal_steps`]
    /// is non-empty, decided by masks that stop at the first kind of step found.
    /// Allocation-free.
    pub fn has_legal_step(&self) -> bool {
        if self.steps_left() == 0 {
            return false;
        }
        let us = self.side();
        let them = !us;
        let mobile = self.occupied_by(us) - self.frozen(us);
        if let Pending::Push { square, victim } = self.pending() {
            return (mobile & self.stronger_than(us, victim) & NEIGHBOURS[square.index()]).any();
        }
        let empty = self.empty_squares();
        // Simple steps: a mobile piece beside an empty square (rabbits not backwards).
        let rabbits = mobile & self.pieces_of(us, PieceKind::Rabbit);
        let officers = mobile - rabbits;
        if (officers.neighbours() & empty).any() {
            return true;
        }
        let backward = Direction::backward(us);
        for dir in Direction::ALL {
            if dir != backward && (rabbits.shift(dir) & empty).any() {
                return true;
            }
        }
        // A pull onto the square just vacated (kept pending only while one exists).
        if let Pending::Pull { square, puller } = self.pending() {
            if (self.weaker_than(them, puller) & NEIGHBOURS[square.index()]).any() {
                return true;
            }
        }
        // The first half of a push: a weaker enemy piece beside a mobile officer, with an
        // empty square of its own to be pushed to.
        if self.steps_left() >= 2 {
            let movable_victims = self.occupied_by(them) & empty.neighbours();
            let mut attackers = officers;
            for v in 0..PieceKind::NUM - 1 {
                let kind = PieceKind::from_index(v);
                if (self.pieces_of(them, kind) & movable_victims & attackers.neighbours()).any() {
                    return true;
                }
                attackers -= self.pieces_of(us, PieceKind::from_index(v + 1));
            }
        }
        false
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

#[cfg(test)]
mod tests {
    use rand::rngs::SmallRng;
    use rand::{Rng, SeedableRng};

    use super::StepMask;
    use crate::setup::random_setup;
    use crate::{Bitboard, Color, Direction, Position, Square, Step, StepList};

    /// Positions met on random step-level walks from random setups: every state of every
    /// turn (1 to 4 steps left, pushes half done, pull opportunities), plus thinned boards.
    fn walk_states(seed: u64, games: usize) -> Vec<Position> {
        let mut rng = SmallRng::seed_from_u64(seed);
        let mut out = Vec::new();
        let mut list = StepList::new();
        for _ in 0..games {
            let mut p = Position::empty(Color::Gold);
            for color in Color::ALL {
                for pl in random_setup(color, &mut rng).placements() {
                    p.put(pl.piece, pl.square);
                }
            }
            // Thin the board so that blocked, frozen and open positions all occur.
            for sq in Square::all() {
                if let Some(pc) = p.piece_at(sq) {
                    if rng.gen_bool(0.4) {
                        p.remove(pc, sq);
                    }
                }
            }
            p.set_turn_start(p.board_key());
            for _ in 0..120 {
                out.push(p.clone());
                p.legal_steps(&mut list);
                let end = p.can_end_turn() && (list.is_empty() || rng.gen_bool(0.3));
                if end {
                    p.end_turn();
                } else if list.is_empty() {
                    break;
                } else {
                    let s = list[rng.gen_range(0..list.len())];
                    p.play_step_unchecked(s);
                }
            }
        }
        out
    }

    #[test]
    fn masked_generation_equals_the_filtered_list() {
        let states = walk_states(11, 200);
        let mut rng = SmallRng::seed_from_u64(12);
        let (mut full, mut masked) = (StepList::new(), StepList::new());
        let random_board = |rng: &mut SmallRng, density: f64| {
            let mut b = Bitboard::EMPTY;
            for sq in Square::all() {
                if rng.gen_bool(density) {
                    b |= Bitboard::from_square(sq);
                }
            }
            b
        };
        let (mut kept, mut dropped) = (0usize, 0usize);
        for p in &states {
            p.legal_steps(&mut full);
            let enemies = p.occupied_by(!p.side());
            for density in [0.0, 0.1, 0.3, 1.0] {
                let mask = StepMask {
                    own_from: random_board(&mut rng, density),
                    own_to: random_board(&mut rng, density),
                    enemy_from: random_board(&mut rng, density),
                    enemy_to: random_board(&mut rng, density),
                };
                p.legal_steps_touching(mask, &mut masked);
                let expected: Vec<Step> = full
                    .iter()
                    .copied()
                    .filter(|&s| {
                        if enemies.contains(s.from()) {
                            mask.keeps_enemy(s)
                        } else {
                            mask.keeps_own(s)
                        }
                    })
                    .collect();
                assert_eq!(
                    masked.iter().copied().collect::<Vec<_>>(),
                    expected,
                    "{p:?}"
                );
                kept += expected.len();
                dropped += full.len() - expected.len();
            }
        }
        assert!(
            kept > 100_000 && dropped > 100_000,
            "{kept} kept, {dropped} dropped"
        );
    }

    #[test]
    fn quick_checks_equal_the_generated_list() {
        let states = walk_states(7, 300);
        assert!(states.len() > 20_000, "{}", states.len());
        let mut list = StepList::new();
        let (mut pushes, mut pulls, mut stuck) = (0, 0, 0);
        for p in &states {
            p.legal_steps(&mut list);
            assert_eq!(p.has_legal_step(), !list.is_empty(), "{p:?}");
            stuck += usize::from(list.is_empty());
            for sq in Square::all() {
                for d in Direction::ALL {
                    if let Some(s) = Step::try_new(sq, d) {
                        assert_eq!(p.is_legal_step(s), list.contains(&s), "{s} in {p:?}");
                    }
                }
            }
            match p.pending() {
                crate::Pending::Push { .. } => pushes += 1,
                crate::Pending::Pull { .. } => pulls += 1,
                crate::Pending::None => {}
            }
        }
        // The walk reaches every kind of state the checks distinguish.
        assert!(
            pushes > 100 && pulls > 100 && stuck > 0,
            "{pushes} {pulls} {stuck}"
        );
    }
}
