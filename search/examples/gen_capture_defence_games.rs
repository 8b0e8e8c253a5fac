//! Prints the candidates of the searcher's capture-defence set from real games,
//! `search/tests/data/capture_defence_games.txt`: turn starts of recorded games (the JSON lines
//! of `tusk match --json`) where the side to move can neither goal nor capture, the opponent
//! threatens no goal but could capture a piece stronger than a rabbit if the side to move
//! passed, and at most a tenth of the turns (at least one) keep every piece of that kind and
//! stronger and leave no goal (label `keep <kind>`; weaker pieces may be left en prise, as a
//! player trades a cat for the camel). Found by brute force over every turn with the
//! engine's enumerator and the evaluator's exact detectors; at most three positions a game,
//! each board once. Deterministic: the same files give the same lines.
//!
//! Random games (the source of `capture_defence.txt`) are full of lopsided positions where
//! no strong player would spend the turn on a dog; these come from games between Tusk and
//! sharp from the expert setups. The set itself keeps only the candidates where a strong
//! engine searching two turns plays one of the accepted turns
//! (`bin/scripts/validate_tactics.py`).
//!
//! ```sh
//! cargo run --release -p tusk-search --example gen_capture_defence_games -- GAMES.jsonl... > candidates.txt
//! ```

#[path = "../tests/support/tactics.rs"]
mod tactics;

use std::collections::HashSet;

use tusk_engine::{Game, PieceKind};
use tusk_eval::captures::best_capture;
use tusk_eval::goal::can_goal;

/// A position has at most this many accepted turns (and at most a tenth of its turns).
const MAX_KEEPS: usize = 200;
/// Positions taken from one game at most.
const PER_GAME: usize = 3;

/// The moves of one JSON line of `tusk match --json`, without their labels (`2g`).
fn moves_of(line: &str, place: &str) -> Vec<String> {
    let v: serde_json::Value =
        serde_json::from_str(line).unwrap_or_else(|e| panic!("{place}: not JSON: {e}"));
    let moves = v["moves"]
        .as_array()
        .unwrap_or_else(|| panic!("{place}: no \"moves\" list"));
    moves
        .iter()
        .map(|m| {
            let text = m
                .as_str()
                .unwrap_or_else(|| panic!("{place}: a move is not a string"));
            match text.split_once(' ') {
                Some((_, rest)) => rest.to_string(),
                None => String::new(),
            }
        })
        .collect()
}

fn main() {
    let files: Vec<String> = std::env::args().skip(1).collect();
    assert!(!files.is_empty(), "give the game files (JSON lines)");
    let mut seen = HashSet::new();
    let mut lines = Vec::new();
    let mut games = 0;
    for file in &files {
        let text =
            std::fs::read_to_string(file).unwrap_or_else(|e| panic!("cannot read {file}: {e}"));
        for (i, line) in text.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            let place = format!("{file}:{}", i + 1);
            games += 1;
            let mut game = Game::new();
            let mut taken = 0;
            for text in moves_of(line, &place) {
                if game.result().is_some() || taken == PER_GAME {
                    break;
                }
                if !game.in_setup() {
                    if let Some(l) = candidate(game.position(), &mut seen) {
                        lines.push(l);
                        taken += 1;
                    }
                }
                if text.is_empty() || game.play_text(&text).is_err() {
                    // A resignation or a move the rules refuse ends the replay here.
                    break;
                }
            }
        }
    }
    println!("# Tusk searcher tactics: the opponent threatens a capture (not a rabbit); every turn that keeps the pieces of that kind and stronger and leaves no goal is listed (at most a tenth of the turns, and at most {MAX_KEEPS}); turn starts of real games where a strong engine searching two turns plays one of them");
    println!("# Candidates made by `cargo run --release -p tusk-search --example gen_capture_defence_games -- {}` from {games} games; kept by `bin/scripts/validate_tactics.py`.", files.join(" "));
    println!("# position<TAB>label<TAB>accepted turns<TAB>distinct turns<TAB>accepted turn...; see search/tests/support/tactics.rs.");
    for l in &lines {
        print!("{l}");
    }
    eprintln!("{} candidates from {games} games", lines.len());
}

/// The data line of `pos` if it is a capture-defence candidate not seen before.
fn candidate(pos: &tusk_engine::Position, seen: &mut HashSet<(u64, bool)>) -> Option<String> {
    if tactics::decided(pos)
        || can_goal(pos)
        || best_capture(pos).is_some()
        || tactics::goal_threat(pos)
    {
        return None;
    }
    let kind = best_capture(&tactics::passed(pos))?;
    if kind == PieceKind::Rabbit
        || !seen.insert((pos.board_key(), pos.side() == tusk_engine::Color::Gold))
    {
        return None;
    }
    let b = tactics::keeping_turns(pos, kind);
    let few = b.accepted.len() * 10 <= b.turns && b.accepted.len() <= MAX_KEEPS;
    if b.accepted.is_empty() || !few {
        return None;
    }
    let label = format!("keep {}", format!("{kind:?}").to_lowercase());
    Some(tactics::data_line(pos, &label, &b, &b.accepted))
}
