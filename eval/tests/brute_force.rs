//! The static goal and capture detectors agree exactly with enumerating every turn.

mod common;

use std::collections::HashSet;

use tusk_engine::{PieceKind, Position, StepList, TurnGen};
use tusk_eval::captures::{best_capture, can_capture, capturable_kinds, KindSet};
use tusk_eval::goal::{can_goal, goal_in};

/// Positions per family (random games, goal chances, defended goal chances, capture chances).
const PER_FAMILY: usize = 2_000;

/// What enumerating every turn says: can the side to move goal, and which enemy kinds can it
/// capture.
fn brute(pos: &Position, gen: &mut TurnGen) -> (bool, KindSet) {
    let us = pos.side();
    let them = !us;
    let before: Vec<u32> = PieceKind::ALL.iter().map(|&k| pos.count(them, k)).collect();
    let mut goal = false;
    let mut kinds = KindSet::EMPTY;
    gen.for_each_turn(pos, &mut |t| {
        if t.position.rabbit_on_goal(us) {
            goal = true;
        }
        for k in PieceKind::ALL {
            if t.position.count(them, k) < before[k.index()] {
                kinds.insert(k);
            }
        }
    });
    (goal, kinds)
}

/// The fewest steps to goal by breadth-first search over every step sequence. Mid-turn, a
/// rabbit already on goal in a turn that may end now is a goal in 0 steps.
fn brute_goal_steps(pos: &Position) -> Option<u8> {
    let us = pos.side();
    if pos.rabbit_on_goal(us) && pos.can_end_turn() {
        return Some(0);
    }
    let mut layer = vec![pos.clone()];
    let mut steps = StepList::new();
    for depth in 1..=pos.steps_left() {
        let mut seen = HashSet::new();
        let mut next = Vec::new();
        for p in &layer {
            p.legal_steps(&mut steps);
            for &s in steps.iter() {
                let q = p.after_step(s);
                if q.rabbit_on_goal(us) && !matches!(q.pending(), tusk_engine::Pending::Push { .. })
                {
                    return Some(depth);
                }
                if seen.insert(q.hash()) {
                    next.push(q);
                }
            }
        }
        layer = next;
    }
    None
}

#[test]
fn goal_and_capture_detectors_agree_with_brute_force() {
    let positions = common::all_positions(PER_FAMILY);
    let mut gen = TurnGen::new();
    let (mut goals, mut with_captures, mut kinds_seen, mut near_misses) = (0, 0, 0, 0);
    let mut capture_misses = 0;
    for (i, pos) in positions.iter().enumerate() {
        let (goal, kinds) = brute(pos, &mut gen);
        let fast = goal_in(pos);
        assert_eq!(
            fast.is_some(),
            goal,
            "goal disagreement at #{i}: {pos:?} static {fast:?}"
        );
        assert_eq!(
            can_goal(pos),
            goal,
            "can_goal disagreement at #{i}: {pos:?}"
        );
        if !goal && tusk_eval::goal::goal_bound(pos, pos.steps_left()) <= pos.steps_left() {
            near_misses += 1;
        }
        if goal {
            goals += 1;
            assert_eq!(
                fast,
                brute_goal_steps(pos),
                "goal steps differ at #{i}: {pos:?}"
            );
        }
        let fast_kinds = capturable_kinds(pos);
        assert_eq!(fast_kinds, kinds, "capture kinds differ at #{i}: {pos:?}");
        assert_eq!(
            best_capture(pos),
            kinds.strongest(),
            "best capture at #{i}: {pos:?}"
        );
        assert_eq!(
            can_capture(pos, KindSet(0x3f)),
            !kinds.is_empty(),
            "any capture at #{i}"
        );
        if kinds.is_empty()
            && tusk_eval::captures::capture_bound(pos, KindSet(0x3f), pos.steps_left())
                <= pos.steps_left()
        {
            capture_misses += 1;
        }
        if !kinds.is_empty() {
            with_captures += 1;
            kinds_seen += kinds.0.count_ones();
        }
    }
    eprintln!(
        "brute force agreed on {} positions: {goals} with a goal this turn, {near_misses} without one though the bound allowed it, {with_captures} with captures ({kinds_seen} capturable kinds), {capture_misses} without though the bound allowed one",
        positions.len()
    );
    assert_eq!(positions.len(), 4 * PER_FAMILY);
    assert!(goals >= 500, "too few goal positions to be a test: {goals}");
    assert!(
        with_captures >= 500,
        "too few capture positions: {with_captures}"
    );
}

#[test]
fn detectors_agree_with_brute_force_on_fixture_positions() {
    let positions = tusk_tests::fixture_positions();
    assert_eq!(positions.len(), tusk_tests::TURN_COUNT_POSITIONS);
    let mut gen = TurnGen::new();
    let (mut goals, mut with_captures) = (0, 0);
    for (i, pos) in positions.iter().enumerate() {
        let (goal, kinds) = brute(pos, &mut gen);
        assert_eq!(
            goal_in(pos).is_some(),
            goal,
            "goal disagreement at fixture #{i}: {pos:?}"
        );
        assert_eq!(
            can_goal(pos),
            goal,
            "can_goal disagreement at fixture #{i}: {pos:?}"
        );
        if goal {
            goals += 1;
            assert_eq!(
                goal_in(pos),
                brute_goal_steps(pos),
                "goal steps at fixture #{i}: {pos:?}"
            );
        }
        assert_eq!(
            capturable_kinds(pos),
            kinds,
            "capture kinds at fixture #{i}: {pos:?}"
        );
        assert_eq!(
            best_capture(pos),
            kinds.strongest(),
            "best capture at fixture #{i}"
        );
        if !kinds.is_empty() {
            with_captures += 1;
        }
    }
    eprintln!(
        "brute force agreed on {} fixture positions: {goals} with a goal, {with_captures} with captures",
        positions.len()
    );
}
