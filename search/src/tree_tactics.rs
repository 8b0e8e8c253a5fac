//! Approach-and-push tactics in the main search ([`crate::Feature::TreeTactics`]): the part
//! of sharp's "relevant tactics" (its `genRelevantTactics`, generated right after the captures
//! at every node and searched without reductions) that moves enemy pieces about the traps
//! with three or four steps, one move each.
//!
//! A target is an enemy piece beside a trap (a trap guard), or one two or three squares from
//! a trap that the side to move guards and the enemy does not. A tactic move is one own piece
//! stronger than the target walking straight towards it (one or two steps, each a step
//! closer) and then pushing or pulling it: any push or pull of a trap guard, and for the
//! other targets only those that bring the piece nearer the trap. Two-step pushes and pulls
//! are node moves already; the walk makes the three- and four-step ones that a search with
//! less depth left than that would never play. Nothing is captured on the way or by the push
//! (captures are the capture moves', [`crate::tree_captures`]); moves reaching the same board
//! are given once.

use tusk_engine::{Bitboard, Color, Position, Square, Step, StepList, StepMask, NEIGHBOURS};

use crate::tree_captures::SequenceNode;

/// The most steps of a tactic move (a whole turn).
pub(crate) const MAX_STEPS: usize = 4;

/// One tactic move: its steps and the hash of the position after them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct TacticMove {
    steps: [Step; MAX_STEPS],
    len: u8,
    /// [`Position::hash`] after the move.
    pub(crate) hash: u64,
}

impl TacticMove {
    /// The move's steps, in order.
    #[inline]
    pub(crate) fn steps(&self) -> &[Step] {
        &self.steps[..usize::from(self.len)]
    }
}

/// Squares within `r` steps of `sq` on an empty board, `sq` included.
fn within(sq: Square, r: u8) -> Bitboard {
    let mut b = Bitboard::from_square(sq);
    for _ in 0..r {
        b |= b.neighbours();
    }
    b
}

/// The traps that `us` guards and the enemy does not.
fn held_traps(pos: &Position, us: Color) -> impl Iterator<Item = Square> + '_ {
    Square::TRAPS.into_iter().filter(move |t| {
        let around = NEIGHBOURS[t.index()];
        (pos.occupied_by(us) & around).any() && (pos.occupied_by(!us) & around).is_empty()
    })
}

/// Work state of one call of [`tactic_moves`].
struct Walk<'a> {
    out: &'a mut Vec<TacticMove>,
    /// The square of the piece to push or pull.
    target: Square,
    /// The trap the target must be brought nearer to, if any (none for a trap guard).
    closer: Option<Square>,
    path: [Step; MAX_STEPS],
    /// Steps generated or played so far (the generator's work).
    played: u32,
}

impl Walk<'_> {
    /// From `pos` after `len` steps of the walker now on `walker`, towards the target:
    /// records the pushes and pulls of the target once beside it, or steps on.
    fn walk(&mut self, pos: &mut Position, walker: Square, len: usize) {
        let target = self.target;
        let left = usize::from(pos.steps_left());
        if walker.distance(target) == 1 {
            if len > 0 && left >= 2 {
                self.pushes(pos, walker, len);
            }
            return;
        }
        if left < 3 {
            return;
        }
        let mut steps = StepList::new();
        let walker_only = StepMask {
            own_from: Bitboard::from_square(walker),
            own_to: Bitboard::EMPTY,
            enemy_from: Bitboard::EMPTY,
            enemy_to: Bitboard::EMPTY,
        };
        pos.legal_steps_touching(walker_only, &mut steps);
        self.played += steps.len() as u32;
        for &s in steps.iter() {
            if s.to().distance(target) >= walker.distance(target) {
                continue;
            }
            let undo = pos.play_step_unchecked(s);
            // Nothing is captured on the way (the walker itself on a trap, or a piece it
            // guarded).
            if undo.captured().is_none() {
                self.path[len] = s;
                self.walk(pos, s.to(), len + 1);
            }
            pos.undo_step(s, undo);
        }
    }

    /// Records every push and pull of the target by the piece on `walker` after the `len`
    /// steps of the walk (see the module docs).
    fn pushes(&mut self, pos: &mut Position, walker: Square, len: usize) {
        let target = self.target;
        let empty = pos.empty_squares();
        // A push: the target steps away, the walker into its square. A pull: the walker
        // steps away, the target into its square. Each with the square the target lands on.
        let pushes = (NEIGHBOURS[target.index()] & empty).map(|e| (target, e, walker, target, e));
        let pulls =
            (NEIGHBOURS[walker.index()] & empty).map(|e| (walker, e, target, walker, walker));
        for (a_from, a_to, b_from, b_to, lands) in pushes.chain(pulls) {
            let (Some(a), Some(b)) = (Step::between(a_from, a_to), Step::between(b_from, b_to))
            else {
                continue;
            };
            if let Some(trap) = self.closer {
                if lands.distance(trap) >= target.distance(trap) {
                    continue;
                }
            }
            self.played += 2;
            if !pos.is_legal_step(a) {
                continue;
            }
            let ua = pos.play_step_unchecked(a);
            if !pos.is_legal_step(b) {
                pos.undo_step(a, ua);
                continue;
            }
            let ub = pos.play_step_unchecked(b);
            let captured = ua.captured().is_some() || ub.captured().is_some();
            let hash = pos.hash();
            pos.undo_step(b, ub);
            pos.undo_step(a, ua);
            if captured || self.out.iter().any(|t| t.hash == hash) {
                continue;
            }
            let mut steps = self.path;
            steps[len] = a;
            steps[len + 1] = b;
            self.out.push(TacticMove {
                steps,
                len: (len + 2) as u8,
                hash,
            });
        }
    }
}

/// Fills `out` with the tactic moves of the side to move in `pos` (see the module docs), by
/// target, the strongest first; `pos` is left as it was. Returns the number of steps the
/// generator generated or tried (its work, which the searcher charges against a node limit).
pub(crate) fn tactic_moves(pos: &mut Position, out: &mut Vec<TacticMove>) -> u32 {
    out.clear();
    let left = pos.steps_left();
    if left < 3 || !matches!(pos.pending(), tusk_engine::Pending::None) {
        return 0;
    }
    let us = pos.side();
    let them = !us;
    let guards = pos.occupied_by(them) & ADJACENT_TRAP_SQUARES;
    // At most 16 enemy pieces, each a target once.
    let mut targets: [(Square, Option<Square>); 16] = [(Square::from_index(0), None); 16];
    let mut n = 0;
    for t in guards {
        targets[n] = (t, None);
        n += 1;
    }
    let mut claimed = guards;
    for trap in held_traps(pos, us) {
        let ring = within(trap, 3) - within(trap, 1);
        for t in pos.occupied_by(them) & (ring - claimed) {
            targets[n] = (t, Some(trap));
            n += 1;
        }
        claimed |= pos.occupied_by(them) & ring;
    }
    let targets = &mut targets[..n];
    targets
        .sort_by_key(|&(t, _)| std::cmp::Reverse(pos.piece_at(t).map_or(0, |p| p.kind().index())));
    let mut walk = Walk {
        out,
        target: Square::from_index(0),
        closer: None,
        path: [Step::between(Square::from_index(0), Square::from_index(1)).expect("a1e");
            MAX_STEPS],
        played: 0,
    };
    for &(target, closer) in targets.iter() {
        let Some(victim) = pos.piece_at(target) else {
            continue;
        };
        // Walkers one or two steps from being beside the target.
        let reach = within(target, left - 1) - NEIGHBOURS[target.index()];
        let walkers = pos.stronger_than(us, victim.kind()) & reach & !pos.frozen(us);
        (walk.target, walk.closer) = (target, closer);
        for w in walkers {
            walk.walk(pos, w, 0);
        }
    }
    walk.played
}

/// Squares beside a trap.
const ADJACENT_TRAP_SQUARES: Bitboard = Bitboard::TRAPS.neighbours();

impl crate::search::Worker<'_> {
    /// Searches the tactic moves at the node (see the module docs), after the capture moves;
    /// true where one reached beta or the search stopped.
    pub(crate) fn search_tree_tactics(&mut self, node: &mut SequenceNode) -> bool {
        if self.pos.steps_left() < 3 {
            return false;
        }
        let mut list = std::mem::take(&mut self.tactic_lists[node.h]);
        let played = tactic_moves(&mut self.pos, &mut list);
        self.charge_generator_steps(played);
        let cut = self.try_sequences(list.iter().map(TacticMove::steps), node);
        self.tactic_lists[node.h] = list;
        cut
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_util::position;
    use tusk_engine::notation::board::to_aei;
    use tusk_engine::notation::turn::play_steps;

    /// The boards the tactic moves of `pos` reach, as AEI text.
    fn reached(pos: &Position) -> Vec<String> {
        let mut p = pos.clone();
        let mut out = Vec::new();
        tactic_moves(&mut p, &mut out);
        assert_eq!(p.hash(), pos.hash(), "the position is left as it was");
        out.iter()
            .map(|m| {
                let mut q = pos.clone();
                for &s in m.steps() {
                    assert!(q.is_legal_step(s), "{s:?} of {:?}", m.steps());
                    q.play_step_unchecked(s);
                }
                assert_eq!(q.hash(), m.hash);
                to_aei(&q)
            })
            .collect()
    }

    /// A silver dog guarding c6, two squares from the gold elephant: the elephant walks up
    /// and pushes or pulls it (three steps); the camel, three squares from it, walks two
    /// steps first (four). Both colours.
    #[test]
    fn a_trap_guard_is_walked_up_to_and_pushed() {
        let pos = position(
            Color::Gold,
            &[
                ('E', "e5"),
                ('M', "e6"),
                ('R', "a1"),
                ('d', "c5"),
                ('r', "h8"),
                ('r', "g8"),
            ],
        );
        for (p, moves) in [
            (
                pos.clone(),
                ["Ee5w dc5w Ed5w", "Ee5w Ed5e dc5e", "Me6w Md6s dc5s Md5w"],
            ),
            (
                pos.flip(),
                ["ee4w Dc4w ed4w", "ee4w ed4e Dc4e", "me3w md3n Dc4n md4w"],
            ),
        ] {
            let boards = reached(&p);
            for steps in moves {
                let want = to_aei(&play_steps(&p, steps).expect("legal").1);
                assert!(boards.contains(&want), "{steps} missing from {boards:?}");
            }
            let mut sorted = boards.clone();
            sorted.sort();
            sorted.dedup();
            assert_eq!(sorted.len(), boards.len(), "no board twice");
        }
    }

    /// A piece that is neither beside a trap nor near a trap the side to move holds alone is
    /// no target; nor is one only the side's weaker pieces could push.
    #[test]
    fn pieces_away_from_the_traps_are_no_targets() {
        let far = position(
            Color::Gold,
            &[
                ('E', "e1"),
                ('R', "a1"),
                ('d', "h4"),
                ('r', "h8"),
                ('r', "g8"),
            ],
        );
        assert!(reached(&far).is_empty());
        let weaker = position(
            Color::Gold,
            &[
                ('D', "e5"),
                ('R', "a1"),
                ('h', "c5"),
                ('r', "h8"),
                ('r', "g8"),
            ],
        );
        assert!(reached(&weaker).is_empty());
    }

    /// On the fixture positions, at every point of the turn with three or more steps left,
    /// every tactic move replays legally, is three or four steps long, captures nothing and
    /// reaches a board of its own.
    #[test]
    fn tactic_moves_replay_legally_on_the_fixtures() {
        let mut total = 0;
        for pos in tusk_tests::fixture_positions() {
            if pos.steps_left() < 3 {
                continue;
            }
            let mut p = pos.clone();
            let mut out = Vec::new();
            tactic_moves(&mut p, &mut out);
            for m in &out {
                assert!((3..=4).contains(&m.steps().len()));
                let mut q = pos.clone();
                for &s in m.steps() {
                    assert!(q.is_legal_step(s));
                    let u = q.play_step_unchecked(s);
                    assert!(u.captured().is_none());
                }
            }
            let boards = reached(&pos);
            let mut sorted = boards.clone();
            sorted.sort();
            sorted.dedup();
            assert_eq!(sorted.len(), boards.len());
            total += out.len();
        }
        assert!(total > 50, "the fixtures hold tactic moves: {total}");
    }
}
