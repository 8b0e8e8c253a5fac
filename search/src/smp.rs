//! Lazy SMP and iterative deepening: the main thread deepens one step at a time with
//! aspiration windows and reports; it stops at its depth or node limit, at the hard deadline
//! and on a stop request (at once), and after an iteration when the driver's time policy asks
//! for a stop as it reads that iteration's report (`Report::completes_iteration`). Helper
//! threads search the same root on the same table, starting one step deeper on odd threads,
//! and are stopped when the main thread is done.

use std::sync::atomic::Ordering::Relaxed;
use std::time::Instant;

use tusk_engine::{Position, Turn};

use crate::caches::{PositionCaches, DEFAULT_CACHE_BITS};
use crate::limits::Limits;
use crate::pv::pv_turns;
use crate::report::{Report, SearchResult};
use crate::root::{best_known, is_decisive, static_scores, RootMove};
use crate::score::Score;
use crate::search::{SearchShared, Worker, INF};

/// Deepest iteration, in steps.
const MAX_DEPTH: u32 = Limits::MAX_DEPTH;

/// Runs a search of `turns` (the root's distinct legal turns, at least one) from `root` on
/// `threads` threads, thread `i` with the tables `caches[i]` (made where missing; a thread's
/// tables are back in `caches` when the search returns).
pub(crate) fn run(
    shared: &SearchShared<'_>,
    root: &Position,
    turns: &[Turn],
    limits: &Limits,
    threads: usize,
    caches: &mut Vec<PositionCaches>,
    report: &mut dyn FnMut(&Report),
) -> SearchResult {
    let started = Instant::now();
    let mut roots: Vec<RootMove> = turns.iter().map(|&t| RootMove::new(t)).collect();
    let max_depth = limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
    // Every iteration up to the root's steps left searches each root turn to the opponent's
    // turn start and no further, the same search: the first is done at the deepest of them.
    let first_depth = u32::from(root.steps_left()).clamp(1, max_depth);
    // Before any iteration: every root turn's static score, so that a search stopped before
    // its first iteration ends still plays a win this turn if there is one, and otherwise the
    // best turn by evaluation; shown as the first, partial, report. The search order is not
    // changed by it.
    // The move predictor reads every turn's static score; everything else only the best.
    let exact = shared.params.predictor;
    let best_static = static_scores(root, &mut roots, &shared.params.weights, exact, &|| {
        shared.control.must_stop()
    });
    report(&Report {
        depth: first_depth,
        partial: true,
        seldepth: first_depth,
        score: score_of(roots[best_static].static_score),
        nodes: shared.nodes.load(Relaxed),
        elapsed: started.elapsed(),
        hashfull: shared.tt.hashfull(),
        pv: vec![roots[best_static].turn],
        multipv: 1,
        root_turns: roots.len(),
        completes_iteration: false,
    });
    let mut started_threads = 1;
    caches.truncate(threads);
    caches.resize_with(threads, || PositionCaches::new(DEFAULT_CACHE_BITS));
    let mut helper_caches = caches.split_off(1);
    let main_caches = caches.pop().expect("the main thread's tables");
    let result = std::thread::scope(|scope| {
        let mut helpers = Vec::with_capacity(threads - 1);
        for (id, own) in (1..threads).zip(helper_caches.drain(..)) {
            let roots = roots.clone();
            let pos = root.clone();
            let spawned = std::thread::Builder::new()
                .name(format!("tusk-search-{id}"))
                .stack_size(64 << 20)
                .spawn_scoped(scope, move || {
                    helper(shared, pos, roots, id, first_depth, own)
                });
            match spawned {
                Ok(h) => helpers.push(h),
                // Fewer helpers than asked for: the search is still correct, and the result
                // says how many ran (the tables of those not started are made again).
                Err(_) => break,
            }
            started_threads += 1;
        }
        let depths = first_depth..=max_depth;
        let (result, own) = main_thread(
            shared,
            root,
            roots,
            limits,
            depths,
            started,
            main_caches,
            report,
        );
        shared.abort.store(true, Relaxed);
        caches.push(own);
        // A helper that panicked loses its tables; the next search makes new ones.
        caches.extend(helpers.into_iter().filter_map(|h| h.join().ok()));
        result
    });
    // Every helper has flushed its nodes by now.
    SearchResult {
        nodes: shared.nodes.load(Relaxed),
        threads: started_threads,
        ..result
    }
}

fn helper(
    shared: &SearchShared<'_>,
    pos: Position,
    mut roots: Vec<RootMove>,
    id: usize,
    first: u32,
    caches: PositionCaches,
) -> PositionCaches {
    let mut w = Worker::with_caches(shared, pos, caches);
    let first = first as i32;
    let mut depth = first + (id % 2) as i32;
    while depth <= MAX_DEPTH as i32 && !w.stopped {
        w.root_search(
            &mut roots,
            depth,
            -INF,
            INF,
            1,
            depth == first,
            &mut |_, _| {},
        );
        depth += 1;
    }
    w.flush();
    w.into_caches()
}

fn score_of(v: i32) -> Score {
    if v.abs() > Score::WIN {
        Score(0)
    } else {
        Score(v)
    }
}

#[allow(clippy::too_many_arguments)]
fn make_report(
    w: &Worker<'_>,
    root: &Position,
    rm: &RootMove,
    depth: u32,
    partial: bool,
    started: Instant,
    rank: usize,
) -> Report {
    Report {
        depth,
        partial,
        seldepth: w.seldepth.max(depth),
        score: score_of(rm.score),
        nodes: w.sh.nodes.load(Relaxed) + w.unflushed_nodes(),
        elapsed: started.elapsed(),
        hashfull: w.sh.tt.hashfull(),
        pv: pv_turns(root, &rm.turn, &rm.pv),
        multipv: rank,
        root_turns: 0,
        completes_iteration: false,
    }
}

#[allow(clippy::too_many_arguments)]
fn main_thread(
    shared: &SearchShared<'_>,
    root: &Position,
    mut roots: Vec<RootMove>,
    limits: &Limits,
    depths: std::ops::RangeInclusive<u32>,
    started: Instant,
    caches: PositionCaches,
    report: &mut dyn FnMut(&Report),
) -> (SearchResult, PositionCaches) {
    let first = *depths.start();
    let params = shared.params;
    let control = shared.control;
    let mut w = Worker::with_caches(shared, root.clone(), caches);
    let mut completed = 0u32;
    let mut prev_score = 0;
    for depth in depths.clone() {
        let d = depth as i32;
        let multipv = limits.multipv.clamp(1, roots.len());
        let mut on_best = |w: &mut Worker<'_>, roots: &[RootMove]| {
            if depth > first {
                report(&Report {
                    root_turns: roots.len(),
                    ..make_report(w, root, &roots[0], depth, true, started, 1)
                });
            }
        };
        let on_best = &mut on_best;
        if params.aspiration && multipv == 1 && depth > first && !is_decisive(prev_score) {
            let mut delta = params.aspiration_window;
            let mut alpha = (prev_score - delta).max(-INF);
            let mut beta = (prev_score + delta).min(INF);
            loop {
                let out = w.root_search(&mut roots, d, alpha, beta, 1, false, on_best);
                if w.stopped {
                    break;
                }
                delta = delta.saturating_mul(3);
                if out.score <= alpha {
                    alpha = if delta > 2000 {
                        -INF
                    } else {
                        (alpha - delta).max(-INF)
                    };
                } else if out.score >= beta {
                    beta = if delta > 2000 {
                        INF
                    } else {
                        (beta + delta).min(INF)
                    };
                } else {
                    break;
                }
            }
        } else {
            w.root_search(&mut roots, d, -INF, INF, multipv, depth == first, on_best);
        }
        if w.stopped {
            break;
        }
        completed = depth;
        prev_score = roots[0].score;
        // The first iteration's result is also that of every shallower depth.
        let shown = if depth == first { 1 } else { depth };
        for d in shown..=depth {
            for (k, rm) in roots.iter().take(multipv).enumerate() {
                report(&Report {
                    root_turns: roots.len(),
                    completes_iteration: d == depth && k == 0,
                    ..make_report(&w, root, rm, d, false, started, k + 1)
                });
            }
        }
        if depth == first && params.predictor && multipv == 1 {
            // The first iteration's exact scores and the static ones feed the move
            // predictor, whose order the later iterations keep (the best turn first), or
            // re-rank with their own bounds (`rerank`).
            let featured = crate::predictor::order_roots(root, &mut roots, &params.predictor_model);
            w.charge_nodes(featured as u64);
        } else if depth > first && params.predictor && params.predictor_rerank && multipv == 1 {
            // Each later iteration's bounds re-rank the turns, the other features kept.
            crate::predictor::rerank_roots(&mut roots, &params.predictor_model);
        }
        // Whether to go on is the driver's time policy: it has seen the iteration's report
        // and stops the search through the control when it is time.
        if control.must_stop() {
            break;
        }
    }
    let brief = params.brief_moves.min(roots.len());
    if brief > 0
        && limits.depth.is_some()
        && completed == *depths.end()
        && completed < MAX_DEPTH
        && !control.must_stop()
    {
        // sharp's brief last depth: the best turns of the last iteration one step deeper.
        let depth = completed + 1;
        let mut on_best = |w: &mut Worker<'_>, roots: &[RootMove]| {
            report(&Report {
                root_turns: roots.len(),
                ..make_report(w, root, &roots[0], depth, true, started, 1)
            });
        };
        w.root_search(
            &mut roots[..brief],
            depth as i32,
            -INF,
            INF,
            1,
            false,
            &mut on_best,
        );
        if !w.stopped {
            completed = depth;
            report(&Report {
                root_turns: brief,
                completes_iteration: true,
                ..make_report(&w, root, &roots[0], depth, false, started, 1)
            });
        }
    }
    w.flush();
    let best = if completed == 0 {
        // No iteration ended: the best of what is known, each turn searched in the unfinished
        // first iteration by its search score (exact there), every other by its static score.
        let i = best_known(root, &mut roots, &params.weights);
        &roots[i]
    } else {
        &roots[0]
    };
    let result = SearchResult {
        best: best.turn,
        score: score_of(best.known_score().max(-INF + 1)),
        depth: completed,
        pv: pv_turns(root, &best.turn, &best.pv),
        nodes: shared.nodes.load(Relaxed),
        elapsed: started.elapsed(),
        threads: 1,
    };
    (result, w.into_caches())
}
