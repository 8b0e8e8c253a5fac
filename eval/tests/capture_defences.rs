//! The capture-defence generator against brute force: every step sequence within the steps
//! left is enumerated (a push never left half done at the end), each board reached judged by
//! the exact capture detector with the opponent to move; the expected defences are, length by
//! length, the boards whose threat is below the threat before and below every level a shorter
//! sequence reached, with no own piece of the threatened kind or stronger lost on the way.
//! They must equal what [`capture_defences`] yields, and each yielded move must replay legally
//! to its board and its threat; [`stopped_in_one_step`] must say yes exactly where a defence
//! of one step is expected.

mod common;

use std::collections::{BTreeMap, BTreeSet, HashSet};

use tusk_engine::{Pending, PieceKind, Position, StepList};
use tusk_eval::capture_defences::{capture_defences, stopped_in_one_step, CaptureDefence};
use tusk_eval::capture_moves::Visited;
use tusk_eval::captures::best_capture;

/// The opponent's strongest capture if the side to move ended its turn on `pos`.
fn threat(pos: &Position) -> Option<PieceKind> {
    let mut p = pos.clone();
    p.end_turn();
    best_capture(&p)
}

/// Length -> board -> threat after, for every board a sequence of that length reaches without
/// losing a piece of `limit` or stronger (no half-done push).
type Reached = BTreeMap<usize, BTreeMap<u64, Option<PieceKind>>>;

fn enumerate(
    pos: &mut Position,
    len: usize,
    lost: Option<PieceKind>,
    limit: PieceKind,
    seen: &mut HashSet<(u64, usize)>,
    out: &mut Reached,
) {
    if pos.steps_left() == 0 {
        return;
    }
    let us = pos.side();
    let mut steps = StepList::new();
    pos.legal_steps(&mut steps);
    for &s in steps.iter() {
        let u = pos.play_step_unchecked(s);
        let lost_now = match u.captured() {
            Some((piece, _)) if piece.color() == us => lost.max(Some(piece.kind())),
            _ => lost,
        };
        if !seen.insert((pos.hash(), len + 1)) {
            pos.undo_step(s, u);
            continue;
        }
        if !matches!(pos.pending(), Pending::Push { .. }) && lost_now < Some(limit) {
            out.entry(len + 1)
                .or_default()
                .insert(pos.board_key(), threat(pos));
        }
        enumerate(pos, len + 1, lost_now, limit, seen, out);
        pos.undo_step(s, u);
    }
}

/// The expected defences: length -> boards, by the generator's rule.
fn expected(pos: &Position) -> BTreeMap<usize, BTreeSet<u64>> {
    let mut want = BTreeMap::new();
    let Some(before) = threat(pos) else {
        return want;
    };
    let mut reached = Reached::new();
    enumerate(
        &mut pos.clone(),
        0,
        None,
        before,
        &mut HashSet::new(),
        &mut reached,
    );
    let mut best: Option<Option<PieceKind>> = None;
    for (len, boards) in reached {
        let bar = best.unwrap_or(Some(before));
        let now: BTreeSet<u64> = boards
            .iter()
            .filter(|(_, &t)| t < bar)
            .map(|(&b, _)| b)
            .collect();
        if let Some(low) = boards.values().filter(|&&t| t < bar).min() {
            best = Some(*low);
        }
        if !now.is_empty() {
            want.insert(len, now);
        }
        if best == Some(None) {
            break;
        }
    }
    want
}

fn generated(pos: &Position, moves: &[CaptureDefence]) -> BTreeMap<usize, BTreeSet<u64>> {
    let mut got: BTreeMap<usize, BTreeSet<u64>> = BTreeMap::new();
    let before = threat(pos).expect("defences only against a threat");
    for m in moves {
        let mut p = pos.clone();
        let mut list = StepList::new();
        let mut lost = None;
        for &s in m.steps() {
            p.legal_steps(&mut list);
            assert!(list.contains(&s), "{pos:?}: step {s} of {m:?} is not legal");
            let u = p.play_step_unchecked(s);
            if let Some((piece, _)) = u.captured() {
                if piece.color() == pos.side() {
                    lost = lost.max(Some(piece.kind()));
                }
            }
        }
        assert!(!matches!(p.pending(), Pending::Push { .. }), "{m:?}");
        assert_eq!(p.board_key(), m.board, "{pos:?}: {m:?}");
        assert_eq!(lost, m.lost, "{pos:?}: {m:?}");
        assert!(lost < Some(before), "{pos:?}: {m:?} loses too much");
        let after = threat(&p);
        assert_eq!(after, m.threat_after, "{pos:?}: {m:?}");
        assert!(after < Some(before), "{pos:?}: {m:?} defends nothing");
        assert!(
            got.entry(m.steps().len()).or_default().insert(m.board),
            "{pos:?}: {m:?} twice"
        );
    }
    got
}

/// Turn starts of random games and crowded capture boards (the side to move threatened:
/// the board is taken with the other side to move), and positions one or two steps into
/// those turns.
fn threatened_positions() -> Vec<Position> {
    use rand::{rngs::SmallRng, seq::SliceRandom, SeedableRng};
    let mut rng = SmallRng::seed_from_u64(11);
    let mut starts = Vec::new();
    for seed in 0..30u64 {
        for (i, p) in tusk_tests::random_game(seed, 70).into_iter().enumerate() {
            if i % 5 == 2 && tusk_engine::turn_boundary_result(&p).is_none() {
                starts.push(p);
            }
        }
    }
    for mut p in common::capture_chance_positions(150, 12) {
        p.end_turn();
        starts.push(p);
    }
    let mut list = StepList::new();
    let mut out = Vec::new();
    for (i, start) in starts.into_iter().enumerate() {
        if threat(&start).is_none() {
            continue;
        }
        let mut mid = start.clone();
        for _ in 0..(1 + i % 2) {
            mid.legal_steps(&mut list);
            if let Some(&s) = list.choose(&mut rng) {
                mid.play_step_unchecked(s);
            }
        }
        out.push(start);
        if !matches!(mid.pending(), Pending::Push { .. }) && threat(&mid).is_some() {
            out.push(mid);
        }
    }
    out
}

#[test]
fn capture_defences_equal_brute_force() {
    let positions = threatened_positions();
    let mut out = Vec::new();
    let mut visited = Visited::new();
    let (mut checked, mut defended, mut full, mut one_step) = (0, 0, 0, 0);
    let mut by_len = [0usize; 5];
    let mut played = Vec::new();
    for p in &positions {
        let mut q = p.clone();
        let found = capture_defences(&mut q, &mut out, &mut visited, 4, u32::MAX);
        assert_eq!(&q, p, "the generator changed the position");
        assert!(found.complete);
        assert_eq!(found.threat, threat(p));
        played.push(found.played);
        let got = generated(p, &out);
        let want = expected(p);
        assert_eq!(got, want, "{p:?}");
        // The one-step check: a single step stops the threat exactly where the enumeration
        // finds a defence of length 1; the position is left as it was.
        let mut q = p.clone();
        let stopped = stopped_in_one_step(&mut q, found.threat.expect("threatened"));
        assert_eq!(&q, p, "the one-step check changed the position");
        assert_eq!(stopped, want.contains_key(&1), "one-step check: {p:?}");
        one_step += usize::from(stopped);
        checked += 1;
        defended += usize::from(!out.is_empty());
        full += usize::from(out.iter().any(|m| m.threat_after.is_none()));
        if let Some(m) = out.first() {
            by_len[m.steps().len()] += 1;
        }
    }
    played.sort_unstable();
    println!(
        "{checked} threatened positions, {defended} with a defence ({full} stopping every \
         capture, {one_step} stopped by one step); shortest defence by length 1-4: {:?}; \
         steps played: median {}, 90th percentile {}, most {}",
        &by_len[1..],
        played[played.len() / 2],
        played[played.len() * 9 / 10],
        played[played.len() - 1]
    );
    assert!(checked >= 150, "{checked}");
    assert!(
        defended > checked / 2 && defended < checked,
        "{defended} of {checked}"
    );
    assert!(
        by_len[1..].iter().filter(|&&n| n > 0).count() >= 3,
        "{by_len:?}"
    );
    assert!(
        one_step >= 50 && checked - one_step >= 50,
        "{one_step} of {checked} stopped by one step"
    );
}

/// A budget too small for the search says so, and what it yields is still sound.
#[test]
fn a_search_out_of_budget_says_so() {
    let mut out = Vec::new();
    let mut visited = Visited::new();
    let mut short = 0;
    for p in threatened_positions().iter().take(60) {
        let mut q = p.clone();
        let found = capture_defences(&mut q, &mut out, &mut visited, 4, 40);
        assert_eq!(&q, p);
        if !found.complete {
            short += 1;
            generated(p, &out);
        }
    }
    assert!(short > 0);
}
