//! Perft: counts of step sequences, distinct positions and distinct turns, for testing the
//! generator against published and independently computed numbers, and for measuring speed.

use std::collections::HashMap;

use rayon::prelude::*;

use crate::{Position, Step, StepList, TurnGen};

/// Step-level counts for one depth (steps into the current turn).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct StepLayer {
    /// Number of legal step sequences of exactly this many steps.
    pub sequences: u64,
    /// Number of distinct states they reach (board, steps left and pending push/pull).
    pub positions: u64,
    /// Steps played to compute this layer (one per distinct parent state and legal step).
    pub steps_made: u64,
}

/// Counts step sequences layer by layer within the current turn, up to `depth` steps (at most
/// the steps left). Each layer is deduplicated, with a multiplicity per state, so sequence
/// counts are exact while every distinct state is expanded once. Layers expand in parallel.
pub fn step_layers(pos: &Position, depth: u8) -> Vec<StepLayer> {
    let depth = depth.min(pos.steps_left());
    let mut layer: Vec<(Position, u64)> = vec![(pos.clone(), 1)];
    let mut out = Vec::with_capacity(depth as usize);
    for _ in 0..depth {
        let children: Vec<(Vec<(Position, u64)>, u64)> = layer
            .par_iter()
            .map(|(p, mult)| {
                let mut steps = StepList::new();
                p.legal_steps(&mut steps);
                let mut kids = Vec::with_capacity(steps.len());
                let mut q = p.clone();
                for &s in steps.iter() {
                    let u = q.play_step_unchecked(s);
                    kids.push((q.clone(), *mult));
                    q.undo_step(s, u);
                }
                let made = steps.len() as u64;
                (kids, made)
            })
            .collect();
        let mut merged: HashMap<u64, (Position, u64)> = HashMap::new();
        let mut sequences = 0u64;
        let mut steps_made = 0u64;
        for (kids, made) in children {
            steps_made += made;
            for (p, m) in kids {
                sequences += m;
                merged
                    .entry(p.hash())
                    .and_modify(|e| e.1 += m)
                    .or_insert((p, m));
            }
        }
        out.push(StepLayer {
            sequences,
            positions: merged.len() as u64,
            steps_made,
        });
        layer = merged.into_values().collect();
    }
    out
}

/// Plain recursive step perft: legal step sequences of exactly `depth` steps (within the
/// turn), every step made and undone, leaves included (no bulk counting), so the second value,
/// the number of steps made, is an honest speed measure.
pub fn step_perft(pos: &mut Position, depth: u8) -> (u64, u64) {
    if depth == 0 {
        return (1, 0);
    }
    let mut steps = StepList::new();
    pos.legal_steps(&mut steps);
    let mut total = 0;
    let mut made = 0;
    for &s in steps.iter() {
        let u = pos.play_step_unchecked(s);
        let (n, m) = step_perft(pos, depth - 1);
        pos.undo_step(s, u);
        total += n;
        made += m + 1;
    }
    (total, made)
}

/// [`step_perft`] run in parallel over the root steps. Returns (sequences, steps made).
pub fn step_perft_parallel(pos: &Position, depth: u8) -> (u64, u64) {
    if depth == 0 {
        return (1, 0);
    }
    step_divide(pos, depth)
        .iter()
        .fold((0, 0), |acc, &(_, n, m)| (acc.0 + n, acc.1 + m))
}

/// Per first step, the number of step sequences of `depth` (at least 1) steps that begin with
/// it, and the steps made to count them (the first included). Parallel over the first steps.
pub fn step_divide(pos: &Position, depth: u8) -> Vec<(Step, u64, u64)> {
    let mut steps = StepList::new();
    pos.legal_steps(&mut steps);
    steps
        .as_slice()
        .par_iter()
        .map(|&s| {
            let mut p = pos.clone();
            p.play_step_unchecked(s);
            let (n, m) = step_perft(&mut p, depth.saturating_sub(1));
            (s, n, m + 1)
        })
        .collect()
}

/// Turn-level perft: the number of sequences of `turns` distinct legal turns (each node's
/// children are its distinct turns; a position where the game is already decided by a goal or
/// elimination has none). Parallel over the root turns.
pub fn turn_perft(pos: &Position, turns: u32) -> u64 {
    turn_divide(pos, turns).iter().map(|(_, n)| n).sum()
}

/// Per root turn (its resulting position), the turn-perft count below it.
pub fn turn_divide(pos: &Position, turns: u32) -> Vec<(crate::Turn, u64)> {
    if turns == 0 {
        return Vec::new();
    }
    let mut gen = TurnGen::new();
    let roots = gen.turns(pos);
    roots
        .into_par_iter()
        .map_init(TurnGen::new, |g, (t, p)| {
            (t, turn_perft_rec(g, &p, turns - 1))
        })
        .collect()
}

/// Whether the game is over at this turn start (goal or elimination; an immobilised side has
/// no turns anyway).
fn decided(p: &Position) -> bool {
    crate::game::turn_boundary_result(p).is_some()
}

fn turn_perft_rec(gen: &mut TurnGen, pos: &Position, turns: u32) -> u64 {
    if turns == 0 {
        return 1;
    }
    if decided(pos) {
        return 0;
    }
    if turns == 1 {
        return gen.count(pos) as u64;
    }
    let children = gen.turns(pos);
    children
        .iter()
        .map(|(_, p)| turn_perft_rec(gen, p, turns - 1))
        .sum()
}
