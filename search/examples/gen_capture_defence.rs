//! Writes the searcher's capture-defence test set, `search/tests/data/capture_defence.txt`,
//! from seeded random games (random setups, then random turns): turn-start positions where
//! the side to move can neither goal nor capture, the opponent threatens no goal but could
//! capture a piece stronger than a rabbit if the side to move passed, and at most a tenth of
//! the turns (at least one) leave the opponent no capture and no goal, found by brute force
//! over every turn with the engine's enumerator and the evaluator's exact detectors.
//! Deterministic: the same seed writes the same file.
//!
//! ```sh
//! cargo run --release -p tusk-search --example gen_capture_defence [-- SEED]
//! ```

#[path = "../tests/support/tactics.rs"]
mod tactics;

use tusk_engine::{PieceKind, Position};
use tusk_eval::captures::best_capture;
use tusk_eval::goal::can_goal;

/// Positions wanted.
const WANTED: usize = 40;
/// A position has at most this many saving turns (and at most a tenth of its turns).
const MAX_SAVES: usize = 200;
/// Turns per random game at most.
const GAME_TURNS: usize = 160;

fn main() {
    let seed = tactics::seed_arg(2026_1126);
    // Per threatened kind, so that no kind floods the set: at most a quarter of it each.
    let mut per_kind = [0usize; PieceKind::NUM];
    let mut take = |pos: &Position, _game: usize| {
        if can_goal(pos) || best_capture(pos).is_some() || tactics::goal_threat(pos) {
            return None;
        }
        let kind = best_capture(&tactics::passed(pos))?;
        if kind == PieceKind::Rabbit || per_kind[kind.index()] * 4 >= WANTED {
            return None;
        }
        let b = tactics::saving_turns(pos);
        let few = b.accepted.len() * 10 <= b.turns && b.accepted.len() <= MAX_SAVES;
        if b.accepted.is_empty() || !few {
            return None;
        }
        per_kind[kind.index()] += 1;
        let label = format!("save {}", format!("{kind:?}").to_lowercase());
        Some(tactics::data_line(pos, &label, &b, &b.accepted))
    };
    let (lines, games) = tactics::lines_from_random_games(seed, WANTED, GAME_TURNS, &mut take);
    tactics::write_set(
        "capture_defence.txt",
        &format!("the opponent threatens a capture (not a rabbit); every turn that leaves it no capture and no goal is listed (at most a tenth of the turns, and at most {MAX_SAVES})"),
        "gen_capture_defence",
        seed,
        games,
        &lines,
    );
}
