//! Step generation, make/undo and distinct-turn enumeration.
#![allow(missing_docs)] // criterion_group! generates undocumented items

use criterion::{black_box, criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use tusk_benches::{fixture_positions, position, MIDGAME, START};
use tusk_engine::perft::step_perft;
use tusk_engine::{StepList, TurnGen};

fn step_generation(c: &mut Criterion) {
    let mut g = c.benchmark_group("legal_steps");
    for (name, text) in [("start", START), ("midgame", MIDGAME)] {
        let p = position(text);
        let mut list = StepList::new();
        g.bench_function(name, |b| {
            b.iter(|| {
                black_box(&p).legal_steps(&mut list);
                black_box(list.len())
            })
        });
    }
    g.finish();
}

fn make_undo(c: &mut Criterion) {
    let p = position(MIDGAME);
    let mut list = StepList::new();
    p.legal_steps(&mut list);
    let mut g = c.benchmark_group("make_undo");
    g.throughput(Throughput::Elements(list.len() as u64));
    g.bench_function("midgame_all_steps", |b| {
        let mut q = p.clone();
        b.iter(|| {
            for &s in list.iter() {
                let u = q.play_step_unchecked(s);
                black_box(q.hash());
                q.undo_step(s, u);
            }
        })
    });
    g.finish();
}

fn step_perft_bench(c: &mut Criterion) {
    let p = position(MIDGAME);
    let mut q = p.clone();
    let made = step_perft(&mut q, 3).1;
    let mut g = c.benchmark_group("step_perft");
    g.throughput(Throughput::Elements(made));
    g.sample_size(20);
    g.bench_function("midgame_3_steps", |b| b.iter(|| step_perft(&mut q, 3)));
    g.finish();
}

fn distinct_turns(c: &mut Criterion) {
    let positions = fixture_positions(200);
    let mut g = c.benchmark_group("distinct_turns");
    g.sample_size(10);
    g.throughput(Throughput::Elements(positions.len() as u64));
    g.bench_function("fixtures_200", |b| {
        let mut gen = TurnGen::new();
        b.iter_batched(
            || (),
            |_| positions.iter().map(|p| gen.count(p)).sum::<usize>(),
            BatchSize::SmallInput,
        )
    });
    let start = position(START);
    g.throughput(Throughput::Elements(1));
    g.bench_function("start", |b| {
        let mut gen = TurnGen::new();
        b.iter(|| gen.count(&start))
    });
    g.finish();
}

criterion_group!(
    benches,
    step_generation,
    make_undo,
    step_perft_bench,
    distinct_turns
);
criterion_main!(benches);
