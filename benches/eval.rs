//! Criterion benchmarks of the evaluation: `evaluate` on mid-game positions, and the exact
//! static goal and capture detectors on their own (the goal detector also as the evaluation
//! asks it, for the opponent's next turn).

// criterion_group! and criterion_main! generate undocumented items.
#![allow(missing_docs)]

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use rand::rngs::SmallRng;
use rand::SeedableRng;
use tusk_engine::notation::board::parse_aei;
use tusk_engine::setup::default_setup;
use tusk_engine::{Color, Position};
use tusk_eval::captures::{best_capture, capturable_kinds};
use tusk_eval::goal::{can_goal_within, goal_in};
use tusk_eval::threat::GOAL_THREAT_NODES;
use tusk_eval::{evaluate, explain, Weights};

/// Hand-set mid-game positions (AEI `<side> [64 cells]`, rank 8 first).
const MIDGAME: [(&str, &str); 4] = [
    (
        "quiet",
        "g [rrr  rrrrhcdmchr   ed                       E D RHCM CHRRRR  RRR]",
    ),
    (
        "crowded",
        "g [rr  d rrrhc  chr  d m      e  r   R  r    D   E RH CMCHRRRR D RR]",
    ),
    (
        "seed-diagram",
        "s [       rrRc  dr Dd H       e      r  r   DrER R   hr h    CCRRRR]",
    ),
    (
        "open",
        "g [rr    rrr c  d r  h        e m    E  H          R  MD  RRRC  RRR]",
    ),
];

/// A position after `turns` seeded random turns (the shared random-turn generator of the
/// test support) from two default setups.
fn played(turns: usize, seed: u64) -> Position {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut game = tusk_tests::game_from_setups(
        default_setup(Color::Gold, seed, &Position::empty(Color::Gold)),
        default_setup(Color::Silver, seed, &Position::empty(Color::Silver)),
    );
    tusk_tests::play_random_turns(&mut game, &mut rng, turns);
    game.position().clone()
}

fn positions() -> Vec<(String, Position)> {
    let mut v: Vec<(String, Position)> = MIDGAME
        .iter()
        .map(|(name, text)| (name.to_string(), parse_aei(text).expect("bench position")))
        .collect();
    v.push(("random-30".into(), played(30, 11)));
    v
}

/// Per-position mean time of `f` over `positions` (each timed over `reps` calls), printed as
/// median, 90th percentile and maximum.
fn distribution(name: &str, positions: &[Position], reps: u32, f: &dyn Fn(&Position)) {
    let mut times: Vec<f64> = positions
        .iter()
        .map(|p| {
            let start = std::time::Instant::now();
            for _ in 0..reps {
                f(black_box(p));
            }
            start.elapsed().as_nanos() as f64 / f64::from(reps)
        })
        .collect();
    times.sort_by(f64::total_cmp);
    let at = |q: f64| times[((times.len() - 1) as f64 * q) as usize];
    eprintln!(
        "{name} over {} fixture positions: median {:.0} ns, p90 {:.0} ns, max {:.0} ns",
        times.len(),
        at(0.5),
        at(0.9),
        at(1.0)
    );
}

fn bench(c: &mut Criterion) {
    let w = Weights::default();
    let positions = positions();
    for (name, pos) in &positions {
        eprintln!("{name}: {pos:?}\n{}", explain(pos, &w));
        c.bench_function(&format!("evaluate/{name}"), |b| {
            b.iter(|| evaluate(black_box(pos), &w))
        });
    }
    let fixtures = tusk_tests::fixture_positions();
    {
        distribution("evaluate", &fixtures, 200, &|p| {
            black_box(evaluate(p, &w));
        });
        // Another weights file against the shipped set, alternated in one run (what a term
        // that ships at 0 costs once weighted): `TUSK_BENCH_WEIGHTS=FILE cargo bench --bench
        // eval -- evaluate/all`.
        if let Ok(file) = std::env::var("TUSK_BENCH_WEIGHTS") {
            let text = std::fs::read_to_string(&file).expect("TUSK_BENCH_WEIGHTS: readable file");
            let other = tusk_eval::weights_file::parse(&text, &w)
                .expect("TUSK_BENCH_WEIGHTS: a weights file")
                .weights;
            for _ in 0..2 {
                distribution(&format!("evaluate ({file})"), &fixtures, 200, &|p| {
                    black_box(evaluate(p, &other));
                });
                distribution("evaluate (shipped)", &fixtures, 200, &|p| {
                    black_box(evaluate(p, &w));
                });
            }
        }
        distribution("goal_in", &fixtures, 200, &|p| {
            black_box(goal_in(p));
        });
        distribution("best_capture", &fixtures, 200, &|p| {
            black_box(best_capture(p));
        });
        // The evaluation's goal-threat question: could the other side goal next turn (each
        // fixture with its turn ended), within the evaluation's node budget.
        let ended: Vec<Position> = fixtures
            .iter()
            .map(|p| {
                let mut q = p.clone();
                q.end_turn();
                q
            })
            .collect();
        distribution("can_goal_within (turn ended)", &ended, 200, &|p| {
            black_box(can_goal_within(&mut p.clone(), GOAL_THREAT_NODES));
        });
        c.bench_function(
            &format!("can_goal_within/all-{}-fixtures", ended.len()),
            |b| {
                b.iter(|| {
                    for p in &ended {
                        black_box(can_goal_within(
                            &mut black_box(p).clone(),
                            GOAL_THREAT_NODES,
                        ));
                    }
                })
            },
        );
        c.bench_function(&format!("evaluate/all-{}-fixtures", fixtures.len()), |b| {
            b.iter(|| {
                for p in &fixtures {
                    black_box(evaluate(black_box(p), &w));
                }
            })
        });
    }
    for (name, pos) in &positions {
        c.bench_function(&format!("goal_in/{name}"), |b| {
            b.iter(|| goal_in(black_box(pos)))
        });
        c.bench_function(&format!("best_capture/{name}"), |b| {
            b.iter(|| best_capture(black_box(pos)))
        });
        c.bench_function(&format!("capturable_kinds/{name}"), |b| {
            b.iter(|| capturable_kinds(black_box(pos)))
        });
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
