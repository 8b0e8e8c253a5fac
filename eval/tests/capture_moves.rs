//! The capture-move generator against brute force: on random positions (turn starts and
//! mid-turn), every step sequence within the steps left is enumerated, stopping at the first
//! capture of an enemy piece (with the push's completion when the capture began a push); for
//! each victim (kind and trap) the fewest steps and the set of positions reached at that
//! length must equal what [`capture_moves`] yields, and each generated move must replay
//! legally to its capture.

use std::collections::{BTreeMap, BTreeSet};

use tusk_engine::{Pending, PieceKind, Position, Square, StepList};
use tusk_eval::capture_moves::{capture_moves, CaptureMove, Visited};
use tusk_eval::captures::best_capture;

/// Victim (kind index, trap index) -> (fewest steps, positions reached at that length).
type Victims = BTreeMap<(usize, usize), (usize, BTreeSet<u64>)>;

fn note(v: &mut Victims, kind: PieceKind, trap: Square, len: usize, hash: u64) {
    let e = v
        .entry((kind.index(), trap.index()))
        .or_insert((len, BTreeSet::new()));
    if len < e.0 {
        *e = (len, BTreeSet::new());
    }
    if len == e.0 {
        e.1.insert(hash);
    }
}

fn brute(pos: &mut Position, len: usize, out: &mut Victims) {
    let us = pos.side();
    let mut steps = StepList::new();
    pos.legal_steps(&mut steps);
    for &s in steps.iter() {
        let u = pos.play_step_unchecked(s);
        match u.captured() {
            Some((piece, trap)) if piece.color() != us => {
                if let Pending::Push { .. } = pos.pending() {
                    let mut done = StepList::new();
                    pos.legal_steps(&mut done);
                    for &c in done.iter() {
                        let cu = pos.play_step_unchecked(c);
                        note(out, piece.kind(), trap, len + 2, pos.hash());
                        pos.undo_step(c, cu);
                    }
                } else {
                    note(out, piece.kind(), trap, len + 1, pos.hash());
                }
            }
            _ => {
                if pos.steps_left() > 0 {
                    brute(pos, len + 1, out);
                }
            }
        }
        pos.undo_step(s, u);
    }
}

fn generated(pos: &Position, moves: &[CaptureMove]) -> Victims {
    let mut v = Victims::new();
    for m in moves {
        // Replays legally, capturing nothing of the enemy's before its victim.
        let mut p = pos.clone();
        let mut list = StepList::new();
        let mut hit = None;
        for (i, &s) in m.steps().iter().enumerate() {
            p.legal_steps(&mut list);
            assert!(list.contains(&s), "{pos:?}: step {s} of {m:?} is not legal");
            let u = p.play_step_unchecked(s);
            if let Some((piece, trap)) = u.captured() {
                if piece.color() != pos.side() {
                    assert!(hit.is_none(), "{pos:?}: {m:?} captures twice");
                    hit = Some((piece.kind(), trap, i));
                }
            }
        }
        let (kind, trap, at) = hit.unwrap_or_else(|| panic!("{pos:?}: {m:?} captures nothing"));
        assert_eq!((kind, trap), (m.captured, m.trap), "{pos:?}: {m:?}");
        let last = m.steps().len() - 1;
        assert!(
            at == last || (at + 1 == last),
            "{pos:?}: {m:?} goes on after its capture"
        );
        assert_eq!(p.hash(), m.hash);
        note(&mut v, kind, trap, m.steps().len(), m.hash);
        let e = &v[&(kind.index(), trap.index())];
        assert_eq!(
            e.0,
            m.steps().len(),
            "{pos:?}: {m:?} is not its victim's shortest"
        );
    }
    v
}

#[test]
fn capture_moves_equal_brute_force() {
    use rand::{rngs::SmallRng, seq::SliceRandom, SeedableRng};
    let mut rng = SmallRng::seed_from_u64(5);
    let (mut checked, mut with_captures) = (0, 0);
    let mut by_len = [0usize; 5];
    let mut steps_played = 0u64;
    let mut out = Vec::new();
    let mut visited = Visited::new();
    let mut list = StepList::new();
    for seed in 0..40u64 {
        for (i, start) in tusk_tests::random_game(seed, 70).into_iter().enumerate() {
            if i % 7 != 3 || tusk_engine::turn_boundary_result(&start).is_some() {
                continue;
            }
            // The turn start and a position one or two steps into the turn.
            let mut mid = start.clone();
            for _ in 0..(1 + i % 2) {
                mid.legal_steps(&mut list);
                if let Some(&s) = list.choose(&mut rng) {
                    mid.play_step_unchecked(s);
                }
            }
            for p in [start, mid] {
                let mut q = p.clone();
                let played = capture_moves(&mut q, &mut out, &mut visited);
                assert_eq!(q, p, "the generator changed the position");
                // Every move ends with a step the generator played.
                assert!(
                    played as usize >= out.len(),
                    "{played} steps, {} moves",
                    out.len()
                );
                steps_played += u64::from(played);
                let got = generated(&p, &out);
                let mut want = Victims::new();
                brute(&mut p.clone(), 0, &mut want);
                assert_eq!(got, want, "{p:?}");
                assert_eq!(got.is_empty(), best_capture(&p).is_none(), "{p:?}");
                checked += 1;
                with_captures += usize::from(!got.is_empty());
                for m in &out {
                    by_len[m.steps().len()] += 1;
                }
            }
        }
    }
    eprintln!(
        "{checked} positions, {with_captures} with captures; capture moves by steps (1-4): {:?}; \
         {steps_played} generator steps",
        &by_len[1..]
    );
    assert!(
        checked >= 300 && with_captures >= 40,
        "{checked} {with_captures}"
    );
    // The sets hold the moves the quiescence lacked: captures of three and four steps.
    assert!(by_len[3] >= 20 && by_len[4] >= 20, "{by_len:?}");
}
