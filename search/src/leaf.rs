//! Quiet leaves for Texel-style tuning: the position at the end of the principal variation of
//! the quiescence search (`quiesce.rs`, run as the search runs it at its horizon) from a given
//! position, and that search's value. A tuner fits the evaluation on such leaves, where the
//! captures within reach have been played out, instead of on the positions themselves.

use tusk_engine::Position;
use tusk_eval::Weights;

use crate::control::Control;
use crate::params::Params;
use crate::search::{RepetitionHistory, SearchShared, Worker, INF};
use crate::tt::Tt;

/// The quiet leaf of one position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Leaf {
    /// The position at the end of the quiescence search's principal variation: the given
    /// position itself when standing pat is best, else after the captures (and turn ends) it
    /// plays. It may be mid-turn, or the opponent's turn start.
    pub position: Position,
    /// The quiescence search's value, from the given position's side to move's view, on the
    /// search's scale (see [`crate::Score`]: centirabbits, or a win or loss in steps).
    pub value: i32,
    /// Node moves from the given position to the leaf (a capture is one, a turn end one).
    pub moves: usize,
}

/// The quiet leaf of each of `positions` (which must not be decided games) with evaluation
/// weights `weights`. One quiescence searcher serves them all.
pub fn quiet_leaves(positions: &[Position], weights: &Weights) -> Vec<Leaf> {
    let params = Params {
        weights: weights.clone(),
        ..Params::default()
    };
    quiet_leaves_with(positions, &params)
}

/// [`quiet_leaves`] with the searcher's parameters `params` (its weights and switches).
fn quiet_leaves_with(positions: &[Position], params: &Params) -> Vec<Leaf> {
    let Some(first) = positions.first() else {
        return Vec::new();
    };
    // One MiB: the quiescence search barely uses its table. It is far below any limit, so
    // it cannot fail but where nothing could be allocated at all.
    let tt = Tt::try_new(1).expect("a 1 MiB transposition table");
    let control = Control::new();
    let repetitions = RepetitionHistory::default();
    let shared = SearchShared::new(&tt, params, &control, &repetitions, None);
    let mut worker = Worker::new(&shared, first.clone());
    positions
        .iter()
        .map(|p| {
            worker.pos = p.clone();
            let value = worker.qsearch(0, 0, -INF, INF);
            let mut leaf = p.clone();
            let pv = worker.pv_at(0);
            for &m in pv {
                if m.is_pass() {
                    leaf.end_turn();
                    continue;
                }
                leaf.play_step_unchecked(m.first());
                if m.len() == 2 {
                    leaf.play_step_unchecked(m.second());
                }
            }
            Leaf {
                position: leaf,
                value,
                moves: pv.len(),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use tusk_eval::{captures, evaluate, WIN_THRESHOLD};

    /// On random-game positions: with no capture for the side to move the leaf is the
    /// position and the value its evaluation; otherwise the leaf is reached by the search's
    /// own moves and its evaluation (from the root side's view) is the value.
    #[test]
    fn leaves_are_the_quiescence_principal_variation_ends() {
        let w = Weights::default();
        let positions: Vec<Position> = (0..60u64)
            .flat_map(|s| tusk_tests::random_game(s, 60))
            .filter(|p| tusk_engine::turn_boundary_result(p).is_none())
            .collect();
        let leaves = quiet_leaves(&positions, &w);
        let (mut moved, mut across) = (0, 0);
        for (p, l) in positions.iter().zip(&leaves) {
            let e = evaluate(&l.position, &w);
            if l.moves == 0 {
                assert_eq!(&l.position, p);
            } else {
                moved += 1;
                assert!(captures::best_capture(p).is_some(), "{p:?}");
            }
            if e.abs() >= WIN_THRESHOLD || l.value.abs() >= WIN_THRESHOLD {
                continue;
            }
            let from_root = if l.position.side() == p.side() {
                e
            } else {
                across += 1;
                -e
            };
            assert_eq!(l.value, from_root, "{p:?} -> {:?}", l.position);
        }
        assert!(moved > 20, "only {moved} leaves differ from their position");
        eprintln!(
            "{} positions, {moved} resolved by captures, {across} across a turn end",
            positions.len()
        );
    }

    /// A cat the side to move can capture only in four steps (the camel steps aside, pulls it
    /// off its square, pushes it onto the trap): the two-step quiescence stands pat, the
    /// capture moves play it, and the leaf is one cat short.
    #[test]
    fn capture_moves_resolve_a_four_step_capture() {
        let p = tusk_engine::notation::board::parse_aei(
            "g [d cd r   r   me    rh   r  r r  RcR R  r M     C DC  DE  R R   H]",
        )
        .unwrap();
        let cat = tusk_engine::PieceKind::Cat;
        let silver = tusk_engine::Color::Silver;
        assert_eq!(captures::best_capture(&p), Some(cat));
        let mut params = Params {
            capture_moves: false,
            ..Params::default()
        };
        let plain = &quiet_leaves_with(std::slice::from_ref(&p), &params)[0];
        assert_eq!(plain.position.count(silver, cat), p.count(silver, cat));
        params.capture_moves = true;
        let deep = &quiet_leaves_with(std::slice::from_ref(&p), &params)[0];
        assert_eq!(deep.position.count(silver, cat) + 1, p.count(silver, cat));
        assert!(
            deep.value > plain.value,
            "{} <= {}",
            deep.value,
            plain.value
        );
    }
    /// Gold's horse on b3 is frozen by silver's elephant on b4, and nothing guards the trap
    /// c3: silver would push it in next turn. One step into gold's turn (`Ra1n`), standing pat
    /// charges a share of the horse; with capture defences (`qdefence`, mid-turn) the
    /// quiescence search plays a step that guards the trap (`Rd2n` or `Rd2w`, the only single
    /// steps that save it), and the leaf is a board where silver can no longer take the
    /// horse. At the turn start itself it stands pat either way.
    #[test]
    fn capture_defences_resolve_a_threatened_horse() {
        let p = tusk_engine::notation::board::parse_aei(
            "g [r      r              h          e       H         R    R   E  R]",
        )
        .unwrap();
        let start = p;
        let mut p = start.clone();
        p.play_step_unchecked(
            tusk_engine::Step::try_new(
                tusk_engine::Square::from_index(0),
                tusk_engine::Direction::North,
            )
            .expect("a1n"),
        );
        let horse = tusk_engine::PieceKind::Horse;
        let threat =
            |p: &Position| tusk_eval::threat::NextTurnThreat::capture_of_mut(&mut p.clone());
        assert_eq!(threat(&p), Some(horse));
        assert_eq!(captures::best_capture(&p), None);
        let mut params = Params::default();
        let plain = &quiet_leaves_with(std::slice::from_ref(&p), &params)[0];
        assert_eq!(plain.moves, 0, "without defences it stands pat");
        params.capture_defences = true;
        let defended = &quiet_leaves_with(std::slice::from_ref(&p), &params)[0];
        assert!(defended.moves >= 1, "{defended:?}");
        let leaf = &defended.position;
        assert_eq!(leaf.side(), p.side(), "the defence is gold's own step");
        assert_eq!(threat(leaf), None);
        assert!(
            defended.value > plain.value,
            "{} <= {}",
            defended.value,
            plain.value
        );
        let at_start = &quiet_leaves_with(std::slice::from_ref(&start), &params)[0];
        assert_eq!(at_start.moves, 0, "no defences at a turn start");
    }
}
