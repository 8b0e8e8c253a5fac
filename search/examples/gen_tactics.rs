//! Writes the searcher's tactical test sets, `search/tests/data/{goal,goal_defence,capture,
//! capture_long,decisive}.txt`, from seeded random games (random setups, then random turns), filtering
//! turn-start positions by brute force over every turn with the engine's enumerator and the
//! evaluator's exact goal and capture detectors. Deterministic: the same seed writes the same
//! files.
//!
//! ```sh
//! cargo run --release -p tusk-search --example gen_tactics [-- SEED]
//! ```

#[path = "../tests/support/tactics.rs"]
mod tactics;

use rand::rngs::SmallRng;
use rand::SeedableRng;
use tusk_engine::{Color, Position};
use tusk_eval::captures::{best_capture, capturable_kinds};
use tusk_eval::goal::{can_goal, goal_in};
use tusk_tests::{play_random_turn, random_setup_game};

/// Positions wanted per goal bucket (side to move x fewest steps 1-4): 8 x 13 = 104.
const PER_GOAL_BUCKET: usize = 13;
/// Goal-defence positions wanted.
const DEFENCES: usize = 100;
/// A defence position has at most a tenth of its turns, and at most this many, defending
/// (which keeps the data file small and the positions sharp).
const MAX_DEFENCES: usize = 200;
/// Free-capture positions wanted.
const CAPTURES: usize = 10;
/// Free captures that need three or four steps wanted.
const LONG_CAPTURES: usize = 20;
/// Elimination or immobilisation wins wanted.
const WINS: usize = 3;
/// Turns per random game at most.
const GAME_TURNS: usize = 160;

/// Finds `steps` steps from `pos` after which the turn may end with the game won by goal for
/// the side to move (depth-first over every step sequence); leaves them in `path`.
fn shortest_goal(pos: &Position, steps: u8, path: &mut Vec<tusk_engine::Step>) -> bool {
    if steps == 0 {
        if !pos.can_end_turn() {
            return false;
        }
        let mut q = pos.clone();
        q.end_turn();
        return tusk_engine::turn_boundary_result(&q)
            .is_some_and(|r| r.winner == pos.side() && r.reason == tusk_engine::EndReason::Goal);
    }
    let mut list = tusk_engine::StepList::new();
    pos.legal_steps(&mut list);
    for &s in list.iter() {
        path.push(s);
        if shortest_goal(&pos.after_step(s), steps - 1, path) {
            return true;
        }
        path.pop();
    }
    false
}

fn main() {
    let seed = tactics::seed_arg(2026_1123);
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut goal_buckets = vec![Vec::<String>::new(); 8];
    let mut defences = Vec::new();
    let mut captures = Vec::new();
    let mut long_captures = Vec::new();
    let mut wins = Vec::new();
    let full = |goal: &[Vec<String>], d: &[String], c: &[String], w: &[String], l: &[String]| {
        goal.iter().all(|b| b.len() >= PER_GOAL_BUCKET)
            && d.len() >= DEFENCES
            && c.len() >= CAPTURES
            && w.len() >= WINS
            && l.len() >= LONG_CAPTURES
    };
    let mut games = 0;
    let mut moves = Vec::new();
    let mut visited = tusk_eval::capture_moves::Visited::new();
    while !full(&goal_buckets, &defences, &captures, &wins, &long_captures) {
        games += 1;
        let mut game = random_setup_game(&mut rng);
        // At most one position per set and game, so that the sets spread over many games.
        let (mut took_goal, mut took_def, mut took_cap, mut took_win, mut took_long) =
            (false, false, false, false, false);
        for _ in 0..GAME_TURNS {
            if !play_random_turn(&mut game, &mut rng) || game.result().is_some() {
                break;
            }
            let pos = game.position().clone();
            let us = pos.side();
            let side_index = usize::from(us == Color::Silver);
            if can_goal(&pos) {
                if took_goal {
                    continue;
                }
                let steps = goal_in(&pos).expect("can_goal agrees with goal_in");
                let bucket = &mut goal_buckets[side_index * 4 + usize::from(steps) - 1];
                if bucket.len() < PER_GOAL_BUCKET {
                    let b = tactics::goal_turns(&pos);
                    assert!(!b.accepted.is_empty(), "can_goal but no goal turn: {pos:?}");
                    // One shortest goal turn as the example.
                    let mut path = Vec::new();
                    assert!(
                        shortest_goal(&pos, steps, &mut path),
                        "no goal turn of {steps} steps: {pos:?}"
                    );
                    let turn = tusk_engine::Turn::from_steps(&path).expect("at most 4 steps");
                    let example = tusk_engine::notation::turn::write_turn(&pos, &turn);
                    bucket.push(tactics::data_line(
                        &pos,
                        &format!("goal {steps}"),
                        &b,
                        &[example],
                    ));
                    took_goal = true;
                }
                continue;
            }
            if !took_def && defences.len() < DEFENCES && tactics::goal_threat(&pos) {
                let b = tactics::defending_turns(&pos);
                let few = b.accepted.len() * 10 <= b.turns && b.accepted.len() <= MAX_DEFENCES;
                if !b.accepted.is_empty() && few {
                    defences.push(tactics::data_line(&pos, "defend", &b, &b.accepted));
                    took_def = true;
                }
                continue;
            }
            if tactics::goal_threat(&pos) {
                continue;
            }
            if !took_win && wins.len() < WINS && pos.count(!us, tusk_engine::PieceKind::Rabbit) <= 2
            {
                let b = tactics::winning_turns(&pos);
                if !b.accepted.is_empty() && b.accepted.len() * 10 <= b.turns {
                    wins.push(tactics::data_line(&pos, "win", &b, &b.accepted));
                    took_win = true;
                    continue;
                }
            }
            let before = captures.len();
            // The line of a free capture of `kind`, not a rabbit, the opponent having no
            // capture, where at most a tenth of the turns take it.
            let free_capture = |kind: tusk_engine::PieceKind| {
                if kind == tusk_engine::PieceKind::Rabbit
                    || !capturable_kinds(&tactics::passed(&pos)).is_empty()
                {
                    return None;
                }
                let b = tactics::free_capture_turns(&pos, kind);
                (!b.accepted.is_empty() && b.accepted.len() * 10 <= b.turns).then(|| {
                    let label = format!("capture {}", format!("{kind:?}").to_lowercase());
                    tactics::data_line(&pos, &label, &b, &b.accepted)
                })
            };
            if !took_cap && captures.len() < CAPTURES {
                if let Some(l) = best_capture(&pos).and_then(free_capture) {
                    captures.push(l);
                    took_cap = true;
                }
            }
            // A capture set of its own for captures that need three or four steps (approach,
            // then push or pull), never a position the first set took (which so stays as it was).
            if !took_long && long_captures.len() < LONG_CAPTURES && captures.len() == before {
                if let Some(kind) = best_capture(&pos) {
                    tusk_eval::capture_moves::capture_moves(
                        &mut pos.clone(),
                        &mut moves,
                        &mut visited,
                    );
                    let shortest = moves
                        .iter()
                        .filter(|m| m.captured == kind)
                        .map(|m| m.steps().len())
                        .min()
                        .unwrap_or(0);
                    if let Some(l) = (shortest >= 3).then(|| free_capture(kind)).flatten() {
                        long_captures.push(l);
                        took_long = true;
                    }
                }
            }
        }
        if games % 100 == 0 {
            eprintln!(
                "{games} games: goal {:?}, defence {}, capture {}, win {}",
                goal_buckets.iter().map(Vec::len).collect::<Vec<_>>(),
                defences.len(),
                captures.len(),
                wins.len()
            );
        }
    }
    let write = |name: &str, what: &str, lines: &[String]| {
        tactics::write_set(name, what, "gen_tactics", seed, games, lines);
    };
    let goal: Vec<String> = goal_buckets.into_iter().flatten().collect();
    write(
        "goal.txt",
        "the side to move can goal this turn (one shortest goal turn listed; every goal-winning turn is accepted)",
        &goal,
    );
    write(
        "goal_defence.txt",
        "the opponent threatens to goal; every turn that stops every goal is listed (at most a tenth of the turns, and at most 200)",
        &defences,
    );
    write(
        "capture.txt",
        "a free capture: every turn taking the strongest capturable piece and leaving no capture or goal is listed",
        &captures,
    );
    write(
        "capture_long.txt",
        "a free capture that needs three or four steps: every turn taking the strongest capturable piece and leaving no capture or goal is listed",
        &long_captures,
    );
    write(
        "decisive.txt",
        "a win at once by elimination or immobilisation; every winning turn is listed",
        &wins,
    );
}
