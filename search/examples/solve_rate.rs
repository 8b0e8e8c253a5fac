//! Prints the searcher's solve rate on each tactical test set (`search/tests/data`) at the
//! depths given in steps (default 4 and 8), one fresh single-threaded searcher per position,
//! with the positions missed. Deterministic for a deterministic searcher.
//!
//! ```sh
//! cargo run --release -p tusk-search --example solve_rate [-- DEPTH...]
//! ```

#[path = "../tests/support/tactics.rs"]
mod tactics;

fn main() {
    let mut depths: Vec<u32> = std::env::args()
        .skip(1)
        .map(|a| a.parse().expect("a depth in steps"))
        .collect();
    if depths.is_empty() {
        depths = vec![4, 8];
    }
    for depth in depths {
        for name in tactics::SETS {
            let start = std::time::Instant::now();
            let (solved, total, missed) = tactics::solve_rate(name, depth);
            println!(
                "depth {depth:>2}  {name:<18} solved {solved:>3} of {total:>3} ({:5.1}%)  {:.1}s",
                100.0 * solved as f64 / total.max(1) as f64,
                start.elapsed().as_secs_f64()
            );
            for m in missed.iter().take(5) {
                println!("    missed {m}");
            }
        }
    }
}
