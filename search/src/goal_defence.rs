//! Goal defence at the horizon: whether the side to move, threatened with a goal in the
//! opponent's next turn, has any turn that stops every goal. Where it has none (and cannot goal
//! first), the position is lost, however well its static evaluation scores it; the search's
//! horizon then returns the loss instead of standing pat (`goaldef`, see `search.rs`).
//!
//! The walk plays only the node moves the search itself tries under a goal threat (a pass, a
//! capture, or a move touching the threat region grown by the steps left less one; every move
//! where none of those is legal), depth first, and stops at the first turn after which the
//! opponent has no goal. That restriction loses no defence, and "no defence found" over a
//! complete walk is exact: the brute-force test below checks both against every distinct turn. The walk is bounded:
//! past a node budget, or where a goal search exceeds its own, the answer is unknown and the
//! search stands pat as before.
//!
//! The search walks with [`DefenceWalk::refuting`]: at every node it first asks for the goal
//! the opponent would have were the turn to end there, and walks only the moves that can reach
//! that goal's region ([`goal::refutation_region`]) in the steps left, a subset of the moves
//! above once a step is played. Its answers are the same (the tests check both walks against
//! brute force); a loss is proven in about half the nodes.

use tusk_engine::{Bitboard, Pending, Position, StepList};
use tusk_eval::goal;

use crate::moves::{generate, Scored};
use crate::node_move::NodeMove;
use crate::ordering::{capture_gain, grow, touches};

/// Slots of the table of positions already walked (a power of two).
const SEEN: usize = 1 << 12;

/// Nodes of a goal search (the opponent's after a candidate defence, or the side to move's own
/// before the walk) before its answer counts as unknown.
pub(crate) const GOAL_NODES: u32 = 2_000;

/// What the walk found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Defence {
    /// A turn stops every goal of the opponent.
    Found,
    /// No turn does: the side to move loses in the opponent's next turn (unless it goals
    /// first, which the caller checks).
    Lost,
    /// The walk ran out of its budget first.
    Unknown,
}

/// The walk's reusable state: one move list per level (a turn has at most four node moves),
/// the table of positions already walked, and the node count of the current walk.
pub(crate) struct DefenceWalk {
    lists: [Vec<Scored>; 4],
    scratch: StepList,
    /// `(search key, walk stamp)`: a slot belongs to the current walk when its stamp matches.
    seen: Vec<(u64, u32)>,
    stamp: u32,
    /// Nodes walked (positions generated, candidate turn ends checked) in the current walk.
    pub(crate) nodes: u32,
    budget: u32,
    unknown: bool,
    /// The most steps a defence of the current walk may take.
    max_steps: u8,
    /// Whether each node's moves are restricted by the goal the opponent would have were the
    /// turn to end there ([`DefenceWalk::refuting`]) rather than by the threat region grown by
    /// the steps left alone.
    refute: bool,
}

/// The opponent's goal were the turn to end at a node of the walk ([`DefenceWalk::refutation`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Refutation {
    /// It has one, and a defence must change a square of this region
    /// ([`goal::refutation_region`]).
    Goal(Bitboard),
    /// It has none.
    NoGoal,
    /// A push is half done, or the goal search ran out of its nodes.
    Unknown,
}

/// The fewest steps that stop every goal of the opponent ([`DefenceWalk::shortest`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ShortestDefence {
    /// A turn of this many steps (1 to 4) stops every goal, and no shorter one does.
    Steps(u8),
    /// No turn does.
    Lost,
    /// The walk ran out of its budget first.
    Unknown,
}

impl DefenceWalk {
    /// An empty walker (allocates its lists and table once).
    pub(crate) fn new() -> DefenceWalk {
        DefenceWalk {
            lists: std::array::from_fn(|_| Vec::with_capacity(640)),
            scratch: StepList::new(),
            seen: vec![(0, 0); SEEN],
            stamp: 0,
            nodes: 0,
            budget: 0,
            unknown: false,
            max_steps: 4,
            refute: false,
        }
    }

    /// A walker that restricts each node by a refutation: the opponent's goal were the turn to
    /// end there. Every defence must change a square of that goal's region
    /// ([`goal::refutation_region`]), so only moves within the steps left of it are walked, a
    /// tighter set than the turn start's threat region once a step is played. The same answers
    /// as [`DefenceWalk::new`]'s walk (the tests compare both with brute force), in fewer nodes.
    pub(crate) fn refuting() -> DefenceWalk {
        DefenceWalk {
            refute: true,
            ..DefenceWalk::new()
        }
    }

    /// Whether the side to move at the turn start `pos` has a turn that stops every goal of the
    /// opponent, whose goal threat touches `threat` (the search's threat region), walking at
    /// most `budget` nodes. Leaves `pos` as it found it.
    pub(crate) fn find(&mut self, pos: &mut Position, threat: Bitboard, budget: u32) -> Defence {
        self.nodes = 0;
        self.budget = budget;
        self.find_within(pos, threat, 4)
    }

    /// The fewest steps of a turn from the turn start `pos` that stop every goal of the
    /// opponent (threat region `threat`): walks of at most 1, 2, 3 and 4 steps in turn, at most
    /// `budget` nodes in all. Leaves `pos` as it found it.
    pub(crate) fn shortest(
        &mut self,
        pos: &mut Position,
        threat: Bitboard,
        budget: u32,
    ) -> ShortestDefence {
        self.nodes = 0;
        self.budget = budget;
        for k in 1..=4 {
            match self.find_within(pos, threat, k) {
                Defence::Found => return ShortestDefence::Steps(k),
                Defence::Unknown => return ShortestDefence::Unknown,
                Defence::Lost => {}
            }
        }
        ShortestDefence::Lost
    }

    /// One walk of defences of at most `max_steps` steps, within what is left of the budget.
    fn find_within(&mut self, pos: &mut Position, threat: Bitboard, max_steps: u8) -> Defence {
        self.stamp = self.stamp.wrapping_add(1).max(1);
        self.unknown = false;
        self.max_steps = max_steps;
        match self.walk(pos, threat, 0) {
            true => Defence::Found,
            false if self.unknown => Defence::Unknown,
            false => Defence::Lost,
        }
    }

    /// Marks `key` walked; false when it already was in this walk.
    fn first_visit(&mut self, key: u64) -> bool {
        let mut slot = key as usize & (SEEN - 1);
        for _ in 0..8 {
            let (k, s) = self.seen[slot];
            if s != self.stamp {
                self.seen[slot] = (key, self.stamp);
                return true;
            }
            if k == key {
                return false;
            }
            slot = (slot + 1) & (SEEN - 1);
        }
        // The neighbourhood is full: walk it again rather than lose a defence.
        true
    }

    /// Whether the turn ending here stops every goal of the opponent (an unknown answer is
    /// recorded and counts as no).
    fn ends_defended(&mut self, pos: &mut Position) -> bool {
        self.nodes += 1;
        let undo = pos.end_turn();
        let answer = goal::can_goal_within(pos, GOAL_NODES);
        pos.undo_end_turn(undo);
        match answer {
            Some(can) => !can,
            None => {
                self.unknown = true;
                false
            }
        }
    }

    /// The opponent's goal at `pos` were the side to move's turn to end here (a node of the
    /// walk; the end is played whether or not the rules allow it now), by one goal search.
    fn refutation(&mut self, pos: &mut Position) -> Refutation {
        if matches!(pos.pending(), Pending::Push { .. }) {
            return Refutation::Unknown;
        }
        self.nodes += 1;
        let undo = pos.end_turn();
        let answer = goal::goal_squares_within(pos, GOAL_NODES);
        pos.undo_end_turn(undo);
        match answer {
            Some(Some(squares)) => Refutation::Goal(goal::refutation_region(squares)),
            Some(None) => Refutation::NoGoal,
            None => Refutation::Unknown,
        }
    }

    /// Depth-first walk of the restricted moves from `pos`, `level` node moves into the turn.
    fn walk(&mut self, pos: &mut Position, threat: Bitboard, level: usize) -> bool {
        if self.nodes >= self.budget {
            self.unknown = true;
            return false;
        }
        self.nodes += 1;
        if !self.first_visit(pos.search_key()) {
            return false;
        }
        // The opponent's goal were the turn to end here, where the walk refutes by it: the
        // turn ending here defends when there is none; otherwise only moves that can reach
        // its region in the steps left can stop it.
        let refutation = if self.refute {
            match self.refutation(pos) {
                Refutation::NoGoal if pos.can_end_turn() => {
                    return true;
                }
                Refutation::Goal(r) => Some(r),
                _ => None,
            }
        } else {
            None
        };
        let mut list = std::mem::take(&mut self.lists[level]);
        generate(pos, &mut list, &mut self.scratch);
        let grown = grow(
            refutation.unwrap_or(threat),
            pos.steps_left().saturating_sub(1),
        );
        let allowed = |pos: &Position, m: NodeMove| match refutation {
            // The turn ending here was checked above.
            Some(_) => !m.is_pass() && touches(m, grown),
            None => m.is_pass() || touches(m, grown) || (m.len() > 0 && capture_gain(pos, m) > 0),
        };
        if list.iter().any(|&(m, _)| allowed(pos, m)) {
            list.retain(|&(m, _)| allowed(pos, m));
        }
        // Within the walk's step limit (a turn start has four steps left); a walk of four
        // steps has none to apply.
        let left = self.max_steps.saturating_sub(4 - pos.steps_left());
        if left < pos.steps_left() {
            list.retain(|&(m, _)| m.is_pass() || m.len() <= u32::from(left));
        }
        // Passes first: the cheapest defence to check is the turn ending now.
        list.sort_unstable_by_key(|&(m, _)| !m.is_pass());
        let mut found = false;
        for &(m, _) in list.iter() {
            if m.is_pass() {
                found = self.ends_defended(pos);
            } else {
                let a = m.first();
                let ua = pos.play_step_unchecked(a);
                let ub = (m.len() == 2).then(|| pos.play_step_unchecked(m.second()));
                found = if pos.steps_left() == 0 {
                    pos.can_end_turn() && self.ends_defended(pos)
                } else {
                    self.walk(pos, threat, level + 1)
                };
                if let Some(ub) = ub {
                    pos.undo_step(m.second(), ub);
                }
                pos.undo_step(a, ua);
            }
            if found {
                break;
            }
            if self.nodes >= self.budget {
                self.unknown = true;
                break;
            }
        }
        self.lists[level] = list;
        found
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ordering::threat_region;
    use std::collections::HashSet;
    use tusk_engine::notation::board::parse_aei;

    /// The goal-defence tactics set (a few turns defend each) and the turn starts of `seeds`
    /// seeded random games; with how many came from the set.
    fn test_positions(seeds: u64) -> (Vec<Position>, usize) {
        let data = include_str!("../tests/data/goal_defence.txt");
        let mut positions: Vec<Position> = data
            .lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
            .map(|l| parse_aei(l.split('\t').next().unwrap()).unwrap())
            .collect();
        let from_data = positions.len();
        for seed in 0..seeds {
            positions.extend(
                tusk_tests::random_game(seed, 120)
                    .into_iter()
                    .filter(|p| p.at_turn_start()),
            );
        }
        (positions, from_data)
    }

    /// Brute force over every distinct turn agrees with the walk: it finds a defence exactly
    /// where some turn stops every goal, and proves the loss exactly where none does. The walk
    /// plays only the moves the search tries under a goal threat, so this is also the proof
    /// that the search's goal-threat restriction loses no defence. On the goal-defence tactics
    /// set and the threatened turn starts of seeded random games.
    #[test]
    fn the_walk_agrees_with_every_turn() {
        walk_agrees_with_every_turn(DefenceWalk::new());
    }

    /// [`the_walk_agrees_with_every_turn`] for the walk restricted by refutations.
    #[test]
    fn the_refuting_walk_agrees_with_every_turn() {
        walk_agrees_with_every_turn(DefenceWalk::refuting());
    }

    fn walk_agrees_with_every_turn(mut walk: DefenceWalk) {
        let (positions, from_data) = test_positions(60);
        assert!(from_data >= 100, "{from_data}");
        let mut turns = tusk_engine::TurnGen::new();
        let (mut threatened, mut found, mut lost, mut unknown) = (0, 0, 0, 0);
        let (mut found_nodes, mut lost_nodes) = (Vec::new(), Vec::new());
        for p in &positions {
            let mut pos = p.clone();
            let threat = threat_region(&mut pos);
            if threat.is_empty() || goal::goal_in_mut(&mut pos).is_some() {
                continue;
            }
            threatened += 1;
            let mut any = false;
            turns.for_each_turn(&pos, &mut |t| any |= !goal::can_goal(t.position));
            let verdict = walk.find(&mut pos, threat, 1_000_000);
            assert_eq!(&pos, p);
            let aei = tusk_engine::notation::board::to_aei_with_side(p);
            match verdict {
                Defence::Found => {
                    assert!(any, "{aei}: a defence found where no turn defends");
                    found += 1;
                    found_nodes.push(walk.nodes);
                }
                Defence::Lost => {
                    assert!(!any, "{aei}: no defence found where a turn defends");
                    lost += 1;
                    lost_nodes.push(walk.nodes);
                }
                Defence::Unknown => unknown += 1,
            }
        }
        let median = |v: &mut Vec<u32>| {
            v.sort_unstable();
            v.get(v.len() / 2).copied().unwrap_or(0)
        };
        // The search's default walk budget.
        let budget = crate::Params::default().goal_defence_nodes;
        let within = |v: &[u32]| v.iter().filter(|&&n| n <= budget).count();
        eprintln!(
            "{threatened} threatened turn starts: {found} defended (median {} nodes, {} within \
             {budget}), {lost} lost (median {} nodes, {} within, most {}), \
             {unknown} unknown",
            median(&mut found_nodes),
            within(&found_nodes),
            median(&mut lost_nodes),
            within(&lost_nodes),
            lost_nodes.last().copied().unwrap_or(0),
        );
        assert!(
            threatened >= from_data + 20,
            "{threatened} threatened positions"
        );
        assert!(found >= from_data, "{found} defended");
        assert!(lost >= 20, "{lost} lost");
        assert_eq!(unknown, 0, "the walk must finish within its budget here");
    }

    /// A gold rabbit on d7 with nothing in front of it: silver's elephant far away on a1
    /// cannot stop it (lost); on c8 it steps in front and freezes it (found).
    #[test]
    fn a_free_rabbit_one_step_from_goal() {
        let mut walk = DefenceWalk::new();
        for (aei, want) in [
            (
                "s [           R                   r                        e   E   ]",
                Defence::Lost,
            ),
            (
                "s [  e        R                   r                            E   ]",
                Defence::Found,
            ),
        ] {
            let mut p = parse_aei(aei).unwrap();
            let threat = threat_region(&mut p);
            assert!(threat.any(), "{aei}");
            assert_eq!(walk.find(&mut p, threat, 100_000), want, "{aei}");
        }
        // A budget too small to finish says so.
        let mut p =
            parse_aei("s [           R                   r                        e   E   ]")
                .unwrap();
        let threat = threat_region(&mut p);
        assert_eq!(walk.find(&mut p, threat, 3), Defence::Unknown);
    }

    /// The fewest steps after which ending the turn leaves the opponent no goal, by breadth
    /// first over every step sequence (positions deduplicated per layer and across layers);
    /// `None` when no turn of up to four steps does.
    fn shortest_by_brute_force(p: &Position) -> Option<u8> {
        let mut layer = vec![p.clone()];
        let mut seen = HashSet::new();
        let mut steps = StepList::new();
        for k in 1..=4u8 {
            let mut next = Vec::new();
            for q in &layer {
                q.legal_steps(&mut steps);
                for &s in steps.as_slice() {
                    let mut r = q.clone();
                    r.play_step_unchecked(s);
                    if seen.insert(r.search_key()) {
                        next.push(r);
                    }
                }
            }
            for r in &next {
                if r.can_end_turn() {
                    let mut e = r.clone();
                    e.end_turn();
                    if !goal::can_goal(&e) {
                        return Some(k);
                    }
                }
            }
            layer = next;
        }
        None
    }

    /// The iterative walk's shortest defence equals brute force over every step sequence, on
    /// the goal-defence tactics set and the threatened turn starts of seeded random games: the
    /// step limit loses no short defence, and a longer one is never reported as shorter.
    #[test]
    fn the_shortest_defence_agrees_with_brute_force() {
        shortest_defence_agrees_with_brute_force(DefenceWalk::new());
    }

    /// [`the_shortest_defence_agrees_with_brute_force`] for the walk restricted by refutations.
    #[test]
    fn the_refuting_shortest_defence_agrees_with_brute_force() {
        shortest_defence_agrees_with_brute_force(DefenceWalk::refuting());
    }

    fn shortest_defence_agrees_with_brute_force(mut walk: DefenceWalk) {
        let (positions, _) = test_positions(30);
        let mut by_steps = [0usize; 5];
        for p in &positions {
            let mut pos = p.clone();
            let threat = threat_region(&mut pos);
            if threat.is_empty() || goal::goal_in_mut(&mut pos).is_some() {
                continue;
            }
            let got = walk.shortest(&mut pos, threat, 1_000_000);
            assert_eq!(&pos, p);
            let aei = tusk_engine::notation::board::to_aei_with_side(p);
            let want = match shortest_by_brute_force(p) {
                Some(k) => ShortestDefence::Steps(k),
                None => ShortestDefence::Lost,
            };
            assert_eq!(got, want, "{aei}");
            by_steps[match want {
                ShortestDefence::Steps(k) => usize::from(k),
                _ => 0,
            }] += 1;
        }
        eprintln!("shortest defences (lost, 1, 2, 3, 4 steps): {by_steps:?}");
        // Every length occurs, so each limit of the walk is exercised.
        assert!(by_steps.iter().all(|&n| n > 0), "{by_steps:?}");
    }
}
