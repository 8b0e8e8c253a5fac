//! Turning a root turn and the node moves after it into the turns of a principal variation.

use tusk_engine::{Position, Turn};

use crate::node_move::NodeMove;

/// The root turn then the node moves after it, grouped into turns (the last one may be a turn
/// cut short by the horizon). Stops at the first move that is not legal where it stands (which
/// a correct PV never has). Writing them is the notation's job
/// ([`tusk_engine::notation::turn::write_line`]).
pub(crate) fn pv_turns(root: &Position, first: &Turn, moves: &[NodeMove]) -> Vec<Turn> {
    let mut out = vec![*first];
    let mut pos = root.clone();
    for s in first.steps() {
        if !pos.is_legal_step(s) {
            return out;
        }
        pos.play_step_unchecked(s);
    }
    if !pos.can_end_turn() {
        return out;
    }
    pos.end_turn();
    let mut turn = Turn::new();
    for &m in moves {
        if m.is_pass() || m.is_none() {
            if turn.is_empty() && m.is_pass() {
                // The forced end of a turn that used its four steps, already closed.
                continue;
            }
            if turn.is_empty() || !pos.can_end_turn() {
                break;
            }
            out.push(turn);
            pos.end_turn();
            turn = Turn::new();
            continue;
        }
        let steps = [m.first(), m.second()];
        for &s in &steps[..m.len() as usize] {
            if !pos.is_legal_step(s) {
                if !turn.is_empty() {
                    out.push(turn);
                }
                return out;
            }
            pos.play_step_unchecked(s);
            turn.push(s);
        }
        if pos.steps_left() == 0 {
            out.push(turn);
            if !pos.can_end_turn() {
                return out;
            }
            pos.end_turn();
            turn = Turn::new();
        }
    }
    if !turn.is_empty() {
        out.push(turn);
    }
    out
}
