//! The quiescence search's stand-pat score (`stand_pat_above`): equal to the evaluation
//! except in an exchange (the side to move can capture this turn and the opponent threatens a
//! piece of at least the same value next turn), where it is the evaluation without the side to
//! move's capture-now contribution; exact colour symmetry. The other rules of
//! `stand_pat_above_by`: `Counted` is the evaluation everywhere, `TurnStart` leaves the
//! capture out at every turn start too.

mod common;

use tusk_engine::notation::board::parse_aei;
use tusk_engine::{Color, PieceKind, Position};
use tusk_eval::captures::best_capture;
use tusk_eval::{
    evaluate, features, id, stand_pat_above, stand_pat_above_by, Bounded, CaptureRule,
    Centirabbits, NextTurnThreat, Weights,
};

/// The stand-pat score of `pos` with no floor (always exact).
fn stand_pat(pos: &Position, w: &Weights) -> (Centirabbits, bool) {
    let s = stand_pat_above(&mut pos.clone(), w, Centirabbits::MIN);
    match s.score {
        Bounded::Exact(v) => (v, s.exchange),
        Bounded::AtMost(_) => panic!("a bound with no floor: {pos:?}"),
    }
}

/// What the stand-pat score should be from the evaluation's own features: the evaluation, or
/// in an exchange the evaluation with the side to move's capture-now contribution removed.
fn expected(pos: &Position, w: &Weights, exchange: bool) -> Centirabbits {
    let mut f = features(pos, w);
    if exchange {
        f.contributions[id::capture_now_pct.index()][pos.side().index()] = 0;
    }
    f.score()
}

/// Whether `pos` is an exchange by the definition: a capture for the side to move, and an
/// opponent's capture threat on a piece worth at least as much.
fn is_exchange(pos: &Position, w: &Weights) -> bool {
    if tusk_eval::goal::goal_in(pos).is_some() {
        return false;
    }
    let (Some(capture), Some(threat)) = (
        best_capture(pos),
        NextTurnThreat::of_mut(&mut pos.clone()).capture,
    ) else {
        return false;
    };
    let values = tusk_eval::Context::new(pos, w).values;
    let us = pos.side();
    values[us][threat.index()] >= values[!us][capture.index()]
}

#[test]
fn stand_pat_is_the_evaluation_but_in_an_exchange() {
    let w = Weights::default();
    let positions = common::all_positions(1_500);
    let mut exchanges = 0;
    for (i, p) in positions.iter().enumerate() {
        let (score, exchange) = stand_pat(p, &w);
        assert_eq!(exchange, is_exchange(p, &w), "#{i} {p:?}");
        assert_eq!(score, expected(p, &w, exchange), "#{i} {p:?}");
        if exchange {
            exchanges += 1;
            assert!(score < evaluate(p, &w), "#{i} {p:?}");
        } else {
            assert_eq!(score, evaluate(p, &w), "#{i} {p:?}");
        }
        let twin = p.flip();
        assert_eq!(stand_pat(&twin, &w), (score, exchange), "#{i} twin {p:?}");
    }
    eprintln!("{exchanges} exchanges in {} positions", positions.len());
    assert!(exchanges >= 20, "only {exchanges} exchanges to check");
}

/// A lazy stand-pat bound is a bound of the exact score and never claims an exchange.
#[test]
fn a_bounded_stand_pat_is_an_upper_bound() {
    let w = Weights::default();
    for p in common::all_positions(400) {
        let (exact, _) = stand_pat(&p, &w);
        for floor in [exact - 200, exact - 1, exact, exact + 50] {
            let s = stand_pat_above(&mut p.clone(), &w, floor);
            match s.score {
                Bounded::Exact(v) => assert_eq!(v, exact, "{p:?}"),
                Bounded::AtMost(u) => {
                    assert!(u >= exact && u <= floor, "{p:?}: {u} {exact} {floor}");
                    assert!(!s.exchange, "{p:?}");
                }
            }
        }
    }
}

/// Round 8's ladder game 8 at 6g, after sharp pushed gold's camel to d7: gold can take a
/// horse, silver can take gold's horse on c5. The evaluation counts both (the capture at 70 %,
/// the threat at 15 %); standing pat may count only the defence.
#[test]
fn the_ladder_position_is_an_exchange() {
    let p =
        parse_aei("g [rrrrrrrrd cM c d h em     H          Eh       H D C  CD RRRRRRRR]").unwrap();
    let w = Weights::default();
    assert_eq!(best_capture(&p), Some(PieceKind::Horse));
    assert_eq!(
        NextTurnThreat::of_mut(&mut p.clone()).capture,
        Some(PieceKind::Horse)
    );
    let (score, exchange) = stand_pat(&p, &w);
    assert!(exchange);
    let values = tusk_eval::Context::new(&p, &w).values;
    let horse = values[Color::Silver][PieceKind::Horse.index()];
    let capture = w[id::capture_now_pct] * horse / 100;
    assert_eq!(score, evaluate(&p, &w) - capture);
    eprintln!("evaluation {}, stand pat {score}", evaluate(&p, &w));
    assert!(score < 0, "{score}");
}

/// `CaptureRule::Counted` is the evaluation; `CaptureRule::TurnStart` leaves the side to
/// move's capture out wherever it has one at a turn start, and mid-turn exactly where the
/// exchange rule does; both with exact colour symmetry.
#[test]
fn the_turn_start_rule_leaves_every_capture_at_a_turn_start_out() {
    let w = Weights::default();
    let exact = |p: &Position, rule| {
        let s = stand_pat_above_by(&mut p.clone(), &w, Centirabbits::MIN, rule);
        match s.score {
            Bounded::Exact(v) => (v, s.exchange),
            Bounded::AtMost(_) => panic!("a bound with no floor: {p:?}"),
        }
    };
    let (mut at_start, mut beyond_exchange) = (0, 0);
    for (i, p) in common::all_positions(1_500).iter().enumerate() {
        assert_eq!(
            exact(p, CaptureRule::Counted),
            (evaluate(p, &w), false),
            "#{i}"
        );
        let (score, out) = exact(p, CaptureRule::TurnStart);
        let capture = tusk_eval::goal::goal_in(p).is_none() && best_capture(p).is_some();
        let want = if p.at_turn_start() {
            capture
        } else {
            is_exchange(p, &w)
        };
        assert_eq!(out, want, "#{i} {p:?}");
        assert_eq!(score, expected(p, &w, out), "#{i} {p:?}");
        assert_eq!(
            exact(&p.flip(), CaptureRule::TurnStart),
            (score, out),
            "#{i} twin"
        );
        if out && p.at_turn_start() {
            at_start += 1;
            beyond_exchange += usize::from(!is_exchange(p, &w));
        }
    }
    eprintln!("{at_start} captures left out at turn starts, {beyond_exchange} beyond exchanges");
    assert!(
        beyond_exchange >= 20,
        "only {beyond_exchange} positions to tell the rules apart"
    );
}
