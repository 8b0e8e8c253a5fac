//! The exact immobilisation detector: can the side to move end its turn leaving the other side
//! without a legal step (a win at once by the official rules' last end check on the board)?
//!
//! A win by immobilisation needs the other side nearly immobile already: the detector asks
//! only where at most [`Limits::mobile`] of its pieces (never more than [`MAX_MOBILE`]) could
//! start a step ([`mobile_pieces`]), and
//! then searches the side to move's steps depth first, with `r` steps left:
//!
//! * a node is cut where some piece of the other side that could start a step needs more than
//!   `r` steps to be stopped ([`steps_to_stop`]: the fewest of freezing it, boxing it in,
//!   moving it and capturing it on its trap, each counted by an admissible bound);
//! * only the steps that start within `r + 2` squares (Manhattan distance) of such a piece are
//!   tried: a step farther away can neither freeze, box, capture nor move one, nor clear the
//!   way or bring help for a step that does, within the steps left; it can only free others;
//! * a board already searched with the same steps left is not searched again (a small table).
//!
//! So the answer is what enumerating every turn would give (pinned by a brute-force test),
//! within a budget of steps: where the budget runs out the answer is "not looked for".
//!
//! Every turn end the search reaches is judged by the official end checks
//! ([`tusk_engine::turn_boundary_result`]): a win is found only where they end the game by
//! immobilisation (a goal or an elimination is the other detectors' to find). The repetition
//! rule is not applied (it needs the game's history): a turn that would repeat a position a
//! third time counts as a move.

use tusk_engine::{
    turn_boundary_result, Bitboard, Color, Direction, EndReason, Pending, PieceKind, Position,
    Square, StepList, StepMask, NEIGHBOURS,
};

/// The most pieces of the other side that may still be able to move for the detector to
/// search: with more, an immobilisation within one turn is not looked for.
pub const MAX_MOBILE: u32 = 4;

/// The steps the detector may play at one call before it gives up in its widest search
/// ([`Limits::FULL`]; a safety bound: the positions it searches have few relevant steps).
pub const STEP_BUDGET: u32 = 20_000;

/// How widely [`can_immobilise`] looks: the trade between the wins it finds and its cost.
///
/// On the turn starts of 400 random games where at most four pieces of the other side could
/// move (2,058 of them), the widest search finds 219 wins: 39 where none could move, 99 with
/// one, 58 with two, 17 with three, 6 with four, and the turn starts with three or four cost
/// four fifths of its 4.1 million steps. 193 of the 219 wins are found within 2,000 steps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// The most pieces of the other side that may still be able to move for the detector to
    /// search (at most [`MAX_MOBILE`]; more counts as [`MAX_MOBILE`]).
    pub mobile: u32,
    /// The steps the detector may play before it gives up.
    pub steps: u32,
}

impl Limits {
    /// The widest search: [`MAX_MOBILE`] mobile pieces, [`STEP_BUDGET`] steps.
    pub const FULL: Limits = Limits {
        mobile: MAX_MOBILE,
        steps: STEP_BUDGET,
    };
}

/// The squares of `color`'s pieces that could start a step if `color` were to move at a turn
/// start on this board: an unfrozen piece beside an empty square (a rabbit not backwards), or
/// an unfrozen piece beside a weaker enemy piece that has an empty square to be pushed to.
/// Empty exactly where `color` would be immobilised. Bitboards only, allocation-free.
pub fn mobile_pieces(pos: &Position, color: Color) -> Bitboard {
    let them = !color;
    let unfrozen = pos.occupied_by(color) - pos.frozen(color);
    let empty = pos.empty_squares();
    let rabbits = unfrozen & pos.pieces_of(color, PieceKind::Rabbit);
    let officers = unfrozen - rabbits;
    let mut mobile = officers & empty.neighbours();
    let backward = Direction::backward(color);
    for dir in Direction::ALL {
        if dir != backward {
            // A rabbit whose square in `dir` is empty.
            mobile |= rabbits & empty.shift(dir.opposite());
        }
    }
    let movable_victims = pos.occupied_by(them) & empty.neighbours();
    for kind in PieceKind::ALL {
        if kind == PieceKind::Rabbit {
            continue;
        }
        let victims = movable_victims & pos.weaker_than(them, kind);
        mobile |= officers & pos.pieces_of(color, kind) & victims.neighbours();
    }
    mobile
}

/// A lower bound on the steps of the side to move (`them`'s enemy) that leave `them`'s piece
/// of `kind` on `sq` unable to start a step: the fewest of
///
/// * freezing it: a stronger enemy piece brought beside it (its distance, less one) and every
///   friend beside it moved away (one step of a push or pull can move one friend, or two
///   where a guard leaves a trap whose piece is also beside it: half of them, rounded up);
/// * moving it (a push or a pull: a stronger piece beside it, then its own step);
/// * boxing it in: each empty square it could step to filled (a step fills one square);
/// * capturing it where it stands on a trap (its guards, the friends beside it, gone);
///
/// and at least one.
pub fn steps_to_stop(pos: &Position, them: Color, kind: PieceKind, sq: Square) -> u32 {
    let enemy = !them;
    let stronger = pos.stronger_than(enemy, kind);
    let approach = stronger
        .map(|a| u32::from(a.distance(sq)) - 1)
        .min()
        .unwrap_or(u32::MAX / 2);
    let near = NEIGHBOURS[sq.index()];
    let friends = (pos.occupied_by(them) & near).count();
    let freeze = approach + friends.div_ceil(2);
    let displace = approach + 1;
    let mut targets = near & pos.empty_squares();
    if kind == PieceKind::Rabbit {
        if let Some(behind) = sq.step(Direction::backward(them)) {
            targets -= Bitboard::from_square(behind);
        }
    }
    let mut fewest = freeze.min(displace).min(targets.count());
    if sq.is_trap() {
        fewest = fewest.min(friends.div_ceil(2));
    }
    fewest.max(1)
}

/// Whether [`can_immobilise`] has anything to search: the side to move has steps left, at
/// most `max_mobile` pieces of the other side (and at most [`MAX_MOBILE`]) could start a
/// step, and each of them can be stopped within the steps left ([`steps_to_stop`]). Where
/// not, no immobilisation is possible this turn but for the mobile pieces beyond
/// `max_mobile`. Bitboards only: a searcher asks this at every turn start.
pub fn worth_searching(pos: &Position, max_mobile: u32) -> bool {
    let them = !pos.side();
    let mobile = mobile_pieces(pos, them);
    let left = u32::from(pos.steps_left());
    left > 0
        && mobile.count() <= max_mobile.min(MAX_MOBILE)
        && Iterator::all(&mut mobile.into_iter(), |sq| {
            let kind = pos.piece_at(sq).expect("a mobile piece").kind();
            steps_to_stop(pos, them, kind, sq) <= left
        })
}

/// The squares within `d` steps (Manhattan distance) of `b`.
fn within(mut b: Bitboard, d: u32) -> Bitboard {
    for _ in 0..d {
        b |= b.neighbours();
    }
    b
}

/// Whether the side to move can end its turn (within the steps it has left) leaving the other
/// side no legal step, a win by the official end checks; `Some(false)` where it cannot,
/// `None` where the other side has more than `limits.mobile` pieces that could move (not
/// looked for) or more than `limits.steps` steps would be needed to tell. Adds the steps
/// played to `steps`. `pos` is left exactly as it was.
pub fn can_immobilise(pos: &mut Position, limits: Limits, steps: &mut u32) -> Option<bool> {
    let max_mobile = limits.mobile.min(MAX_MOBILE);
    if !worth_searching(pos, max_mobile) {
        return (pos.steps_left() > 0 && mobile_pieces(pos, !pos.side()).count() <= max_mobile)
            .then_some(false);
    }
    let budget = limits.steps;
    let mut search = Search {
        us: pos.side(),
        played: 0,
        budget,
        lists: std::array::from_fn(|_| StepList::new()),
        seen: [0; SEEN],
    };
    let found = search.run(pos);
    *steps += search.played;
    (search.played < budget || found).then_some(found)
}

/// The depth-first search of [`can_immobilise`].
struct Search {
    /// The side to move at the start.
    us: Color,
    /// Steps played so far.
    played: u32,
    /// The steps it may play.
    budget: u32,
    /// One step list per step of the turn.
    lists: [StepList; 4],
    /// Hashes of boards searched without a win (by steps left: the hash includes them).
    seen: [u64; SEEN],
}

/// The slots of [`Search::seen`].
const SEEN: usize = 512;

impl Search {
    /// Whether some continuation of the turn from `pos` wins at once.
    fn run(&mut self, pos: &mut Position) -> bool {
        if pos.can_end_turn() && self.wins_if_ended(pos) {
            return true;
        }
        let left = pos.steps_left();
        if left == 0 || self.played >= self.budget {
            return false;
        }
        let them = !self.us;
        let mobile = mobile_pieces(pos, them);
        let pushing = matches!(pos.pending(), Pending::Push { .. });
        if !pushing {
            let slot = (pos.hash() as usize) % SEEN;
            if self.seen[slot] == pos.hash() {
                return false;
            }
            self.seen[slot] = pos.hash();
            let out_of_reach = Iterator::any(&mut mobile.into_iter(), |sq| {
                let kind = pos.piece_at(sq).expect("a mobile piece").kind();
                steps_to_stop(pos, them, kind, sq) > u32::from(left)
            });
            if out_of_reach {
                return false;
            }
        }
        let mask = if pushing || mobile.is_empty() {
            // A push must be completed; with the other side immobile already, any step that
            // keeps it so will do.
            StepMask::ALL
        } else {
            let near = within(mobile, u32::from(left) + 2);
            StepMask {
                own_from: near,
                own_to: Bitboard::EMPTY,
                enemy_from: near,
                enemy_to: Bitboard::EMPTY,
            }
        };
        let depth = usize::from(4 - left);
        let mut list = std::mem::take(&mut self.lists[depth]);
        pos.legal_steps_touching(mask, &mut list);
        let mut found = false;
        for &step in list.iter() {
            self.played += 1;
            let undo = pos.play_step_unchecked(step);
            found = self.run(pos);
            pos.undo_step(step, undo);
            if found || self.played >= self.budget {
                break;
            }
        }
        self.lists[depth] = list;
        found
    }

    /// Whether ending the turn here wins by immobilisation.
    fn wins_if_ended(&self, pos: &mut Position) -> bool {
        let undo = pos.end_turn();
        let won = turn_boundary_result(pos)
            .is_some_and(|r| r.winner == self.us && r.reason == EndReason::Immobilization);
        pos.undo_end_turn(undo);
        won
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_util::pos;
    use tusk_engine::notation::board::{parse_aei, to_aei};
    use tusk_engine::{EndReason, NEIGHBOURS};

    /// The same board with the other side to move.
    fn passed(p: &Position) -> Position {
        parse_aei(&format!("{} {}", (!p.side()).letter(), to_aei(p))).expect("a valid board")
    }

    /// Whether some turn wins at once by immobilisation, by brute force over every turn.
    fn immobilises_by_brute_force(p: &Position) -> bool {
        tusk_tests::some_turn_wins_by(p, EndReason::Immobilization)
    }

    /// The mobile pieces are exactly the origins of the side's own legal steps and the pushers
    /// of its legal pushes, on random-game boards for both sides.
    #[test]
    fn mobile_pieces_are_the_origins_of_legal_first_steps() {
        let mut checked = 0;
        let mut list = StepList::new();
        for seed in 0..40 {
            for p in tusk_tests::random_game(seed, 120)
                .into_iter()
                .filter(|p| p.at_turn_start())
            {
                for q in [passed(&p), p] {
                    let us = q.side();
                    q.legal_steps(&mut list);
                    let mut expected = Bitboard::EMPTY;
                    for &s in list.iter() {
                        match q.piece_at(s.from()) {
                            Some(piece) if piece.color() == us => {
                                expected |= Bitboard::from_square(s.from());
                            }
                            Some(victim) => {
                                expected |= (q.stronger_than(us, victim.kind()) - q.frozen(us))
                                    & NEIGHBOURS[s.from().index()];
                            }
                            None => unreachable!("a step moves a piece"),
                        }
                    }
                    assert_eq!(mobile_pieces(&q, us), expected, "{q:?}");
                    assert_eq!(expected.any(), q.has_legal_step());
                    checked += 1;
                }
            }
        }
        assert!(checked > 3000, "{checked}");
    }

    /// Hand-made boards, silver to move, gold's last pieces on its home rank; each answer is
    /// brute force's too.
    #[test]
    fn the_detector_finds_hand_made_immobilisations() {
        let cases: [(&[(&str, &str)], bool); 5] = [
            // Gold's rabbit on a1 is boxed by silver's rabbit on a2 and frozen by the elephant
            // on b1: any silver step that keeps it so wins.
            (&[("R", "a1"), ("r", "a2"), ("e", "b1")], true),
            // The elephant two steps away walks to b1 (c2, c1, b1): frozen.
            (&[("R", "a1"), ("e", "c2"), ("r", "h8")], true),
            // Three steps away (d2): c2, c1, b1 still freezes it.
            (&[("R", "a1"), ("e", "d2"), ("r", "h8")], true),
            // Five steps away: the rabbit cannot be frozen or boxed in one turn.
            (&[("R", "a1"), ("e", "f2"), ("r", "h8")], false),
            // A gold dog on h1 can still step when the rabbit is frozen.
            (&[("R", "a1"), ("D", "h1"), ("e", "c2"), ("r", "h8")], false),
        ];
        for (pieces, expected) in cases {
            let mut p = pos("s", pieces);
            assert_eq!(
                immobilises_by_brute_force(&p),
                expected,
                "brute force: {p:?}"
            );
            let before = p.clone();
            let mut steps = 0;
            assert_eq!(
                can_immobilise(&mut p, Limits::FULL, &mut steps),
                Some(expected),
                "{p:?}"
            );
            assert_eq!(p, before);
            assert!(steps > 0);
            // A budget too small to tell gives no answer, and stops at it.
            let mut steps = 0;
            let answer = can_immobilise(
                &mut p,
                Limits {
                    steps: 1,
                    ..Limits::FULL
                },
                &mut steps,
            );
            assert!(answer.is_none() || answer == Some(true), "{p:?}");
            assert!(
                steps <= 1 || answer == Some(true),
                "{steps} steps at a budget of 1"
            );
        }
        // With gold's rabbit and dog both beside silver's elephant and camel there is nothing
        // to look for where more than `MAX_MOBILE` gold pieces can move.
        let many = pos(
            "s",
            &[
                ("R", "a1"),
                ("R", "b1"),
                ("R", "c1"),
                ("R", "d1"),
                ("R", "e1"),
                ("e", "h8"),
            ],
        );
        assert_eq!(
            can_immobilise(&mut many.clone(), Limits::FULL, &mut 0),
            None
        );
    }

    /// Wherever the detector answers on random-game turn starts with few mobile pieces on the
    /// other side, the answer is brute force's; and it answers in nearly all of them.
    #[test]
    fn the_detector_agrees_with_brute_force() {
        let (mut answered, mut wins, mut skipped, mut played) = (0, 0, 0, 0u64);
        for seed in 0..400 {
            for mut p in tusk_tests::random_game(seed, 200)
                .into_iter()
                .filter(|p| p.at_turn_start() && turn_boundary_result(p).is_none())
            {
                let mobile = mobile_pieces(&p, !p.side()).count();
                if mobile > MAX_MOBILE {
                    continue;
                }
                let mut steps = 0;
                let answer = can_immobilise(&mut p, Limits::FULL, &mut steps);
                played += u64::from(steps);
                // A narrower search answers as the widest where it looks, and only there.
                let two = Limits {
                    mobile: 2,
                    ..Limits::FULL
                };
                let narrow = can_immobilise(&mut p, two, &mut 0);
                assert_eq!(narrow, if mobile > 2 { None } else { answer }, "{p:?}");
                match answer {
                    Some(found) => {
                        answered += 1;
                        wins += usize::from(found);
                        assert_eq!(found, immobilises_by_brute_force(&p), "{p:?}");
                    }
                    None => skipped += 1,
                }
            }
        }
        eprintln!("{answered} answered ({wins} wins), {skipped} out of budget, {played} steps");
        assert!(
            answered > 50 && wins > 5,
            "{answered} answered, {wins} wins"
        );
        assert!(skipped * 10 <= answered, "{skipped} out of budget");
    }
}
