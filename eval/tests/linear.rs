//! The evaluation is linear in its weights: on thousands of positions (random games, the
//! generated goal and capture boards, the turn-count fixtures), both colours, with the shipped
//! weights and with random ones, the recorded features reproduce the evaluation:
//!
//! * their integer contributions add up to `evaluate` exactly;
//! * `Σ weight × feature` (reals), through the variance adjustment, is within the recorded
//!   rounding bound of it;
//! * a position and its colour-mirrored twin have the same features, colours exchanged;
//! * the lazy `evaluate_above` bound stays an upper bound, negative weights included.

mod common;

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use tusk_engine::{Color, Position};
use tusk_eval::{
    evaluate, evaluate_above, explain, features, id, Bounded, Kind, Weights, WIN_THRESHOLD,
};

/// Random weights within each parameter's range (shape parameters kept at their defaults,
/// except the caps, the variance adjustment and the capture credit's net share, which are
/// varied too), negative ones included.
fn random_weights(rng: &mut SmallRng) -> Weights {
    let mut w = Weights::default();
    for p in Weights::params() {
        let (g, _) = Weights::group_of(p);
        if g.kind == Kind::Linear {
            w[p] = rng.gen_range(-300..=300);
        }
    }
    w[id::trap_control_cap] = rng.gen_range(1..=400);
    w[id::piece_value_cap] = rng.gen_range(1..=3000);
    w[id::variance_pct] = rng.gen_range(0..=100);
    w[id::variance_scale] = rng.gen_range(100..=1000);
    w[id::capture_now_net_pct] = rng.gen_range(0..=100);
    w
}

fn positions() -> Vec<Position> {
    let mut v = common::all_positions(500);
    v.extend(tusk_tests::fixture_positions());
    v
}

fn check(pos: &Position, w: &Weights, what: &str) -> (f64, f64) {
    let score = evaluate(pos, w);
    let f = features(pos, w);
    assert_eq!(f.score(), score, "{what}: contributions {pos:?}");
    assert_eq!(explain(pos, w).score(), score, "{what}: {pos:?}");
    if f.goal.is_some() {
        return (0.0, 0.0);
    }
    let linear = f.model_score(w);
    let clamp = f64::from(WIN_THRESHOLD - 1);
    if score.abs() == WIN_THRESHOLD - 1 {
        // A judgement kept below the win scores.
        assert!(linear * f64::from(score.signum()) >= clamp - f.rounding_bound);
    } else {
        assert!(
            (linear - f64::from(score)).abs() <= f.rounding_bound + 1e-6,
            "{what}: model {linear}, score {score}, rounding bound {}: {pos:?}",
            f.rounding_bound
        );
    }
    // Shape parameters have no features.
    for p in Weights::params() {
        if !Weights::is_linear(p) {
            assert_eq!(f.values[p.index()], [0.0, 0.0], "{}", Weights::name(p));
        }
    }
    // The mirrored twin: the same features, colours exchanged (summed in another square
    // order, so equal up to floating-point rounding), the same contributions exactly.
    let twin = features(&pos.flip(), w);
    for p in Weights::params() {
        let [g, s] = f.values[p.index()];
        let [tg, ts] = twin.values[p.index()];
        assert!(
            (tg - s).abs() < 1e-9 && (ts - g).abs() < 1e-9,
            "{what}: {} {:?} vs {:?}: {pos:?}",
            Weights::name(p),
            [g, s],
            [tg, ts]
        );
        let [cg, cs] = f.contributions[p.index()];
        assert_eq!(twin.contributions[p.index()], [cs, cg], "{what}: {pos:?}");
    }
    assert_eq!(
        twin.score(),
        score,
        "{what}: the mirrored twin's score: {pos:?}"
    );
    let (points, twin_points) = (f.variance.points, twin.variance.points);
    assert_eq!(
        twin_points[Color::Gold],
        points[Color::Silver],
        "{what}: {pos:?}"
    );
    assert_eq!(
        twin_points[Color::Silver],
        points[Color::Gold],
        "{what}: {pos:?}"
    );
    (f.rounding_bound, (linear - f64::from(score)).abs())
}

#[test]
fn features_times_weights_is_the_evaluation_on_thousands_of_positions() {
    let shipped = Weights::default();
    let mut rng = SmallRng::seed_from_u64(20);
    let randoms: Vec<Weights> = (0..3).map(|_| random_weights(&mut rng)).collect();
    let positions = positions();
    let (mut bound_sum, mut checked, mut with_features) = (0.0, 0usize, 0usize);
    let (mut diff_sum, mut diff_max) = (0.0f64, 0.0f64);
    for (i, p) in positions.iter().enumerate() {
        let (bound, diff) = check(p, &shipped, &format!("#{i} shipped"));
        bound_sum += bound;
        diff_sum += diff;
        diff_max = diff_max.max(diff);
        let w = &randoms[i % randoms.len()];
        check(p, w, &format!("#{i} random"));
        checked += 2;
        with_features += usize::from(features(p, &shipped).goal.is_none());
    }
    assert!(checked >= 2 * 5000, "{checked}");
    let mean_bound = bound_sum / with_features as f64;
    eprintln!(
        "{checked} checks on {} positions ({with_features} without a goal this turn); \
         with the shipped weights: mean rounding bound {mean_bound:.2} centirabbits, \
         |Σ w·f - score| mean {:.2}, max {diff_max:.2}",
        positions.len(),
        diff_sum / with_features as f64
    );
}

#[test]
fn the_features_of_the_side_to_move_and_its_opponent_make_the_score() {
    // One position by hand: the difference view used by the tuner.
    let w = Weights::default();
    for p in common::random_game_positions(200, 9) {
        let f = features(&p, &w);
        if f.goal.is_some() {
            continue;
        }
        let us = p.side();
        let by_difference: f64 = Weights::params()
            .map(|q| f64::from(w[q]) * f.difference(q, us))
            .sum();
        assert_eq!(by_difference, f.linear_score(&w));
        assert_eq!(
            f.difference(id::trap_home, us),
            -f.difference(id::trap_home, !us)
        );
        assert!(matches!(us, Color::Gold | Color::Silver));
    }
}

#[test]
fn the_lazy_bound_is_an_upper_bound_for_any_weights() {
    let mut rng = SmallRng::seed_from_u64(21);
    let positions = common::all_positions(150);
    let mut bounded = 0;
    for k in 0..4 {
        let mut w = random_weights(&mut rng);
        if k % 2 == 0 {
            // The weights the bound used to rely on, made negative.
            w[id::goal_threat] = -rng.gen_range(1..=500);
            w[id::goal_threat_late.at(rng.gen_range(0..4))] = -rng.gen_range(1..=500);
            w[id::capture_threat_pct] = -rng.gen_range(1..=200);
            w[id::capture_threat_late_pct.at(rng.gen_range(0..4))] = -rng.gen_range(1..=200);
        }
        for p in &positions {
            let exact = evaluate(p, &w);
            for floor in [exact - 300, exact - 1, exact, exact + 1, exact + 300] {
                match evaluate_above(&mut p.clone(), &w, floor) {
                    Bounded::Exact(e) => assert_eq!(e, exact, "{p:?}"),
                    Bounded::AtMost(u) => {
                        bounded += 1;
                        assert!(u >= exact && u <= floor, "{u} {exact} {floor}: {p:?}")
                    }
                }
            }
        }
    }
    assert!(bounded > 100, "the bound was used {bounded} times");
}

#[test]
fn each_weight_group_alone_keeps_the_evaluation_linear() {
    // The scorer skips work no weight reads (the smooth trap control when the terms that
    // read it are all 0): switching on one group at a time, with every other weight as
    // shipped, catches a term whose input the scorer skipped.
    let mut rng = SmallRng::seed_from_u64(22);
    let positions = common::all_positions(40);
    let mut groups: Vec<&str> = Vec::new();
    for p in Weights::params() {
        let (g, _) = Weights::group_of(p);
        if g.kind == Kind::Linear && !groups.contains(&g.name) {
            groups.push(g.name);
        }
    }
    assert!(groups.len() >= 20, "{groups:?}");
    for name in groups {
        let mut w = Weights::default();
        for p in Weights::params() {
            if Weights::group_of(p).0.name == name {
                w[p] = rng.gen_range(1..=300);
            }
        }
        for (i, p) in positions.iter().enumerate() {
            check(p, &w, &format!("{name} alone, #{i}"));
        }
    }
}
