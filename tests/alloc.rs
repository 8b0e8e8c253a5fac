//! Hot paths allocate nothing: step generation, make/undo, turn end, hashing, evaluation.
//!
//! A counting global allocator wraps the system one for this test binary only. It counts per
//! thread, so that what the test harness allocates on its own threads (spawning the next
//! test, collecting output) never lands in a measured window.
#![allow(unsafe_code)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use tusk_engine::StepList;
use tusk_tests::random_game;

struct Counting;

thread_local! {
    /// Allocations made by this thread (const-initialised, no destructor: using it never
    /// allocates).
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
}

/// Allocations made so far by the calling thread.
fn allocations() -> usize {
    ALLOCATIONS.with(Cell::get)
}

// SAFETY: every call is forwarded unchanged to the system allocator, which upholds the
// GlobalAlloc contract; the only addition is a thread-local counter increment (skipped while
// the thread's locals are being torn down).
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let _ = ALLOCATIONS.try_with(|c| c.set(c.get() + 1));
        // SAFETY: same layout the caller gave us, per the GlobalAlloc contract.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: ptr was allocated by System.alloc with this layout.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

#[test]
fn step_generation_and_make_undo_do_not_allocate() {
    let positions: Vec<_> = (0..25).flat_map(|s| random_game(s, 40)).collect();
    let mut list = StepList::new();
    let mut work = positions.clone();
    let before = allocations();
    let mut made = 0u64;
    for p in work.iter_mut() {
        p.legal_steps(&mut list);
        for &s in list.iter() {
            let u = p.play_step_unchecked(s);
            made += u64::from(p.hash() != 0);
            let _ = p.frozen(p.side());
            p.undo_step(s, u);
        }
        if !list.is_empty() {
            let u = p.play_step_unchecked(list[0]);
            if p.can_end_turn() {
                let t = p.end_turn();
                p.undo_end_turn(t);
            }
            p.undo_step(list[0], u);
        }
    }
    let after = allocations();
    assert!(made > 10_000, "only {made} steps made");
    assert_eq!(
        after - before,
        0,
        "hot path allocated {} times",
        after - before
    );
    assert_eq!(work, positions);
}

#[test]
fn evaluation_does_not_allocate() {
    use tusk_eval::{evaluate, explain, Weights};
    let positions: Vec<_> = (0..25).flat_map(|s| random_game(s, 40)).collect();
    // The shipped weights, sharp's priors, which switch on the smooth trap control, and
    // every linear weight made non-zero and the variance adjustment on, so that every term
    // runs (those that ship at 0 too).
    let mut every_term = Weights::default().with_sharp_priors();
    for p in Weights::params() {
        if Weights::is_linear(p) && every_term[p] == 0 {
            every_term[p] = 1;
        }
    }
    every_term[tusk_eval::id::variance_pct] = 31;
    let weights = [
        Weights::default(),
        Weights::default().with_sharp_priors(),
        every_term,
    ];
    let before = allocations();
    let mut sum = 0i64;
    for (p, w) in positions
        .iter()
        .flat_map(|p| weights.iter().map(move |w| (p, w)))
    {
        sum += i64::from(evaluate(p, w));
        sum += i64::from(explain(p, w).score());
        sum += i64::from(tusk_eval::goal::goal_in(p).unwrap_or(0));
        sum += tusk_eval::captures::best_capture(p).map_or(0, |k| k.index() as i64);
        let mut q = p.clone();
        sum += i64::from(tusk_eval::evaluate_mut(&mut q, w));
        sum += i64::from(tusk_eval::features(p, w).score());
        let above = tusk_eval::evaluate_above(&mut q, w, 0).score();
        sum += i64::from(above);
    }
    let after = allocations();
    assert!(positions.len() > 500, "only {} positions", positions.len());
    assert_eq!(
        after - before,
        0,
        "evaluation allocated {} times (sum {sum})",
        after - before
    );
}
