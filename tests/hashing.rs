//! The incremental Zobrist hash and make/undo.

use tusk_engine::{Position, StepList};
use tusk_tests::{random_game, random_walk};

fn start_positions() -> Vec<Position> {
    (0..40)
        .flat_map(|seed| random_game(seed, 30).into_iter().step_by(5))
        .collect()
}

/// Random walks over steps and turn ends: the incremental hash always equals the hash
/// recomputed from scratch, and every board agrees with the others.
#[test]
fn incremental_hash_equals_recomputed_on_random_walks() {
    let mut checked = 0;
    for (i, p) in start_positions().iter().enumerate() {
        random_walk(p, i as u64, 200, |q| {
            assert_eq!(q.hash(), q.compute_hash(), "{q:?}");
            assert!(q.is_consistent(), "{q:?}");
            checked += 1;
        });
    }
    assert!(checked > 10_000, "only {checked} positions checked");
}

/// Undoing each legal step (and each turn end) restores the exact position and hash.
#[test]
fn undo_restores_position_and_hash() {
    let mut list = StepList::new();
    let mut checked = 0;
    for (i, p) in start_positions().iter().enumerate() {
        random_walk(p, 1000 + i as u64, 60, |q| {
            q.legal_steps(&mut list);
            let mut r = q.clone();
            for &s in list.iter() {
                let u = r.play_step_unchecked(s);
                assert_ne!(r.hash(), q.hash());
                r.undo_step(s, u);
                assert_eq!(&r, q, "undo of {s} from {q:?}");
                assert_eq!(r.hash(), q.hash());
                checked += 1;
            }
            if r.can_end_turn() {
                let u = r.end_turn();
                r.undo_end_turn(u);
                assert_eq!(&r, q);
            }
        });
    }
    assert!(checked > 50_000, "only {checked} undos checked");
}

/// The board key ignores steps left and pending state; the full hash does not.
#[test]
fn board_key_and_full_hash_differ_mid_turn() {
    let p = random_game(3, 10).pop().unwrap();
    let mut list = StepList::new();
    p.legal_steps(&mut list);
    let q = p.after_step(list[0]);
    assert_ne!(q.hash(), q.board_key(), "mid-turn hash includes steps left");
    assert_eq!(p.hash(), p.board_key(), "turn-start hash is the board key");
}

/// Zobrist keys are fixed: the opening position's hash never changes between builds.
#[test]
fn zobrist_values_are_pinned() {
    let p = tusk_engine::notation::board::parse_aei(tusk_engine::notation::board::STANDARD_OPENING)
        .unwrap();
    assert_eq!(format!("{:016x}", p.hash()), PINNED_START);
    let s = tusk_engine::notation::board::parse_aei(
        &tusk_engine::notation::board::STANDARD_OPENING.replacen('g', "s", 1),
    )
    .unwrap();
    assert_eq!(
        p.hash() ^ s.hash(),
        tusk_engine::zobrist::side_key(tusk_engine::Color::Silver)
    );
}

const PINNED_START: &str = "dda50a1d2a751074";
