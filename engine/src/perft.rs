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

/// [`turn_divide`] within a game's history: the third-repetition rule applies at every node.
/// `seen` lists the boards (board keys: pieces and side to move) that have stood at a turn
/// start before the search, with how often (as [`crate::Game::times_seen`] tells; the root
/// position included when it is a turn start); keys may come in any order, and a key may be
/// listed once only. Along each path the boards reached are added to those counts, and a turn
/// is left out when its resulting board has already stood twice. With an empty `seen` and
/// depths up to 4 the counts equal [`turn_divide`]'s.
pub fn turn_divide_in_history(
    pos: &Position,
    turns: u32,
    seen: &[(u64, u32)],
) -> Vec<(crate::Turn, u64)> {
    if turns == 0 {
        return Vec::new();
    }
    let mut base: Vec<(u64, u32)> = seen.to_vec();
    base.sort_unstable();
    let base_twice = base.iter().any(|&(_, n)| n >= 2);
    let history = History {
        base: &base,
        base_twice,
        path: Vec::new(),
    };
    let mut gen = TurnGen::new();
    let mut roots = Vec::new();
    gen.for_each_turn_excluding(pos, &|k| history.excluded(k), &mut |t| {
        roots.push((t.turn(), t.position.clone()));
    });
    roots
        .into_par_iter()
        .map_init(TurnGen::new, |g, (t, p)| {
            let mut h = History {
                base: &base,
                base_twice,
                path: vec![p.board_key()],
            };
            (t, history_rec(g, &p, turns - 1, &mut h))
        })
        .collect()
}

/// Turn-start boards seen so far: the sorted counts before the search, and the boards along
/// the current path.
struct History<'a> {
    base: &'a [(u64, u32)],
    /// Whether some board of `base` has stood twice already.
    base_twice: bool,
    path: Vec<u64>,
}

impl History<'_> {
    fn times(&self, key: u64) -> u32 {
        let before = self
            .base
            .binary_search_by_key(&key, |&(k, _)| k)
            .map_or(0, |i| self.base[i].1);
        before + self.path.iter().filter(|&&k| k == key).count() as u32
    }

    /// Whether a turn ending on board `key` would stand there a third time.
    fn excluded(&self, key: u64) -> bool {
        self.times(key) >= 2
    }

    /// Whether any board has stood twice, so that some turn could be excluded.
    fn any_twice(&self) -> bool {
        self.base_twice || self.path.iter().any(|&k| self.times(k) >= 2)
    }
}

fn history_rec(gen: &mut TurnGen, pos: &Position, turns: u32, h: &mut History<'_>) -> u64 {
    if turns == 0 {
        return 1;
    }
    if decided(pos) {
        return 0;
    }
    if turns == 1 {
        return if h.any_twice() {
            gen.count_excluding(pos, &|k| h.excluded(k)) as u64
        } else {
            gen.count(pos) as u64
        };
    }
    let mut children = Vec::new();
    gen.for_each_turn_excluding(pos, &|k| h.excluded(k), &mut |t| {
        children.push(t.position.clone());
    });
    let mut total = 0;
    for p in &children {
        h.path.push(p.board_key());
        total += history_rec(gen, p, turns - 1, h);
        h.path.pop();
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Game;

    /// Both elephants step out and back twice; after `5g Ee3s` the board after the setups
    /// (gold to move) has stood twice, so silver's `ee6n` may not bring it back.
    #[test]
    fn history_removes_the_third_repetition() {
        let mut game = Game::new();
        for mv in [
            "Ra1 Rb1 Rc1 Rd1 Re1 Rf1 Rg1 Rh1 Da2 Hb2 Cc2 Md2 Ee2 Cf2 Hg2 Dh2",
            "ra8 rb8 rc8 rd8 re8 rf8 rg8 rh8 da7 hb7 cc7 md7 ee7 cf7 hg7 dh7",
            "Ee2n",
            "ee7s",
            "Ee3s",
            "ee6n",
            "Ee2n",
            "ee7s",
            "Ee3s",
        ] {
            game.play_text(mv).unwrap();
        }
        let pos = game.position();
        let with: Vec<_> = turn_divide_in_history(pos, 1, &game.seen_boards());
        let without = turn_divide(pos, 1);
        assert_eq!((with.len(), without.len()), (6330, 6331));
        let missing: Vec<String> = without
            .iter()
            .filter(|(t, _)| !with.iter().any(|(u, _)| u == t))
            .map(|(t, _)| crate::notation::turn::write_turn(pos, t))
            .collect();
        assert_eq!(missing, ["ee6n"]);
        assert_eq!(game.legal_turns(&mut TurnGen::new()).len(), 6330);
    }

    /// With no history, the counts are plain turn perft's (depth 3 on a sparse board; the
    /// count is the one `turn_perft` gives).
    #[test]
    fn no_history_is_plain_turn_perft() {
        let piece = |c: char, sq: &str| {
            (
                crate::Piece::from_letter(c).unwrap(),
                crate::Square::parse(sq).unwrap(),
            )
        };
        let pieces = [
            piece('r', "f8"),
            piece('e', "d6"),
            piece('E', "e4"),
            piece('R', "b2"),
        ];
        let pos = crate::notation::board::from_pieces(crate::Color::Gold, &pieces).unwrap();
        let plain: u64 = turn_divide(&pos, 3).iter().map(|(_, n)| n).sum();
        let history: u64 = turn_divide_in_history(&pos, 3, &[])
            .iter()
            .map(|(_, n)| n)
            .sum();
        assert_eq!(history, plain);
        assert_eq!(plain, 3_802_851);
    }
}
