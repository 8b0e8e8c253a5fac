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

use rand::rngs::SmallRng;
use rand::SeedableRng;
use tusk_engine::PieceKind;
use tusk_eval::goal::can_goal;
use tusk_tests::{play_random_turn, random_setup_game};

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
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut lines = Vec::new();
    let mut games = 0;
    let mut gen = tusk_engine::TurnGen::new();
    while lines.len() < WANTED {
        games += 1;
        let mut game = random_setup_game(&mut rng);
        for _ in 0..GAME_TURNS {
            if !play_random_turn(&mut game, &mut rng) || game.result().is_some() {
                break;
            }
            let pos = game.position().clone();
            let us = pos.side();
            // Only a side with few rabbits can be eliminated, and only one with few pieces
            // is ever near immobilisation in random games: the cheap filter first.
            if pos.count(us, PieceKind::Rabbit) > 2 && pos.occupied_by(us).count() > 6 {
                continue;
            }
            if can_goal(&pos) || tactics::goal_threat(&pos) {
                continue;
            }
            if gen.count(&pos) > MAX_TURNS {
                continue;
            }
            if !tactics::can_win_at_once(&tactics::passed(&pos)) || tactics::can_win_at_once(&pos) {
                continue;
            }
            let b = tactics::surviving_turns(&pos);
            let few = b.accepted.len() * 10 <= b.turns && b.accepted.len() <= MAX_SURVIVING;
            if b.accepted.is_empty() || !few {
                continue;
            }
            let line = tactics::data_line(&pos, "survive", &b, &b.accepted);
            eprintln!(
                "game {games}: {}",
                line.split('\t').take(4).collect::<Vec<_>>().join(" ")
            );
            lines.push(line);
            // One position per game, so that the set spreads over many games.
            break;
        }
        if games % 100 == 0 {
            eprintln!("{games} games: {} positions", lines.len());
        }
    }
    tactics::write_set(
        "decisive_defence.txt",
        &format!("the opponent threatens to win at once by elimination or immobilisation (not by goal); every turn after which it has no turn that wins at once is listed (at most a tenth of the turns, and at most {MAX_SURVIVING})"),
        "gen_decisive_defence",
        seed,
        games,
        &lines,
    );
}
