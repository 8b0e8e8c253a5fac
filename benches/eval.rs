//! Criterion benchmarks of the evaluation: `evaluate` on mid-game positions, and the exact
//! static goal and capture detectors on their own.

// criterion_group! and criterion_main! generate undocumented items.
#![allow(missing_docs)]

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use tusk_engine::notation::board::parse_aei;
use tusk_engine::setup::default_setup;
use tusk_engine::{Color, Position, StepList};
use tusk_eval::captures::{best_capture, capturable_kinds};
use tusk_eval::goal::goal_in;
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

/// A position after `turns` seeded random turns from two default setups.
fn played(turns: usize, seed: u64) -> Position {
    let mut pos = Position::empty(Color::Gold);
    let mut list = Vec::new();
    for c in Color::ALL {
        for pl in default_setup(c, seed, None).placements() {
            list.push((pl.piece, pl.square));
        }
    }
    pos = tusk_engine::notation::board::from_pieces(pos.side(), &list).expect("setup");
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut steps = StepList::new();
    let mut done = 0;
    while done < turns {
        let mut p = pos.clone();
        let want = rng.gen_range(1..=4u8);
        for _ in 0..want {
            p.legal_steps(&mut steps);
            if steps.is_empty() {
                break;
            }
            p.play_step_unchecked(steps[rng.gen_range(0..steps.len())]);
        }
        if p.can_end_turn() && !p.rabbit_on_goal(Color::Gold) && !p.rabbit_on_goal(Color::Silver) {
            p.end_turn();
            pos = p;
            done += 1;
        }
    }
    pos
}

fn positions() -> Vec<(String, Position)> {
    let mut v: Vec<(String, Position)> = MIDGAME
        .iter()
        .map(|(name, text)| (name.to_string(), parse_aei(text).expect("bench position")))
        .collect();
    v.push(("random-30".into(), played(30, 11)));
    v
}

/// The turn-count fixture positions (random legal games), if the fixture file is present.
fn fixture_positions() -> Vec<Position> {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data/turn_counts.txt");
    let Ok(text) = std::fs::read_to_string(path) else {
        return Vec::new();
    };
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .filter_map(|l| l.find(']').map(|close| &l[..=close]))
        .filter_map(|b| parse_aei(b).ok())
        .collect()
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
    let fixtures = fixture_positions();
    if !fixtures.is_empty() {
        distribution("evaluate", &fixtures, 200, &|p| {
            black_box(evaluate(p, &w));
        });
        distribution("goal_in", &fixtures, 200, &|p| {
            black_box(goal_in(p));
        });
        distribution("best_capture", &fixtures, 200, &|p| {
            black_box(best_capture(p));
        });
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
