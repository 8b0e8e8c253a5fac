//! Writes the searcher's decisive-defence test set, `search/tests/data/decisive_defence.txt`,
//! from seeded random games (random setups, then random turns): turn-start positions where
//! the side to move cannot win at once, the opponent threatens no goal but, if the side to
//! move passed, could win at once by elimination or immobilisation, and at most a tenth of
//! the turns (at least one) leave the opponent no turn that wins at once, found by brute force
//! over every turn of both sides with the engine's enumerator. Deterministic: the same seed
//! writes the same file.
//!
//! ```sh
//! cargo run --release -p tusk-search --example gen_decisive_defence [-- SEED]
//! ```

#[path = "../tests/support/tactics.rs"]
mod tactics;

use tusk_engine::{PieceKind, Position};
use tusk_eval::goal::can_goal;

/// Positions wanted.
const WANTED: usize = 20;
/// A position has at most this many surviving turns (and at most a tenth of its turns).
const MAX_SURVIVING: usize = 200;
/// A position has at most this many distinct turns (each is answered by every turn of the
/// opponent when the set is checked, so this keeps the check in CI short).
const MAX_TURNS: usize = 3000;
/// Turns per random game at most.
const GAME_TURNS: usize = 200;

fn main() {
    let seed = tactics::seed_arg(2026_1127);
    let mut gen = tusk_engine::TurnGen::new();
    let mut take = |pos: &Position, game: usize| {
        let us = pos.side();
        // Only a side with few rabbits can be eliminated, and only one with few pieces is
        // ever near immobilisation in random games: the cheap filter first.
        if pos.count(us, PieceKind::Rabbit) > 2 && pos.occupied_by(us).count() > 6 {
            return None;
        }
        if can_goal(pos) || tactics::goal_threat(pos) || gen.count(pos) > MAX_TURNS {
            return None;
        }
        if !tactics::can_win_at_once(&tactics::passed(pos)) || tactics::can_win_at_once(pos) {
            return None;
        }
        let b = tactics::surviving_turns(pos);
        let few = b.accepted.len() * 10 <= b.turns && b.accepted.len() <= MAX_SURVIVING;
        if b.accepted.is_empty() || !few {
            return None;
        }
        let line = tactics::data_line(pos, "survive", &b, &b.accepted);
        let fields: Vec<&str> = line.split('\t').take(4).collect();
        eprintln!("game {game}: {}", fields.join(" "));
        Some(line)
    };
    let (lines, games) = tactics::lines_from_random_games(seed, WANTED, GAME_TURNS, &mut take);
    tactics::write_set(
        "decisive_defence.txt",
        &format!("the opponent threatens to win at once by elimination or immobilisation (not by goal); every turn after which it has no turn that wins at once is listed (at most a tenth of the turns, and at most {MAX_SURVIVING})"),
        "gen_decisive_defence",
        seed,
        games,
        &lines,
    );
}
