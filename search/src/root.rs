//! The root of the search: the distinct legal turns of the position (third repetitions
//! removed), searched as whole turns with principal-variation search and aspiration windows,
//! deepened one step at a time. The move returned is always one of these turns.

use tusk_engine::{turn_boundary_result, Position, Step, StepUndo, Turn};
use tusk_eval::{Threatless, Weights, WIN, WIN_THRESHOLD};

use crate::node_move::NodeMove;
use crate::params::Params;
use crate::score::Score;
use crate::search::{Worker, INF};

/// One root turn with what the last search of it found.
#[derive(Clone, Debug)]
pub(crate) struct RootMove {
    /// The turn.
    pub(crate) turn: Turn,
    /// Its latest score (exact for the best moves, a bound for the others).
    pub(crate) score: i32,
    /// The node moves after the turn on its principal variation.
    pub(crate) pv: Vec<NodeMove>,
    /// Its score without a search ([`static_scores`]): exact when the turn ends the game,
    /// else the static evaluation of the opponent's turn start, or an upper bound of it
    /// (`static_bound`).
    pub(crate) static_score: i32,
    /// `static_score` is only an upper bound, below the best static score
    /// ([`static_scores`]; [`best_known`] makes it exact where it matters).
    pub(crate) static_bound: bool,
    /// The move predictor's logit without its search-gap feature, once the predictor has
    /// ranked the turn ([`crate::predictor::order_roots`]).
    pub(crate) predictor_base: f32,
}

impl RootMove {
    pub(crate) fn new(turn: Turn) -> RootMove {
        RootMove {
            turn,
            score: -INF,
            pv: Vec::new(),
            static_score: -INF,
            static_bound: false,
            predictor_base: 0.0,
        }
    }

    /// Whether the search has scored it (every searched root turn gets a score above -INF).
    pub(crate) fn searched(&self) -> bool {
        self.score > -INF
    }

    /// What is known of it: its search score once searched, else its static score.
    pub(crate) fn known_score(&self) -> i32 {
        if self.searched() {
            self.score
        } else {
            self.static_score
        }
    }
}

/// How many root turns [`static_scores`] evaluates between two looks at `must_stop`.
const STATIC_POLL: usize = 1024;

/// Gives the root turns their static scores from the side to move's view, without searching
/// and without touching any search state (the search that follows is the same as without it).
/// A turn that ends the game (a goal, an elimination, the opponent immobilised: the official
/// end checks at the turn boundary) is a win or a loss in its steps, exactly as the search
/// scores it: every turn is checked for that. Otherwise the opponent's turn start is judged by
/// the evaluator without its costliest terms (the next-turn threats of the side that just
/// moved): its exact goal detector makes a turn that lets the opponent reach goal a loss, and
/// its capture terms count what the opponent can take. Once `must_stop` says so, the remaining
/// turns are only checked for the end of the game (their static score stays unknown, -INF).
/// Returns the index of the best turn (the first of equals).
///
/// Unless `exact`, the opponent's capture this turn (a four-step capture hunt, which can only
/// raise the opponent's score: `tusk_eval::threatless_unless_above`) is first left out, which
/// gives every turn an upper bound of its static score; then only the turns whose bound
/// reaches the best exact score found so far, highest bound first, are scored exactly. Every
/// other turn keeps its bound as its static score, below the best: the best turn and its score
/// are those of the pass with every score exact, and so is every use of the static scores but
/// the move predictor's (which reads them all, and asks for `exact`). A stop that comes while
/// the bounded turns are being scored leaves those not yet scored unknown (-INF), as the
/// first pass leaves the turns it has not reached.
pub(crate) fn static_scores(
    root: &Position,
    roots: &mut [RootMove],
    weights: &Weights,
    exact: bool,
    must_stop: &dyn Fn() -> bool,
) -> usize {
    let mut pos = root.clone();
    let mover = root.side();
    let ceiling = if exact { i32::MAX } else { i32::MIN };
    // The turns scored only by a bound, and the best exact score.
    let mut bounded: Vec<usize> = Vec::new();
    let mut best_exact = -INF;
    let mut evaluating = true;
    for (i, rm) in roots.iter_mut().enumerate() {
        if evaluating && i % STATIC_POLL == STATIC_POLL - 1 && must_stop() {
            evaluating = false;
        }
        let (score, is_bound) = with_turn_played(&mut pos, &rm.turn, |pos, ply| {
            match turn_boundary_result(pos) {
                Some(r) if r.winner == mover => (Score::WIN - ply, false),
                Some(_) => (-(Score::WIN - ply), false),
                None if evaluating => {
                    match tusk_eval::threatless_unless_above(pos, weights, ceiling) {
                        Threatless::Exact(e) => (static_of(e, ply), false),
                        // The opponent's score is at least `b`, so the mover's at most this.
                        Threatless::AtLeast(b) => (static_of(b, ply), true),
                    }
                }
                None => (-INF, false),
            }
        });
        rm.static_score = score;
        rm.static_bound = is_bound;
        if is_bound {
            bounded.push(i);
        } else {
            best_exact = best_exact.max(score);
        }
    }
    bounded.sort_by_key(|&i| std::cmp::Reverse(roots[i].static_score));
    for (k, &i) in bounded.iter().enumerate() {
        let rm = &mut roots[i];
        if rm.static_score < best_exact {
            // This bound and every one after it are below the best.
            break;
        }
        if k % STATIC_POLL == STATIC_POLL - 1 && must_stop() {
            // Unknown from here on, as the turns left when the first pass is stopped.
            for &j in &bounded[k..] {
                roots[j].static_score = -INF;
                roots[j].static_bound = false;
            }
            break;
        }
        exact_static_score(&mut pos, rm, weights);
        best_exact = best_exact.max(rm.static_score);
    }
    // Nothing is searched yet: the known scores are the static ones.
    first_best_known(roots)
}

/// The index of the first turn with the highest [`RootMove::known_score`].
fn first_best_known(roots: &[RootMove]) -> usize {
    let mut best = 0;
    for (i, rm) in roots.iter().enumerate() {
        if rm.known_score() > roots[best].known_score() {
            best = i;
        }
    }
    best
}

/// Scores `rm` exactly ([`static_scores`] without the bound) from the root `pos`.
fn exact_static_score(pos: &mut Position, rm: &mut RootMove, weights: &Weights) {
    rm.static_score = with_turn_played(pos, &rm.turn, |pos, ply| {
        static_of(
            tusk_eval::evaluate_above(pos, weights, i32::MAX).score(),
            ply,
        )
    });
    rm.static_bound = false;
}

/// The index of the turn with the best known score ([`RootMove::known_score`]: the search's
/// where the unfinished first iteration searched it, else the static one), the first of
/// equals, as if every static score were exact: a bound that comes out best is made exact
/// (it may fall below others) until an exact score is the best. (Once the best static turn
/// has been searched and scored lower, a bounded turn's bound could otherwise be taken for
/// its score.)
pub(crate) fn best_known(root: &Position, roots: &mut [RootMove], weights: &Weights) -> usize {
    let mut pos = root.clone();
    loop {
        let best = first_best_known(roots);
        let rm = &mut roots[best];
        if rm.searched() || !rm.static_bound {
            return best;
        }
        exact_static_score(&mut pos, rm, weights);
    }
}

/// A root turn's static score from an evaluation `e` of the opponent's turn start after it
/// (`ply` steps), converted as the search's static evaluation is.
fn static_of(e: i32, ply: i32) -> i32 {
    -if e >= WIN_THRESHOLD {
        Score::WIN - (ply + (WIN - e))
    } else {
        e.clamp(-Score::WIN_BOUND + 1, Score::WIN_BOUND - 1)
    }
}

/// `f` of the opponent's turn start after `turn` is played and ended from `pos`, and its
/// length in steps; `pos` is restored.
fn with_turn_played<R>(
    pos: &mut Position,
    turn: &Turn,
    f: impl FnOnce(&mut Position, i32) -> R,
) -> R {
    let mut played: [Option<(Step, StepUndo)>; 4] = [None; 4];
    for (j, s) in turn.steps().enumerate() {
        played[j] = Some((s, pos.play_step_unchecked(s)));
    }
    let undo = pos.end_turn();
    let r = f(pos, turn.len() as i32);
    pos.undo_end_turn(undo);
    for (s, u) in played.iter().rev().flatten() {
        pos.undo_step(*s, *u);
    }
    r
}

/// What happened in a root search.
pub(crate) struct RootOutcome {
    /// The best score (a bound when it lies outside the window).
    pub(crate) score: i32,
}

impl Worker<'_> {
    /// Searches every root turn `depth` steps deep (the turn's own steps included) with window
    /// (alpha, beta). The `multipv` best turns get exact scores (every turn when `all_exact`).
    /// A turn that beats the best so far moves to the front of `roots`, so `roots[0]` is always
    /// the best turn found; `on_best` is called each time that happens after the first turn.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn root_search(
        &mut self,
        roots: &mut [RootMove],
        depth: i32,
        mut alpha: i32,
        beta: i32,
        multipv: usize,
        all_exact: bool,
        on_best: &mut dyn FnMut(&mut Worker<'_>, &[RootMove]),
    ) -> RootOutcome {
        // Goal-threat extensions grow with the depth: none in the shallow iterations, where
        // every root turn's horizon would otherwise be a whole extra turn.
        let ext = (depth / 8 * 4).min(self.sh.params.max_extension);
        let raise_alpha = !all_exact && multipv == 1;
        let mut best = -INF;
        let mut exact: Vec<i32> = Vec::new();
        let root_steps = i32::from(self.pos.steps_left());
        for i in 0..roots.len() {
            let turn = roots[i].turn;
            let mut played: [Option<(Step, StepUndo)>; 4] = [None; 4];
            for (j, s) in turn.steps().enumerate() {
                played[j] = Some((s, self.pos.play_step_unchecked(s)));
            }
            let len = turn.len() as i32;
            // A whole turn costs the steps that were left at the root, however many it takes.
            let child_depth = depth - root_steps;
            // Multi-PV: once `multipv` turns are ranked, a turn must beat the last of them.
            let ranked = multipv > 1 && exact.len() >= multipv;
            let floor = if all_exact {
                -INF
            } else if ranked {
                exact[multipv - 1].max(alpha)
            } else {
                alpha
            };
            let full = i == 0 || all_exact || (multipv > 1 && !ranked);
            let v = if full {
                self.turn_end(child_depth, len, 1, floor, beta, true, ext)
            } else {
                let r = if multipv == 1 {
                    root_reduction(self.sh.params, i, roots.len(), depth)
                } else {
                    0
                };
                let mut v = self.turn_end(child_depth - r, len, 1, floor, floor + 1, false, ext);
                if let Some(x) = v {
                    if !self.stopped && x > floor && r > 0 {
                        // A reduced turn that looks better is searched again at full depth.
                        v = self.turn_end(child_depth, len, 1, floor, floor + 1, false, ext);
                    }
                }
                if let Some(x) = v {
                    if !self.stopped && x > floor && x < beta {
                        v = self.turn_end(child_depth, len, 1, floor, beta, true, ext);
                    }
                }
                v
            };
            for (s, u) in played.iter().rev().flatten() {
                self.pos.undo_step(*s, *u);
            }
            if self.stopped {
                break;
            }
            let score = v.unwrap_or(-INF);
            roots[i].score = score;
            if score > floor || full {
                roots[i].pv.clear();
                roots[i].pv.extend_from_slice(self.pv_at(1));
            }
            if multipv > 1 && (full || score > floor) {
                let at = exact.partition_point(|&e| e >= score);
                exact.insert(at, score);
            }
            let prev_best = best;
            if score > best {
                best = score;
            }
            if i > 0 && score > prev_best && (!raise_alpha || score > alpha) {
                roots[..=i].rotate_right(1);
                on_best(self, roots);
            }
            if raise_alpha && score > alpha {
                alpha = score;
            }
            if best >= beta {
                break;
            }
        }
        if !self.stopped && (all_exact || multipv > 1) {
            // Exact scores of this depth order the turns for the next one.
            roots.sort_by_key(|r| std::cmp::Reverse(r.score));
        } else if !self.stopped
            && self.sh.params.root_reductions
            && !self.sh.params.predictor
            && roots.len() > 1
        {
            // The others' bounds (fail-soft: how far each was refuted) order the rest for the
            // next depth, so the turns the reductions hit are the most clearly refuted ones.
            roots[1..].sort_by_key(|r| std::cmp::Reverse(r.score));
        }
        RootOutcome { score: best }
    }
}

/// Steps taken off the depth of root turn `index` of `count` (in search order) at iteration
/// `depth`: late turns, which the ordering ranks unlikely to be best, get a shallower first
/// look (one step from `root_reduce[0]` of the list on, from depth 5; two from `[1]`, from
/// depth 6; three from `[2]`, from depth 7), and are searched again in full if they beat alpha.
/// The first `root_full_moves` turns are never reduced.
pub(crate) fn root_reduction(params: &Params, index: usize, count: usize, depth: i32) -> i32 {
    if !params.root_reductions || index < params.root_full_moves {
        return 0;
    }
    let late = |frac: f64| index as f64 >= frac * count as f64 + params.root_full_moves as f64;
    let [r1, r2, r3] = params.root_reduce;
    if depth >= 7 && late(r3) {
        3
    } else if depth >= 6 && late(r2) {
        2
    } else if depth >= 5 && late(r1) {
        1
    } else {
        0
    }
}

/// Whether `score` is a win or a loss.
pub(crate) fn is_decisive(score: i32) -> bool {
    score.abs() > Score::WIN_BOUND
}

/// The root's turns of `game` (not in its setup, not over): every distinct legal turn whose
/// board is not a third repetition, each as a shortest step sequence ([`shortest_turns`]).
pub(crate) fn root_turns(game: &tusk_engine::Game, gen: &mut tusk_engine::TurnGen) -> Vec<Turn> {
    let root = game.position();
    let mut turns: Vec<Turn> = Vec::new();
    gen.for_each_turn_excluding(root, &|k| game.would_repeat_third_time(k), &mut |t| {
        turns.push(t.turn())
    });
    shortest_turns(root, &mut turns);
    turns
}

/// Replaces every turn of `turns` (turns of `root`, each reaching a distinct board) by a
/// shortest step sequence that reaches the same board: the engine's enumerator keeps the first
/// sequence it meets for each board, which may take more steps than needed, and a win should
/// be counted (and played) in the fewest steps.
pub(crate) fn shortest_turns(root: &tusk_engine::Position, turns: &mut [Turn]) {
    use std::collections::HashMap;
    let mut best: HashMap<u64, Turn> = HashMap::new();
    let mut pos = root.clone();
    let mut path = Turn::new();
    for len in 1..=3 {
        collect(&mut pos, &mut path, len, &mut best);
    }
    for t in turns.iter_mut() {
        if t.len() <= 1 {
            continue;
        }
        let mut p = root.clone();
        for s in t.steps() {
            p.play_step_unchecked(s);
        }
        if let Some(short) = best.get(&p.board_key()) {
            if short.len() < t.len() {
                *t = *short;
            }
        }
    }
}

fn collect(
    pos: &mut tusk_engine::Position,
    path: &mut Turn,
    len: usize,
    best: &mut std::collections::HashMap<u64, Turn>,
) {
    if path.len() == len {
        if pos.can_end_turn() {
            best.entry(pos.board_key()).or_insert(*path);
        }
        return;
    }
    let mut steps = tusk_engine::StepList::new();
    pos.legal_steps(&mut steps);
    for &s in steps.iter() {
        let u = pos.play_step_unchecked(s);
        path.push(s);
        collect(pos, path, len, best);
        path.pop();
        pos.undo_step(s, u);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The static pass with bounds finds the best turn and its score exactly as the pass with
    /// every score exact, a bounded turn's score is at least its exact score and below the
    /// best, and the fallback of an unfinished first iteration ([`best_known`]) chooses the
    /// same turn with the same score even where the best static turn was searched and scored
    /// lower. On turn starts of seeded random games, with the shipped and the hand-set weights.
    #[test]
    fn bounded_static_scores_keep_the_best_turn_and_its_score() {
        let mut gen = tusk_engine::TurnGen::new();
        let (mut bounded, mut turns, mut fallbacks) = (0, 0, 0);
        for weights in [Weights::default(), Weights::hand_set()] {
            for seed in 0..3 {
                let positions = tusk_tests::random_game(seed, 80);
                for p in positions.iter().filter(|p| p.at_turn_start()).step_by(8) {
                    let game = tusk_engine::Game::from_position(p.clone(), 2);
                    if game.result().is_some() {
                        continue;
                    }
                    let list = root_turns(&game, &mut gen);
                    if list.is_empty() {
                        continue;
                    }
                    let mut exact: Vec<RootMove> = list.iter().map(|&t| RootMove::new(t)).collect();
                    let mut lazy = exact.clone();
                    let best = static_scores(p, &mut exact, &weights, true, &|| false);
                    let found = static_scores(p, &mut lazy, &weights, false, &|| false);
                    assert_eq!(found, best, "{p:?}");
                    let top = exact[best].static_score;
                    assert_eq!(lazy[best].static_score, top);
                    for (e, l) in exact.iter().zip(&lazy) {
                        assert!(l.static_score >= e.static_score);
                        if l.static_score != e.static_score {
                            assert!(l.static_score < top);
                            bounded += 1;
                        }
                    }
                    turns += list.len();
                    // The fallback of a search whose first iteration did not finish: the best
                    // static turn and some others searched and scored lower, the rest known
                    // by their static scores. The bounds must not change its choice.
                    for (k, (e, l)) in exact.iter_mut().zip(lazy.iter_mut()).enumerate() {
                        if k == best || k % 5 == 0 {
                            let searched = e.static_score.max(-20_000) - 150;
                            e.score = searched;
                            l.score = searched;
                        }
                    }
                    let want = best_known(p, &mut exact, &weights);
                    let got = best_known(p, &mut lazy, &weights);
                    assert_eq!(got, want, "{p:?}");
                    assert_eq!(lazy[got].known_score(), exact[want].known_score());
                    fallbacks += usize::from(!exact[want].searched());
                }
            }
        }
        assert!(
            bounded * 4 > turns,
            "{bounded} of {turns} turns kept a bound above their exact score"
        );
        assert!(
            fallbacks > 5,
            "{fallbacks} fallbacks chose an unsearched turn"
        );
    }

    #[test]
    fn root_reductions_grow_with_the_place_in_the_list_and_the_depth() {
        let mut p = Params {
            root_reductions: true,
            ..Params::default()
        };
        // 1,000 turns: one step off from 8 + 120 on, two from 8 + 300, three from 8 + 800.
        let r = |i, d| root_reduction(&p, i, 1000, d);
        assert_eq!([r(0, 12), r(7, 12), r(127, 12)], [0, 0, 0]);
        assert_eq!(
            [r(128, 12), r(307, 12), r(308, 12), r(808, 12)],
            [1, 1, 2, 3]
        );
        // Shallow iterations reduce less: nothing below depth 5, at most one at 5, two at 6.
        assert_eq!([r(999, 4), r(999, 5), r(999, 6), r(999, 7)], [0, 1, 2, 3]);
        p.root_reductions = false;
        assert_eq!(root_reduction(&p, 999, 1000, 12), 0);
    }
}
