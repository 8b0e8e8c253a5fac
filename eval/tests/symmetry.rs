//! Colour symmetry: a position and its colour-mirrored twin (ranks flipped, colours swapped,
//! side to move swapped) get exactly the same score, term by term with the colours exchanged.

mod common;

use tusk_engine::{Color, Position};
use tusk_eval::captures::capturable_kinds;
use tusk_eval::goal::goal_in;
use tusk_eval::{evaluate, explain, Term, Weights};

fn check(pos: &Position, w: &Weights, what: &str) {
    let twin = pos.flip();
    assert_eq!(evaluate(pos, w), evaluate(&twin, w), "{what}: {pos:?}");
    let a = explain(pos, w);
    let b = explain(&twin, w);
    assert_eq!(a.score(), b.score(), "{what}: {pos:?}");
    assert_eq!(
        a.score(),
        evaluate(pos, w),
        "{what}: explain and evaluate differ: {pos:?}"
    );
    for t in Term::ALL {
        assert_eq!(
            a.get(t, Color::Gold),
            b.get(t, Color::Silver),
            "{what}: {} {pos:?}",
            t.name()
        );
        assert_eq!(
            a.get(t, Color::Silver),
            b.get(t, Color::Gold),
            "{what}: {} {pos:?}",
            t.name()
        );
    }
    assert_eq!(goal_in(pos), goal_in(&twin), "{what}: {pos:?}");
    assert_eq!(
        capturable_kinds(pos),
        capturable_kinds(&twin),
        "{what}: {pos:?}"
    );
}

#[test]
fn generated_positions_score_the_same_as_their_mirrored_twins() {
    let w = Weights::default();
    let positions = common::all_positions(1_500);
    for (i, p) in positions.iter().enumerate() {
        check(p, &w, &format!("generated #{i}"));
    }
    eprintln!(
        "colour symmetry held on {} generated positions",
        positions.len()
    );
}

/// The turn-count fixtures of `tests/data/turn_counts.txt` (a missing file fails).
#[test]
fn fixture_positions_score_the_same_as_their_mirrored_twins() {
    let w = Weights::default();
    let positions = tusk_tests::fixture_positions();
    assert_eq!(positions.len(), tusk_tests::TURN_COUNT_POSITIONS);
    for (i, pos) in positions.iter().enumerate() {
        check(pos, &w, &format!("fixture #{i}"));
    }
    eprintln!(
        "colour symmetry held on {} fixture positions",
        positions.len()
    );
}

/// The same with sharp's priors, which switch on the terms the shipped weights start at 0
/// (placement tables, the trap curve over the smooth control, the trap defence).
#[test]
fn with_sharp_priors_positions_score_the_same_as_their_mirrored_twins() {
    let w = Weights::default().with_sharp_priors();
    let positions = common::all_positions(500);
    for (i, p) in positions.iter().enumerate() {
        check(p, &w, &format!("generated #{i} (sharp priors)"));
    }
}

/// The structure terms (hostage threat and value, frame value, blockade value, shipped at 0)
/// on the 1,000 positions of Tusk's games against sharp in
/// `data/oracle/sharp-depth4-judged-ladder.jsonl`, where a hostage is held in about six in
/// ten, a frame in two and an elephant blockade in 40 (a missing file fails).
#[test]
fn with_the_structure_terms_positions_from_games_score_the_same_as_their_mirrored_twins() {
    let mut w = Weights::default();
    w[tusk_eval::weights::id::hostage_threat_pct] = 100;
    w[tusk_eval::weights::id::hostage_value_pct] = 100;
    w[tusk_eval::weights::id::frame_value_pct] = 100;
    w[tusk_eval::weights::id::blockade_value_pct] = 100;
    let positions = data_positions("oracle/sharp-depth4-judged-ladder.jsonl");
    for (i, pos) in positions.iter().enumerate() {
        check(pos, &w, &format!("ladder line {}", i + 1));
    }
    let seen = positions.len();
    assert_eq!(seen, 1_000);
}

/// The firm capture threat (no single step stops it: a walk over every legal step in the
/// generator's order) on the 1,000 positions of the ladder set, where it is charged in
/// many, with each position's twin.
#[test]
fn with_the_firm_threat_positions_from_games_score_the_same_as_their_mirrored_twins() {
    let mut w = Weights::default();
    w[tusk_eval::weights::id::capture_threat_firm_pct] = 40;
    let mut firm = 0;
    for (i, pos) in data_positions("oracle/sharp-depth4-judged-ladder.jsonl")
        .iter()
        .enumerate()
    {
        check(pos, &w, &format!("ladder line {}", i + 1));
        let f = tusk_eval::features(pos, &w);
        let charged = f.values[tusk_eval::weights::id::capture_threat_firm_pct.index()];
        firm += usize::from(charged != [0.0, 0.0]);
    }
    assert!(firm >= 20, "{firm} positions with a firm threat");
}

/// The elephant blockade (its walk and its rotations go through pieces in square order, where
/// a tie could break the symmetry) on the 91,938 scored turn starts of sharp's games in
/// `data/scored/sharp-eval-turn-starts.jsonl`, where it is valued in about 3,750: each one
/// where either side holds a blockade is checked with its twin.
#[test]
fn with_the_blockade_value_scored_positions_score_the_same_as_their_mirrored_twins() {
    let mut w = Weights::default();
    w[tusk_eval::weights::id::blockade_value_pct] = 100;
    let mut checked = 0;
    for (i, pos) in data_positions("scored/sharp-eval-turn-starts.jsonl")
        .iter()
        .enumerate()
    {
        let held = Color::ALL
            .into_iter()
            .any(|c| tusk_eval::blockade_value::blockade(pos, c).is_some());
        if held {
            check(pos, &w, &format!("scored line {}", i + 1));
            checked += 1;
        }
    }
    assert!(checked > 3_000, "{checked} positions with a blockade");
}

/// The positions of a JSON-lines file under `data/` whose first string value is a position
/// as AEI gives it (`{"pos": "g [...]", ...}` or `{"position": ...}`), in file order; a
/// missing file or a bad position fails.
fn data_positions(file: &str) -> Vec<Position> {
    let path = format!("{}/../data/{file}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    text.lines()
        .map(|line| {
            let aei = line.split('"').nth(3).expect("a position field");
            tusk_engine::notation::board::parse_aei(aei).expect("a valid position")
        })
        .collect()
}
