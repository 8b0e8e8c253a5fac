//! The searcher's behaviour: legal and reproducible results, stops, and the tactics it must
//! never miss (a goal this turn, a free capture, a won elimination or immobilisation, the
//! third-repetition rule at the root).

use std::sync::Arc;
use std::time::Duration;

use tusk_engine::notation::board::parse_aei;
use tusk_engine::notation::turn::play_steps;
use tusk_engine::{Color, EndReason, Game, PieceKind, TurnGen};
use tusk_search::{Control, Limits, ScoreKind, SearchConfig, SearchResult, Searcher};

const OPENING: &str = tusk_engine::notation::board::STANDARD_OPENING;
const MIDGAME: &str = "s [ m   e      r  r           Rhhrrr      RRRR rrRC H  C H  D M D  ]";
const THINNED: &str = "g [     rd  r c m       r rr   R   RDr       RR          DR    E   ]";

fn game(text: &str) -> Game {
    Game::from_position(parse_aei(text).expect("test position"), 2)
}

/// A searcher of one thread with an 8 MiB table.
fn one_thread_searcher() -> Searcher {
    Searcher::new(SearchConfig {
        threads: 1,
        hash_mb: 8,
    })
    .expect("a searcher")
}

/// A search of `game` to `depth` steps by a fresh [`one_thread_searcher`] with `params`.
fn search_with_params(
    game: &Game,
    depth: u32,
    params: tusk_search::params::Params,
) -> SearchResult {
    let mut s = one_thread_searcher();
    s.set_params(params);
    search_with(&mut s, game, depth)
}

fn search(game: &Game, depth: u32) -> SearchResult {
    let mut s = one_thread_searcher();
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    s.search(game, &limits, &Control::new(), &mut |_| {})
        .expect("a turn to play")
}

/// The result's turn is one of the game's legal turns (no third repetition, board changed),
/// and its text plays.
fn assert_legal(game: &Game, r: &SearchResult) {
    let mut g = game.clone();
    let best = game.turn_text(&r.best);
    g.play_text(&best)
        .unwrap_or_else(|e| panic!("bestmove {best} does not play: {e}"));
    let key = g.position().board_key();
    let turns = game.legal_turns(&mut TurnGen::new());
    assert!(
        turns.iter().any(|(_, p)| p.board_key() == key),
        "{best} reaches no legal turn's board"
    );
}

/// The game after the result's turn.
fn after(game: &Game, r: &SearchResult) -> Game {
    let mut g = game.clone();
    g.play_text(&game.turn_text(&r.best))
        .expect("bestmove plays");
    g
}

#[test]
fn the_pv_replays_legally_from_the_root() {
    for (text, depth) in [(OPENING, 6), (MIDGAME, 5), (THINNED, 6)] {
        let g = game(text);
        let r = search(&g, depth);
        assert_legal(&g, &r);
        assert_eq!(r.pv.first(), Some(&r.best));
        let pv = g.line_text(&r.pv);
        assert_eq!(pv.len(), r.pv.len(), "every PV turn is written: {pv:?}");
        let mut replay = g.clone();
        for (i, turn) in pv.iter().enumerate() {
            if replay.result().is_some() {
                panic!("PV goes on after the game ended: {pv:?}");
            }
            if i + 1 < pv.len() {
                replay
                    .play_text(turn)
                    .unwrap_or_else(|e| panic!("PV turn {i} \"{turn}\" of {pv:?}: {e}"));
            } else {
                // The last turn may be cut short by the horizon: its steps must be legal.
                play_steps(replay.position(), turn)
                    .unwrap_or_else(|e| panic!("PV end \"{turn}\" of {pv:?}: {e}"));
            }
        }
    }
}

#[test]
fn a_fixed_depth_search_on_one_thread_is_reproducible() {
    for text in [OPENING, MIDGAME] {
        let g = game(text);
        let a = search(&g, 6);
        let b = search(&g, 6);
        assert_eq!(
            (a.nodes, a.best, a.score, a.depth, &a.pv),
            (b.nodes, b.best, b.score, b.depth, &b.pv)
        );
        assert!(a.nodes > 1000, "a real search: {} nodes", a.nodes);
        assert_eq!(a.depth, 6);
    }
}

#[test]
fn a_stop_from_another_thread_returns_a_legal_turn() {
    let g = game(MIDGAME);
    let control = Arc::new(Control::new());
    let c = Arc::clone(&control);
    let stopper = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(300));
        c.stop();
    });
    let mut s = Searcher::new(SearchConfig {
        threads: 2,
        hash_mb: 8,
    })
    .expect("a searcher");
    let r = s
        .search(&g, &Limits::default(), &control, &mut |_| {})
        .expect("a turn");
    stopper.join().unwrap();
    assert_legal(&g, &r);
    // A stop asked for before the search starts still yields a legal turn.
    let control = Control::new();
    control.stop();
    let r = s
        .search(&g, &Limits::default(), &control, &mut |_| {})
        .expect("a turn");
    assert_legal(&g, &r);
}

#[test]
fn a_hard_deadline_and_a_node_limit_end_the_search() {
    let g = game(OPENING);
    let mut s = Searcher::new(SearchConfig::default()).expect("a searcher");
    let control = Control::new();
    control.set_hard(Some(Duration::from_millis(200)));
    let r = s
        .search(&g, &Limits::default(), &control, &mut |_| {})
        .unwrap();
    assert_legal(&g, &r);
    let limits = Limits {
        nodes: Some(20_000),
        ..Limits::default()
    };
    let r = s.search(&g, &limits, &Control::new(), &mut |_| {}).unwrap();
    assert_legal(&g, &r);
    assert!(r.nodes < 40_000, "{} nodes", r.nodes);
}

#[test]
fn a_goal_this_turn_is_played_at_depth_4() {
    for text in [
        // A rabbit two steps from goal on an open file.
        "g [r   e              R                                    E      R]",
        // The rules walk-through: the dog pushes a7 to a8 and frees b7, which goals.
        "g [       rrRc  dr Dd H       e      r  r   DrER R   hr h    CCRRRR]",
    ] {
        let g = game(text);
        let r = search(&g, 4);
        assert_legal(&g, &r);
        let next = after(&g, &r);
        let res = next.result().expect("the game ends");
        assert_eq!(
            (res.winner, res.reason),
            (Color::Gold, EndReason::Goal),
            "{text}"
        );
        assert!(matches!(r.score.kind(), ScoreKind::WinIn(_)), "{}", r.score);
    }
}

#[test]
fn the_same_goal_is_found_for_silver() {
    // The mirror of the open-file goal.
    let p = parse_aei("g [r   e              R                                    E      R]")
        .unwrap()
        .flip();
    let g = Game::from_position(p, 2);
    let r = search(&g, 4);
    let res = after(&g, &r).result().expect("the game ends");
    assert_eq!((res.winner, res.reason), (Color::Silver, EndReason::Goal));
}

#[test]
fn a_free_capture_is_taken() {
    // The gold elephant pushes the silver dog c4 into the unguarded trap c3.
    let g = game("g [r   e  r                          dE                    R      R]");
    let r = search(&g, 4);
    assert_legal(&g, &r);
    let next = after(&g, &r);
    assert_eq!(
        next.position().count(Color::Silver, PieceKind::Dog),
        0,
        "{}",
        g.turn_text(&r.best)
    );
}

#[test]
fn a_won_elimination_is_played() {
    // Silver's last rabbit stands beside the unguarded trap c3 with the gold elephant behind.
    let g = game("g [    e                             rE                    RD     R]");
    let r = search(&g, 4);
    let res = after(&g, &r).result().expect("the game ends");
    assert_eq!(
        (res.winner, res.reason),
        (Color::Gold, EndReason::Elimination),
        "{}",
        g.turn_text(&r.best)
    );
    assert!(matches!(r.score.kind(), ScoreKind::WinIn(_)), "{}", r.score);
}

#[test]
fn a_won_immobilisation_is_played() {
    // Silver has a lone rabbit on a8: a gold dog on a7 freezes it and silver cannot move.
    let g = game("g [r               D                                       R      E]");
    let r = search(&g, 4);
    let res = after(&g, &r).result().expect("the game ends");
    assert_eq!(
        (res.winner, res.reason),
        (Color::Gold, EndReason::Immobilization),
        "{}",
        g.turn_text(&r.best)
    );
    assert_eq!(r.score.kind(), ScoreKind::WinIn(1), "the fastest win");
}

#[test]
fn a_turn_making_a_third_repetition_is_never_returned() {
    // Elephants step out and back twice: the start has stood twice, and silver's step back
    // would make it stand a third time.
    let mut g = game("g [r      r                    e       E                   R      R]");
    let start = g.position().board_key();
    for t in ["Ee4s", "ee5n", "Ee3n", "ee6s", "Ee4s", "ee5n", "Ee3n"] {
        g.play_text(t).unwrap();
    }
    assert_eq!(g.times_seen(start), 2);
    // Silver to move: its elephant's step back would make the start stand a third time.
    let repeat_key = {
        let mut h = g.clone();
        h.play_text("ee6s").map(|_| h.position().board_key())
    };
    assert!(
        repeat_key.is_err(),
        "the engine forbids the third repetition"
    );
    for depth in [1, 4, 6] {
        let r = search(&g, depth);
        assert_legal(&g, &r);
        let next = after(&g, &r);
        assert!(next.times_seen(next.position().board_key()) <= 2);
    }
}

#[test]
fn multipv_ranks_distinct_turns() {
    let g = game(OPENING);
    let mut s = one_thread_searcher();
    let limits = Limits {
        depth: Some(4),
        nodes: None,
        multipv: 3,
    };
    let mut last = Vec::new();
    s.search(&g, &limits, &Control::new(), &mut |r| {
        if !r.partial && r.depth == 4 {
            last.push((r.multipv, r.score, r.pv[0]));
        }
    })
    .unwrap();
    assert_eq!(last.iter().map(|l| l.0).collect::<Vec<_>>(), vec![1, 2, 3]);
    assert!(last[0].1 >= last[1].1 && last[1].1 >= last[2].1, "{last:?}");
    assert!(last[0].2 != last[1].2 && last[1].2 != last[2].2, "{last:?}");
}

/// The brief last iteration (`brief_moves`, sharp's brief last depth): a search to depth 4
/// goes on to depth 5 over the best `brief_moves` turns of depth 4 only, and plays one of
/// them; with one turn, that turn.
#[test]
fn the_brief_last_iteration_searches_the_best_turns_one_step_deeper() {
    let g = game(MIDGAME);
    let mut s = one_thread_searcher();
    let limits = Limits {
        depth: Some(4),
        nodes: None,
        multipv: 5,
    };
    let mut best5 = Vec::new();
    s.search(&g, &limits, &Control::new(), &mut |r| {
        if !r.partial && r.depth == 4 {
            best5.push(r.pv[0]);
        }
    })
    .unwrap();
    assert_eq!(best5.len(), 5);
    let plain = search(&g, 4);
    assert_eq!(plain.depth, 4);
    for brief in [1, 5] {
        let params = tusk_search::params::Params {
            brief_moves: brief,
            ..Default::default()
        };
        let r = search_with_params(&g, 4, params);
        assert_legal(&g, &r);
        assert_eq!(r.depth, 5, "brief_moves {brief}");
        assert!(
            best5[..brief].contains(&r.best),
            "brief_moves {brief}: {} is not among the best turns of depth 4",
            g.turn_text(&r.best)
        );
        if brief == 1 {
            assert_eq!(r.best, plain.best);
        }
    }
}

#[test]
fn thread_counts_are_checked_and_capped_at_the_machine() {
    use tusk_search::SearchError;
    for bad in [0, SearchConfig::MAX_THREADS + 1] {
        let config = SearchConfig {
            threads: bad,
            ..SearchConfig::default()
        };
        assert_eq!(Searcher::new(config).err(), Some(SearchError::Threads(bad)));
    }
    let machine = SearchConfig::machine_threads();
    assert!(machine >= 1);
    let mut s = Searcher::new(SearchConfig {
        threads: SearchConfig::MAX_THREADS,
        hash_mb: 8,
    })
    .expect("a searcher");
    assert_eq!(s.threads(), machine.min(SearchConfig::MAX_THREADS));
    assert_eq!(s.config().threads, SearchConfig::MAX_THREADS);
    assert_eq!(s.set_threads(1), Ok(1));
    assert_eq!(s.set_threads(0), Err(SearchError::Threads(0)));
    assert_eq!(s.threads(), 1, "a refused count changes nothing");
    // The result says how many threads searched.
    assert_eq!(s.set_threads(2), Ok(machine.min(2)));
    let r = s
        .search(
            &game(MIDGAME),
            &Limits {
                depth: Some(4),
                ..Limits::default()
            },
            &Control::new(),
            &mut |_| {},
        )
        .expect("a turn");
    assert_eq!(r.threads, machine.min(2));
}

#[test]
fn a_table_beyond_the_machine_is_refused_and_the_old_one_kept() {
    use tusk_search::{SearchError, TtAllocError};
    let huge = SearchConfig::MAX_HASH_MB;
    let e = Searcher::new(SearchConfig {
        threads: 1,
        hash_mb: huge,
    })
    .err()
    .expect("a 1 TiB table is refused");
    assert!(matches!(e, SearchError::Hash(_)), "{e:?}");
    assert!(
        e.to_string()
            .starts_with("hash 1048576 MiB could not be allocated"),
        "{e}"
    );
    let mut s = one_thread_searcher();
    let e = s.set_hash_mb(huge).unwrap_err();
    assert!(matches!(e, SearchError::Hash(_)), "{e:?}");
    assert_eq!(
        s.set_hash_mb(huge + 1),
        Err(SearchError::Hash(TtAllocError::OutOfRange { mb: huge + 1 }))
    );
    assert_eq!(s.config().hash_mb, 8, "the old table is kept");
    let r = search_with(&mut s, &game(OPENING), 4);
    assert_eq!(r.depth, 4);
}

fn search_with(s: &mut Searcher, game: &Game, depth: u32) -> SearchResult {
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    s.search(game, &limits, &Control::new(), &mut |_| {})
        .expect("a turn to play")
}

/// Silver to move with 42,172 distinct turns, from a match record: `rb4w ra4s ra3s ra2s`
/// reaches goal; no search of a few thousand nodes finishes its first iteration here.
const GOAL_AMONG_42172: &str =
    "s [rrrccrrr  d  d     m   r  h      r e  hD RR  HR    MER   HRRR R ]";

#[test]
fn a_goal_this_turn_is_played_and_reported_before_the_first_iteration_ends() {
    let g = game(GOAL_AMONG_42172);
    assert_eq!(g.legal_turns(&mut TurnGen::new()).len(), 42_172);
    for nodes in [1, 2000, 10_000] {
        let mut s = Searcher::new(SearchConfig::default()).expect("a searcher");
        let limits = Limits {
            nodes: Some(nodes),
            ..Limits::default()
        };
        let mut reports = Vec::new();
        let r = s
            .search(&g, &limits, &Control::new(), &mut |rep| {
                reports.push(rep.clone())
            })
            .expect("a turn");
        assert_eq!(r.depth, 0, "no iteration ended at {nodes} nodes");
        let res = after(&g, &r).result().expect("the game ends");
        assert_eq!(
            (res.winner, res.reason),
            (Color::Silver, EndReason::Goal),
            "{nodes} nodes: {}",
            g.turn_text(&r.best)
        );
        assert_eq!(r.score.kind(), ScoreKind::WinIn(4));
        // The search said so before its first iteration ended.
        let first = reports.first().expect("a report");
        assert!(first.partial, "{first:?}");
        assert_eq!(first.pv, [r.best]);
        assert_eq!(first.score.kind(), ScoreKind::WinIn(4));
    }
}

/// Gold to move: its rabbit on d3 can run to d7 (four steps, no goal this turn), after which
/// silver has no turn that stops it goaling (silver's elephant is far away on h2, its only
/// rabbit frozen by gold's elephant); so can any step forward. With the goal-defence walk at
/// the horizon, a one-turn search scores that a win and plays a run; without it the horizon
/// stands pat on the evaluation's goal-threat term and sees no win.
#[test]
fn an_unstoppable_goal_threat_for_next_turn_is_a_win_at_depth_4() {
    let g = game("g [                        r       E          R           e        ]");
    for walk in [true, false] {
        let params = tusk_search::params::Params {
            goal_defence: walk,
            ..Default::default()
        };
        let r = search_with_params(&g, 4, params);
        assert_legal(&g, &r);
        let win = matches!(r.score.kind(), ScoreKind::WinIn(_));
        assert_eq!(win, walk, "goal defence {walk}: {:?}", r.score.kind());
        if walk {
            let rabbit = after(&g, &r)
                .position()
                .pieces_of(Color::Gold, PieceKind::Rabbit);
            let ahead = ["d4", "d5", "d6", "d7"]
                .iter()
                .any(|s| rabbit.contains(tusk_engine::Square::parse(s).unwrap()));
            assert!(ahead, "{}", g.turn_text(&r.best));
        }
    }
}

/// Round 8's ladder game 8 at 5g (Tusk gold against sharp at depth 4): without the exchange,
/// a depth-9 search plays `Hb3n Hb4n Hb5e Md5n`, the camel to d6, where sharp's elephant
/// pushes it to d7 and takes it on c6 two turns later; the horizon stood pat on gold's horse
/// capture (counted at 70 %) while silver threatened gold's horse (at 15 %). With the exchange
/// the horizon may count only one of them, and the camel stays off the sixth rank. Both
/// searches without reverse futility pruning (round 8's search); with it (the default since
/// round 26) and without the exchange, the camel stays home too.
#[test]
fn the_exchange_keeps_the_ladder_camel_home() {
    let g = game("g [rrrrrrrrd c mc d h         M       e Eh  H    H D C  CD RRRRRRRR]");
    for (exchange, reverse_futility, camel_to_d6) in [
        (true, false, false),
        (false, false, true),
        (false, true, false),
    ] {
        let params = tusk_search::params::Params {
            exchange,
            reverse_futility,
            ..Default::default()
        };
        let r = search_with_params(&g, 9, params);
        assert_legal(&g, &r);
        let camel = after(&g, &r)
            .position()
            .pieces_of(Color::Gold, PieceKind::Camel);
        let d6 = tusk_engine::Square::parse("d6").unwrap();
        assert_eq!(
            camel.contains(d6),
            camel_to_d6,
            "exchange {exchange}, rfp {reverse_futility}: {}",
            g.turn_text(&r.best)
        );
    }
}

/// The weights of a kept weights file (`data/weights/`), a set an earlier round shipped.
fn kept_weights(text: &str) -> tusk_eval::Weights {
    tusk_eval::weights_file::parse(text, &tusk_eval::Weights::default())
        .expect("a kept weights file")
        .weights
}

/// Round 8's ladder game 15 at 44s (Tusk silver, to move, sharp gold): with the
/// goal-defence extension a depth-9 search sees that `ee3s ee2n Cf2w rf8s` lets gold set up a
/// goal silver cannot stop (gold then wins in 11 steps, which a depth-9 search from gold's
/// side finds), and plays a turn after which gold's depth-9 search finds no win; without it,
/// the losing turn is played.
#[test]
fn the_defence_extension_sees_the_goal_two_turns_ahead() {
    let g = game("s [  r  r   rr     rh  crdD     dMR H  EDhRRR  e     C  CR  RR     ]");
    // The evaluation this test was built with: the round-10 weights, shipped until round 19.
    // With round 19's structure values silver plays the losing turn with the extension too
    // (eval/README.md, round 19); the test is about the extension, so it keeps its weights.
    let weights = kept_weights(include_str!("../../data/weights/shipped-round10.json"));
    for defence_extension in [true, false] {
        // Late-move pruning (on by default) must spare the moves near the mover's goal
        // (`lmpgoal`): without that it prunes late steps of gold's reply that set up the goal
        // (Dh6n Rh5n Mg5e Dh7w), and the losing turn is played even with defext.
        let params = tusk_search::params::Params {
            weights: weights.clone(),
            defence_extension,
            late_move_pruning: true,
            lmp_goal_zone: true,
            ..Default::default()
        };
        let r = search_with_params(&g, 9, params);
        assert_legal(&g, &r);
        let reply = search_with_params(
            &after(&g, &r),
            9,
            tusk_search::params::Params {
                weights: weights.clone(),
                ..Default::default()
            },
        );
        assert_eq!(
            matches!(reply.score.kind(), ScoreKind::WinIn(_)),
            !defence_extension,
            "defext {defence_extension}: {} then gold scores {}",
            g.turn_text(&r.best),
            reply.score
        );
    }
}

/// A pruning switched on by `with(true)` searches the positions of `tusk bench` at its depth
/// in fewer nodes in all than `with(false)`, and still finds, at depth 4, a goal this turn, a
/// goal set up for next turn that no turn stops (with the goal-defence walk) and a free
/// capture.
///
/// The nodes are summed over the 22 positions, as `tusk bench` does (a fresh 16 MiB table
/// for each), with the shipped weights: one position can go either way under a change of
/// weights (round 47's set made the middle game at depth 8 take more nodes with each
/// pruning), the set as a whole is what each pruning is for. With the weights of round 47:
/// 987,549 nodes with both prunings, 1,048,202 without late-move pruning, 1,285,799 without
/// reverse futility; with round 52's (shipped): 990,582, 1,087,315 and 1,327,607
/// (search/README.md).
fn assert_prunes_and_keeps_tactics(with: fn(bool) -> tusk_search::params::Params) {
    let bench_nodes = |params: tusk_search::params::Params| -> u64 {
        let mut nodes = 0;
        for (name, text) in tusk_search::bench::POSITIONS {
            let g = Game::from_position(parse_aei(text).expect("a bench position"), 2);
            let mut s = Searcher::new(SearchConfig {
                threads: 1,
                hash_mb: 16,
            })
            .expect("a searcher");
            s.set_params(params.clone());
            let r = search_with(&mut s, &g, tusk_search::bench::DEFAULT_DEPTH);
            assert!(r.nodes > 0, "{name}");
            nodes += r.nodes;
        }
        nodes
    };
    let pruned = bench_nodes(with(true));
    let full = bench_nodes(with(false));
    assert!(
        pruned < full,
        "{pruned} nodes with pruning, {full} without, over the bench positions"
    );
    assert_keeps_tactics(with);
}

/// With the search of `with(true)`, at depth 4: a goal this turn, a goal set up for next turn
/// that no turn stops (with the goal-defence walk) and a free capture.
fn assert_keeps_tactics(with: fn(bool) -> tusk_search::params::Params) {
    let goal = game("g [r   e              R                                    E      R]");
    let r = search_with_params(&goal, 4, with(true));
    assert!(
        matches!(r.score.kind(), ScoreKind::WinIn(_)),
        "{}",
        goal.turn_text(&r.best)
    );
    let run = game("g [                        r       E          R           e        ]");
    let params = tusk_search::params::Params {
        goal_defence: true,
        ..with(true)
    };
    let r = search_with_params(&run, 4, params);
    assert!(
        matches!(r.score.kind(), ScoreKind::WinIn(_)),
        "{}",
        run.turn_text(&r.best)
    );
    let capture = game("g [r   e  r                          dE                    R      R]");
    let r = search_with_params(&capture, 4, with(true));
    assert_eq!(
        after(&capture, &r)
            .position()
            .count(Color::Silver, PieceKind::Dog),
        0,
        "{}",
        capture.turn_text(&r.best)
    );
}

/// Late-move pruning: the late quiet moves one and two steps from the horizon go; goals and
/// captures are not quiet, or lead the ordering.
#[test]
fn late_move_pruning_searches_fewer_nodes_and_keeps_goals_and_captures() {
    assert_prunes_and_keeps_tactics(|on| tusk_search::params::Params {
        late_move_pruning: on,
        ..Default::default()
    });
}

/// Reverse futility pruning: nodes near the horizon whose static score clears beta by the
/// margin are cut; never under a goal threat, and the evaluation holds the capture and goal
/// detectors.
#[test]
fn reverse_futility_pruning_searches_fewer_nodes_and_keeps_goals_and_captures() {
    assert_prunes_and_keeps_tactics(|on| tusk_search::params::Params {
        reverse_futility: on,
        ..Default::default()
    });
}

/// Root turns ordered by the move predictor, with root reductions: the tactics are still
/// found, and a deeper search returns a legal turn with its principal variation. (It does not
/// save nodes in the middle game at depth 8: search/README.md.)
#[test]
fn root_reductions_by_the_predictor_keep_goals_and_captures() {
    let g = game(MIDGAME);
    let params = tusk_search::params::Params {
        predictor: true,
        root_reductions: true,
        ..Default::default()
    };
    let r = search_with_params(&g, 8, params);
    assert_legal(&g, &r);
    assert!(!r.pv.is_empty());
    assert_keeps_tactics(|on| tusk_search::params::Params {
        predictor: on,
        root_reductions: on,
        ..Default::default()
    });
}

/// The searcher keeps each thread's tables of evaluations, goal answers and threat regions
/// from one search to the next. They hold exact values and change no search: a position
/// searched again after others (the transposition table cleared) gives the nodes, turn, score
/// and line of a fresh searcher, with the goal-defence walks on too (their verdicts are paid
/// for in nodes, so they count only within the search that walked them).
#[test]
fn the_tables_kept_between_searches_change_no_search() {
    let threatened = "s [  r  r   rr     rh  crdD     dMR H  EDhRRR  e     C  CR  RR     ]";
    let walks = tusk_search::params::Params {
        goal_defence: true,
        defence_extension: true,
        ..Default::default()
    };
    for params in [tusk_search::params::Params::default(), walks] {
        for (text, depth) in [(MIDGAME, 6), (threatened, 6)] {
            let g = game(text);
            let fresh = search_with_params(&g, depth, params.clone());
            let mut s = one_thread_searcher();
            s.set_params(params.clone());
            for other in [threatened, MIDGAME, THINNED] {
                search_with(&mut s, &game(other), depth);
            }
            // The same parameters again (as the AEI mode sets them before every search).
            s.set_params(params.clone());
            s.clear();
            let again = search_with(&mut s, &g, depth);
            assert_eq!(
                (again.nodes, again.best, again.score, &again.pv),
                (fresh.nodes, fresh.best, fresh.score, &fresh.pv),
                "{text} at depth {depth}, goal defence {}",
                params.goal_defence
            );
        }
    }
}

/// New weights empty the tables: a search after the change is the search of a fresh searcher
/// with those weights, not one that reads evaluations made with the old.
#[test]
fn new_weights_empty_the_tables() {
    let g = game(MIDGAME);
    let hand_set = tusk_search::params::Params {
        weights: tusk_eval::Weights::hand_set(),
        ..Default::default()
    };
    let fresh = search_with_params(&g, 6, hand_set.clone());
    let shipped = search(&g, 6);
    assert_ne!(
        (fresh.nodes, fresh.score),
        (shipped.nodes, shipped.score),
        "the two weight sets must search differently for this test to mean anything"
    );
    let mut s = one_thread_searcher();
    search_with(&mut s, &g, 6);
    s.set_params(hand_set);
    s.clear();
    let after = search_with(&mut s, &g, 6);
    assert_eq!(
        (after.nodes, after.best, after.score, &after.pv),
        (fresh.nodes, fresh.best, fresh.score, &fresh.pv)
    );
}

/// Round 55's depth-6 ladder game 5 after 45s `ed3w Md2n ec3s Md3w Mc3x` (silver took gold's
/// camel): gold's `Eb6n ra6e Ra5n` sets up a goal on the a-file that no silver turn stops.
/// Gold's depth-6 search with the goal-defence extension proves the loss at silver's turn start
/// only if the walk finishes within its budget: the walk restricted by refutations does within
/// 5,000 nodes (the turn start's threat region alone needed 20,000), and within 2,000 neither
/// does, so the search then scores the position without the win.
#[test]
fn the_refuting_walk_proves_a_goal_set_up_for_next_turn_within_its_budget() {
    let g = game("g [            dc  rE    r R      r   d  h  m  R H   e R R       RR]");
    for (budget, wins) in [(5_000, true), (2_000, false)] {
        let params = tusk_search::params::Params {
            defence_extension: true,
            goal_defence_nodes: budget,
            ..Default::default()
        };
        let r = search_with_params(&g, 6, params);
        assert_legal(&g, &r);
        assert_eq!(
            matches!(r.score.kind(), ScoreKind::WinIn(_)),
            wins,
            "budget {budget}: {} scores {}",
            g.turn_text(&r.best),
            r.score
        );
    }
}
