//! Shared helpers for Tusk's cross-crate tests: fixture loading and random positions.

use std::path::PathBuf;

use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use tusk_engine::notation::board::parse_aei;
use tusk_engine::setup::random_setup;
use tusk_engine::{Color, Game, Move, Position, StepList, TurnGen};

/// The path of a file under `tests/data/` (or under `$TUSK_TEST_DATA` when set, to check
/// freshly generated fixtures before they replace the committed ones).
pub fn data_path(name: &str) -> PathBuf {
    std::env::var_os("TUSK_TEST_DATA")
        .map_or_else(
            || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("data"),
            PathBuf::from,
        )
        .join(name)
}

/// The lines of a data file, comments (`#`) and blank lines removed.
pub fn data_lines(name: &str) -> Vec<String> {
    let path = data_path(name);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read fixture {}: {e}", path.display()));
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(str::to_string)
        .collect()
}

/// One line of `turn_counts.txt`: a position and pyrimaa's counts for it.
pub struct TurnCount {
    /// The line as written (for messages).
    pub line: String,
    /// The position.
    pub position: Position,
    /// `len(get_moves())`: distinct legal turns.
    pub turns: usize,
    /// `len(get_steps())`: legal first steps.
    pub first_steps: usize,
}

/// Reads `turn_counts.txt`.
pub fn turn_counts() -> Vec<TurnCount> {
    data_lines("turn_counts.txt")
        .into_iter()
        .map(|line| {
            let close = line.find(']').expect("a board in brackets");
            let position = parse_aei(&line[..=close])
                .unwrap_or_else(|e| panic!("bad fixture board {line}: {e}"));
            let nums: Vec<usize> = line[close + 1..]
                .split_whitespace()
                .map(|w| w.parse().expect("a count"))
                .collect();
            TurnCount {
                position,
                turns: nums[0],
                first_steps: nums[1],
                line,
            }
        })
        .collect()
}

/// A seeded random game: random setups, then `turns` random distinct turns (fewer if the game
/// ends). Returns every turn-start position, the start first.
pub fn random_game(seed: u64, turns: usize) -> Vec<Position> {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut game = Game::new();
    for c in Color::ALL {
        game.play(&Move::Setup(random_setup(c, &mut rng)))
            .expect("random setups are legal");
    }
    let mut gen = TurnGen::new();
    let mut out = vec![game.position().clone()];
    for _ in 0..turns {
        if game.result().is_some() {
            break;
        }
        let options = game.legal_turns(&mut gen);
        let Some((turn, _)) = options.choose(&mut rng) else {
            break;
        };
        game.play(&Move::Turn(*turn))
            .expect("generated turns are legal");
        out.push(game.position().clone());
    }
    out
}

/// A random walk of `steps` single steps from `pos` (ending turns at random where legal),
/// calling `check` on every position reached.
pub fn random_walk(pos: &Position, seed: u64, steps: usize, mut check: impl FnMut(&Position)) {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut p = pos.clone();
    let mut list = StepList::new();
    for _ in 0..steps {
        p.legal_steps(&mut list);
        let end = p.can_end_turn() && (list.is_empty() || rand::Rng::gen_bool(&mut rng, 0.3));
        if end {
            p.end_turn();
        } else if let Some(&s) = list.choose(&mut rng) {
            p.play_step_unchecked(s);
        } else {
            break;
        }
        check(&p);
    }
}
