//! Deterministic test positions: random games, goal-chance boards and capture-chance boards.

#![allow(dead_code)]

use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use tusk_engine::notation::board::from_pieces;
use tusk_engine::{turn_boundary_result, Color, Piece, PieceKind, Position, Square, StepList};
use tusk_tests::{play_random_turns, random_setup_game};

/// Plays up to `n` random steps of the current turn (stopping early if none is legal), for
/// mid-turn positions.
pub fn random_steps(pos: &mut Position, n: usize, rng: &mut SmallRng) {
    let mut steps = StepList::new();
    for _ in 0..n {
        if pos.steps_left() <= 1 {
            return;
        }
        pos.legal_steps(&mut steps);
        if steps.is_empty() {
            return;
        }
        let s = steps[rng.gen_range(0..steps.len())];
        pos.play_step_unchecked(s);
    }
}

/// Whether the game is decided at this turn-start position (the engine's turn-boundary
/// end checks).
fn game_over(pos: &Position) -> bool {
    turn_boundary_result(pos).is_some()
}

/// Positions from random setups and random play (turn starts, some mid-turn), with the
/// shared random-turn generator of the test support.
pub fn random_game_positions(n: usize, seed: u64) -> Vec<Position> {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut out = Vec::with_capacity(n);
    while out.len() < n {
        let mut game = random_setup_game(&mut rng);
        let turns = rng.gen_range(0..80);
        let played = play_random_turns(&mut game, &mut rng, turns);
        if played.len() != turns + 1 || game.result().is_some() {
            continue;
        }
        let mut pos = game.position().clone();
        if rng.gen_bool(0.1) {
            random_steps(&mut pos, rng.gen_range(1..=2), &mut rng);
        }
        out.push(pos);
    }
    out
}

fn army() -> Vec<PieceKind> {
    let mut v = Vec::new();
    for k in PieceKind::ALL.iter().rev() {
        for _ in 0..k.initial_count() {
            v.push(*k);
        }
    }
    v
}

/// Sparse random boards with rabbits placed to have goal chances: gold rabbits on ranks 5-7,
/// silver rabbits on ranks 2-4, officers anywhere (or near the rabbits), a few defenders.
pub fn goal_chance_positions(n: usize, seed: u64) -> Vec<Position> {
    goal_positions(n, seed, 0..=3)
}

/// Like [`goal_chance_positions`] but with more defenders on the goal ranks, so that many
/// near-goal rabbits cannot get through: hard negatives for the goal detector.
pub fn defended_goal_positions(n: usize, seed: u64) -> Vec<Position> {
    goal_positions(n, seed, 3..=8)
}

fn goal_positions(
    n: usize,
    seed: u64,
    defenders: std::ops::RangeInclusive<usize>,
) -> Vec<Position> {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut out = Vec::with_capacity(n);
    while out.len() < n {
        let mut used = [false; 64];
        let mut list: Vec<(Piece, Square)> = Vec::new();
        for c in Color::ALL {
            let rabbits = rng.gen_range(1..=4);
            for _ in 0..rabbits {
                let rank = match c {
                    Color::Gold => rng.gen_range(4..=6u8),
                    Color::Silver => rng.gen_range(1..=3u8),
                };
                let sq = Square::new(rng.gen_range(0..8), rank);
                if !used[sq.index()] {
                    used[sq.index()] = true;
                    list.push((Piece::new(c, PieceKind::Rabbit), sq));
                }
            }
            let mut officers: Vec<PieceKind> = army()
                .into_iter()
                .filter(|k| *k != PieceKind::Rabbit)
                .collect();
            officers.shuffle(&mut rng);
            let keep = rng.gen_range(1..=officers.len());
            for k in officers.into_iter().take(keep) {
                // Half the officers near the goal area, the rest anywhere.
                let sq = if rng.gen_bool(0.5) {
                    Square::new(rng.gen_range(0..8), rng.gen_range(0..8))
                } else {
                    let rank = match c {
                        Color::Gold => rng.gen_range(3..8u8),
                        Color::Silver => rng.gen_range(0..5u8),
                    };
                    Square::new(rng.gen_range(0..8), rank)
                };
                if !used[sq.index()] {
                    used[sq.index()] = true;
                    list.push((Piece::new(c, k), sq));
                }
            }
        }
        // Enemy defenders on the goal ranks.
        for c in Color::ALL {
            let count = rng.gen_range(defenders.clone());
            for _ in 0..count {
                let rank = match c {
                    Color::Gold => rng.gen_range(0..=1u8),
                    Color::Silver => rng.gen_range(6..=7u8),
                };
                let sq = Square::new(rng.gen_range(0..8), rank);
                if !used[sq.index()] {
                    used[sq.index()] = true;
                    let k = PieceKind::from_index(rng.gen_range(0..PieceKind::NUM));
                    let have = list.iter().filter(|(p, _)| *p == Piece::new(c, k)).count() as u32;
                    if have < k.initial_count() {
                        list.push((Piece::new(c, k), sq));
                    }
                }
            }
        }
        if let Some(pos) = finish_random_board(&list, &mut rng) {
            out.push(pos);
        }
    }
    out
}

/// Random boards with pieces crowded around the traps, for capture chances.
pub fn capture_chance_positions(n: usize, seed: u64) -> Vec<Position> {
    let mut rng = SmallRng::seed_from_u64(seed);
    let near: Vec<Square> = Square::all()
        .filter(|s| {
            Square::TRAPS
                .iter()
                .any(|t| s.file().abs_diff(t.file()) + s.rank().abs_diff(t.rank()) <= 2)
        })
        .collect();
    let mut out = Vec::with_capacity(n);
    while out.len() < n {
        let mut used = [false; 64];
        let mut list: Vec<(Piece, Square)> = Vec::new();
        for c in Color::ALL {
            let mut pieces = army();
            pieces.shuffle(&mut rng);
            let keep = rng.gen_range(4..=12);
            let mut have_rabbit = false;
            for k in pieces.into_iter().take(keep) {
                let sq = if rng.gen_bool(0.8) {
                    near[rng.gen_range(0..near.len())]
                } else {
                    Square::new(rng.gen_range(0..8), rng.gen_range(0..8))
                };
                if k == PieceKind::Rabbit && goal_distance_ok(c, sq) {
                    have_rabbit = true;
                } else if k == PieceKind::Rabbit {
                    continue;
                }
                if !used[sq.index()] {
                    used[sq.index()] = true;
                    list.push((Piece::new(c, k), sq));
                }
            }
            if !have_rabbit {
                let sq = match c {
                    Color::Gold => Square::new(rng.gen_range(0..8), 0),
                    Color::Silver => Square::new(rng.gen_range(0..8), 7),
                };
                if !used[sq.index()] {
                    used[sq.index()] = true;
                    list.push((Piece::new(c, PieceKind::Rabbit), sq));
                }
            }
        }
        if let Some(pos) = finish_random_board(&list, &mut rng) {
            out.push(pos);
        }
    }
    out
}

/// Rabbits placed for capture tests stay off their goal rank.
fn goal_distance_ok(c: Color, sq: Square) -> bool {
    match c {
        Color::Gold => sq.rank() < 7,
        Color::Silver => sq.rank() > 0,
    }
}

/// All generated test positions: `n` of each family.
pub fn all_positions(n: usize) -> Vec<Position> {
    let mut v = random_game_positions(n, 1);
    v.extend(goal_chance_positions(n, 2));
    v.extend(defended_goal_positions(n, 4));
    v.extend(capture_chance_positions(n, 3));
    v
}

/// Turns a random piece list into a test position: a random side to move, rejected if it is
/// not a legal board or the game is already over; one time in ten, one random step is taken
/// so that mid-turn positions are covered too.
fn finish_random_board(list: &[(Piece, Square)], rng: &mut SmallRng) -> Option<Position> {
    let side = if rng.gen_bool(0.5) {
        Color::Gold
    } else {
        Color::Silver
    };
    let mut pos = from_pieces(side, list).ok()?;
    if game_over(&pos) {
        return None;
    }
    if rng.gen_bool(0.1) {
        random_steps(&mut pos, 1, rng);
    }
    Some(pos)
}
