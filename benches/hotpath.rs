//! The rules and evaluation calls the searcher makes in every node: `has_legal_step`,
//! `is_legal_step` and `evaluate` (the in-place form, which copies nothing). Issue 7 asked for
//! their before/after; the README quotes both runs.
#![allow(missing_docs)] // criterion_group! generates undocumented items

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use tusk_benches::{position, MIDGAME, START};
use tusk_engine::{Direction, Square, Step};

/// A quiet middle game (also in the eval benchmarks).
const QUIET: &str = "g [rrr  rrrrhcdmchr   ed                       E D RHCM CHRRRR  RRR]";

/// Every (square, direction) pair that stays on the board: what a checker is asked about.
fn all_candidates() -> Vec<Step> {
    Square::all()
        .flat_map(|sq| {
            Direction::ALL
                .into_iter()
                .filter_map(move |d| Step::try_new(sq, d))
        })
        .collect()
}

fn has_legal_step(c: &mut Criterion) {
    let mut g = c.benchmark_group("has_legal_step");
    for (name, text) in [("start", START), ("midgame", MIDGAME)] {
        let p = position(text);
        g.bench_function(name, |b| b.iter(|| black_box(&p).has_legal_step()));
    }
    g.finish();
}

fn is_legal_step(c: &mut Criterion) {
    let mut g = c.benchmark_group("is_legal_step");
    let candidates = all_candidates();
    for (name, text) in [("start", START), ("midgame", MIDGAME)] {
        let p = position(text);
        g.throughput(criterion::Throughput::Elements(candidates.len() as u64));
        g.bench_function(format!("{name}_all_224_candidates"), |b| {
            b.iter(|| {
                candidates
                    .iter()
                    .filter(|&&s| black_box(&p).is_legal_step(s))
                    .count()
            })
        });
    }
    g.finish();
}

fn evaluate(c: &mut Criterion) {
    let w = tusk_eval::Weights::default();
    let mut g = c.benchmark_group("evaluate_hot");
    for (name, text) in [("quiet", QUIET), ("midgame", MIDGAME)] {
        let p = position(text);
        g.bench_function(name, |b| b.iter(|| tusk_eval::evaluate(black_box(&p), &w)));
        let mut q = p.clone();
        g.bench_function(format!("{name}_in_place"), |b| {
            b.iter(|| tusk_eval::evaluate_mut(black_box(&mut q), &w))
        });
    }
    g.finish();
}

criterion_group!(benches, has_legal_step, is_legal_step, evaluate);
criterion_main!(benches);
