//! Prints the searcher's solve rate on each tactical test set (`search/tests/data`) at the
//! depths given in steps (default 4 and 8) and at the node budgets given with `--nodes`, one
//! fresh single-threaded searcher per position, with the positions missed. Deterministic for
//! a deterministic searcher.
//!
//! ```sh
//! cargo run --release -p tusk-search --example solve_rate [-- [--without LIST] [--with LIST] [--param NAME=VALUE,...] [--weights FILE] [--set NAME]... [--nodes N]... [--all-missed] DEPTH...]
//! ```
//!
//! `--nodes 200000` (repeatable) searches each position within that many nodes instead of to
//! a depth: what a change to pruning or ordering is worth at the effort of a match (a
//! fixed-depth rate cannot see a change that reaches the same depth in fewer nodes).
//! `--without tt,lmr,...` switches search features off and `--with capmoves,...` on (the names
//! of `tusk bench --without`); `--param free_capture_pct=25,...` sets search tunables (those of
//! `tusk bench --param`); `--weights FILE` evaluates with a weights file (names it leaves
//! out keep the shipped values) instead of the shipped set; `--set decisive_defence.txt`
//! (repeatable) runs only the sets named, and `--set PATH` a file of the same format that is
//! not a test set (such as `data/capture_defence_games_let_go.txt`). The first five positions
//! missed are listed, every one with `--all-missed`.

use tusk_search::Limits;

#[path = "../tests/support/tactics.rs"]
mod tactics;

fn main() {
    let mut params = tusk_search::Params::default();
    let mut depths: Vec<u32> = Vec::new();
    let mut budgets: Vec<u64> = Vec::new();
    let mut sets: Vec<String> = Vec::new();
    let mut extra: Vec<String> = Vec::new();
    let mut show_missed = 5usize;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        if a == "--without" || a == "--with" {
            let on = a == "--with";
            let list = args
                .next()
                .expect("--without and --with take a list of features");
            let off = tusk_search::Feature::parse_list(&list).unwrap_or_else(|name| {
                panic!(
                    "unknown feature {name:?} (known: {})",
                    tusk_search::Feature::NAMES
                )
            });
            for f in off {
                params.set(f, on);
            }
        } else if a == "--all-missed" {
            show_missed = usize::MAX;
        } else if a == "--nodes" {
            let n = args.next().expect("--nodes takes a node count");
            budgets.push(n.parse().expect("--nodes takes a node count"));
        } else if a == "--param" {
            let list = args.next().expect("--param takes NAME=VALUE,...");
            let assignments =
                tusk_search::Tunable::parse_list(&list).unwrap_or_else(|e| panic!("{e}"));
            params.tune(&assignments);
        } else if a == "--weights" {
            let path = args.next().expect("--weights takes a file");
            let loaded = tusk_eval::weights_file::load(std::path::Path::new(&path))
                .unwrap_or_else(|e| panic!("{e}"));
            params.weights = loaded.weights;
        } else if a == "--set" {
            let name = args.next().expect("--set takes a set's file name");
            if tactics::SETS.contains(&name.as_str()) {
                sets.push(name);
            } else {
                // A file of the same format elsewhere (a screen, not a test set).
                let path = std::fs::canonicalize(&name).unwrap_or_else(|_| {
                    panic!(
                        "{name:?} is neither a set (known: {}) nor a readable file",
                        tactics::SETS.join(", ")
                    )
                });
                extra.push(path.to_string_lossy().into_owned());
            }
        } else {
            depths.push(a.parse().expect("a depth in steps"));
        }
    }
    if depths.is_empty() && budgets.is_empty() {
        depths = vec![4, 8];
    }
    // Files named by path alone run without the test sets.
    let only_extra = sets.is_empty() && !extra.is_empty();
    let by_depth = depths.iter().map(|&d| {
        let limits = Limits {
            depth: Some(d),
            ..Limits::default()
        };
        (format!("depth {d:>2}"), limits)
    });
    let by_nodes = budgets.iter().map(|&n| {
        let limits = Limits {
            nodes: Some(n),
            ..Limits::default()
        };
        (format!("nodes {n}"), limits)
    });
    for (effort, limits) in by_depth.chain(by_nodes) {
        let chosen = tactics::SETS
            .iter()
            .filter(|name| !only_extra && (sets.is_empty() || sets.iter().any(|s| s == *name)))
            .map(|s| s.to_string());
        for name in chosen.chain(extra.iter().cloned()) {
            let name = name.as_str();
            let start = std::time::Instant::now();
            let (solved, total, missed) = tactics::solve_rate_within(name, &limits, &params);
            println!(
                "{effort}  {name:<18} solved {solved:>3} of {total:>3} ({:5.1}%)  {:.1}s",
                100.0 * solved as f64 / total.max(1) as f64,
                start.elapsed().as_secs_f64()
            );
            for m in missed.iter().take(show_missed) {
                println!("    missed {m}");
            }
        }
    }
}
