//! Independent node moves inside one turn. Two moves of the side to move that touch squares far
//! enough apart can be played in either order with the same result, so the search plays such a
//! pair in one order only (the move with the smaller packed value first) and skips the other
//! order, which would only reach the same position again.

use tusk_engine::Bitboard;

use crate::node_move::NodeMove;

/// The squares a step move touches: every step's origin and destination (empty for a pass or
/// no move).
#[inline]
fn footprint(m: NodeMove) -> Bitboard {
    let mut b = Bitboard::EMPTY;
    if m.len() >= 1 {
        let s = m.first();
        b |= Bitboard::from_square(s.from()) | Bitboard::from_square(s.to());
    }
    if m.len() == 2 {
        let s = m.second();
        b |= Bitboard::from_square(s.from()) | Bitboard::from_square(s.to());
    }
    b
}

/// Whether node moves `a` and `b` (steps, pushes or pulls of the same turn, neither a pass)
/// commute: if `b` is legal after `a`, then `b` was legal before `a`, `a` is legal after `b`,
/// and both orders reach the same position (pieces, captures, steps left).
///
/// The test is geometric and conservative. No square either move touches may equal or neighbour
/// a square the other touches, so neither move changes the occupancy of the other's squares or
/// of the squares that decide whether its pieces are frozen, stronger-adjacent or guarded; and
/// no trap may neighbour both moves, so a capture one move causes (always on a trap beside or
/// under its squares) cannot change what the other does. Passes and no-moves never commute.
#[inline]
pub(crate) fn commute(a: NodeMove, b: NodeMove) -> bool {
    if a.len() == 0 || b.len() == 0 {
        return false;
    }
    let fa = footprint(a);
    let fb = footprint(b);
    let na = fa.neighbours();
    let nb = fb.neighbours();
    ((fa | na) & fb).is_empty() && (Bitboard::TRAPS & na & nb).is_empty()
}

/// Whether the search skips `m` after `prev` (the node move just played in the same turn):
/// they commute and `m` sorts first, so the order `m`, `prev` is searched instead.
#[inline]
pub(crate) fn redundant_order(prev: NodeMove, m: NodeMove) -> bool {
    m.bits() < prev.bits() && commute(prev, m)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::moves::generate;
    use tusk_engine::notation::board::parse_aei;
    use tusk_engine::{Position, StepList};

    fn play(pos: &mut Position, m: NodeMove) {
        pos.play_step_unchecked(m.first());
        if m.len() == 2 {
            pos.play_step_unchecked(m.second());
        }
    }

    fn node_moves(pos: &mut Position) -> Vec<NodeMove> {
        let mut out = Vec::new();
        generate(pos, &mut out, &mut StepList::new());
        let left = u32::from(pos.steps_left());
        out.into_iter()
            .map(|(m, _)| m)
            .filter(|m| !m.is_pass() && m.len() <= left)
            .collect()
    }

    /// Every pair of node moves `a` then `b` from each position within one node move of
    /// `boards`: where they commute, `b` must be a node move before `a`, `a` a node move after
    /// `b`, and both orders must reach the same pieces and steps left. Returns how many
    /// commuting pairs were checked and how many pairs in all.
    fn check(boards: &[&str]) -> (usize, usize) {
        let mut starts = Vec::new();
        for text in boards {
            let p = parse_aei(text).unwrap();
            starts.push(p.clone());
            let mut q = p.clone();
            for m in node_moves(&mut q) {
                let mut r = p.clone();
                play(&mut r, m);
                if r.steps_left() >= 2 {
                    starts.push(r);
                }
            }
        }
        let (mut commuting, mut pairs) = (0, 0);
        for n in starts {
            let first = node_moves(&mut n.clone());
            for &a in &first {
                let mut na = n.clone();
                play(&mut na, a);
                for b in node_moves(&mut na) {
                    pairs += 1;
                    if !commute(a, b) {
                        continue;
                    }
                    commuting += 1;
                    assert!(commute(b, a), "commute is symmetric");
                    assert!(first.contains(&b), "{b:?} not legal before {a:?} in {n:?}");
                    let mut nb = n.clone();
                    play(&mut nb, b);
                    assert!(
                        node_moves(&mut nb.clone()).contains(&a),
                        "{a:?} not legal after {b:?} in {n:?}"
                    );
                    let mut ab = na.clone();
                    play(&mut ab, b);
                    play(&mut nb, a);
                    assert_eq!(ab.board_key(), nb.board_key(), "{a:?} {b:?} in {n:?}");
                    assert_eq!(ab.steps_left(), nb.steps_left());
                }
            }
        }
        (commuting, pairs)
    }

    #[test]
    fn commuting_moves_reach_the_same_position_in_either_order() {
        let (commuting, pairs) = check(&[
            tusk_engine::notation::board::STANDARD_OPENING,
            "g [ D      c   r HcR   M r rC  r R r  r E R R C  R R    D      R  R]",
            "s [ D      c   r HcR   M r rC  r R r  r E R R C  R R    D      R  R]",
            // Pieces on and around all four traps, frozen pieces and pushes near traps.
            "g [        r d C  r rMR hc   r  e     Em h  DR  HR R  rDC R        ]",
            "g [       r e                                DEcr        R R       ]",
        ]);
        // Enough commuting pairs, and enough that do not commute, for the test to mean something.
        assert!(commuting > 20_000, "{commuting} commuting pairs");
        assert!(
            pairs - commuting > 20_000,
            "{} dependent pairs",
            pairs - commuting
        );
    }

    #[test]
    fn moves_beside_each_other_or_one_trap_do_not_commute() {
        // Gold: dog b3, rabbit alone on trap c3 (guarded by the dog and the cat), cat d3,
        // elephant g7; a silver rabbit on e5.
        let board = "g [              E             r            DRC                    ]";
        let p = parse_aei(board).unwrap();
        let step = |text: &str| {
            let (turn, _) = tusk_engine::notation::turn::parse_turn(&p, text).unwrap();
            let first = turn.steps().next().unwrap();
            NodeMove::one(first)
        };
        // Far apart: either order gives the same position.
        assert!(commute(step("Db3n"), step("Eg7w")));
        assert!(commute(step("Cd3e"), step("Eg7w")));
        // Both beside trap c3, whose rabbit dies when its last guard leaves.
        assert!(!commute(step("Db3n"), step("Cd3n")));
        // The dog stands beside the square the rabbit leaves.
        assert!(!commute(step("Db3n"), step("Rc3n")));
        // Exactly one order of a commuting pair is skipped; a pass never commutes.
        let (a, b) = (step("Db3n"), step("Eg7w"));
        assert!(redundant_order(a, b) != redundant_order(b, a));
        assert!(!commute(a, NodeMove::PASS) && !commute(NodeMove::NONE, a));
    }
}
