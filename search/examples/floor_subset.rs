//! The largest part of a fitted weights file that keeps every tactics floor: starting from
//! the base set (the shipped one by default), each group of parameters the fitted file
//! changes (`trap_curve`, `capture_risk_away`, `hostage_value_pct`, ...) is taken from it in
//! turn, and kept where the searcher at depth 4 still solves what the tests ask of every set
//! (`tactics::FLOORS`: all of the goal, goal-defence, capture and decisive sets, the floors
//! of the others). A fit of `tusk tune` that misses a floor is not played; this finds what of
//! it can be.
//!
//! ```sh
//! cargo run --release -p tusk-search --example floor_subset -- FITTED.json \
//!     [--base FILE] [--groups NAME,...] [--out FILE]
//! ```
//!
//! Groups are tried in the order of the weights file, or in the order `--groups` gives (only
//! those). Each check stops at its first set that falls below its floor, cheapest sets first,
//! so a refused group costs seconds; a kept one costs a full run (about a minute on one
//! core). Greedy: a group refused after others were kept may hold on its own. Prints one
//! line a group (kept, or the set that refused it) and writes the kept set with `--out`.

use std::path::Path;

use tusk_eval::Weights;
use tusk_search::{Limits, Params};

#[path = "../tests/support/tactics.rs"]
mod tactics;

/// The sets in the order they are checked: the quickest and the most often failed first.
const ORDER: [&str; 8] = [
    "capture.txt",
    "decisive.txt",
    "decisive_defence.txt",
    "goal_defence.txt",
    "capture_long.txt",
    "capture_defence.txt",
    "capture_defence_games.txt",
    "goal.txt",
];

/// The first set `weights` solves fewer positions of at depth 4 than its floor: its name,
/// its size and its floor (the check stops at the miss that puts the set below it). `None`
/// when every floor holds. `sets` holds each set's positions, loaded once.
fn first_failed_floor(
    weights: &Weights,
    sets: &[(&'static str, Vec<tactics::Tactic>)],
) -> Option<(&'static str, usize, usize)> {
    let params = Params {
        weights: weights.clone(),
        ..Params::default()
    };
    let limits = Limits {
        depth: Some(4),
        ..Limits::default()
    };
    for (name, set) in sets {
        let floor = tactics::floor(name);
        let allowed_misses = set.len().saturating_sub(floor);
        let mut missed = 0;
        for t in set {
            if !tactics::attempt_within(t, &limits, &params).solved {
                missed += 1;
                if missed > allowed_misses {
                    return Some((name, set.len(), floor));
                }
            }
        }
    }
    None
}

fn load_weights(path: &str) -> Weights {
    tusk_eval::weights_file::load(Path::new(path))
        .unwrap_or_else(|e| panic!("{e}"))
        .weights
}

fn main() {
    let mut fitted: Option<String> = None;
    let mut base = Weights::default();
    let mut order: Option<Vec<String>> = None;
    let mut out: Option<String> = None;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--base" => base = load_weights(&args.next().expect("--base takes a file")),
            "--groups" => {
                let list = args.next().expect("--groups takes NAME,...");
                order = Some(list.split(',').map(|s| s.trim().to_string()).collect());
            }
            "--out" => out = Some(args.next().expect("--out takes a file")),
            _ if fitted.is_none() => fitted = Some(a),
            _ => panic!("unexpected argument {a:?}"),
        }
    }
    let fitted = load_weights(&fitted.expect("the fitted weights file is required"));
    let differing: Vec<&str> = base
        .differing_groups(&fitted)
        .iter()
        .map(|g| g.name)
        .collect();
    let groups: Vec<String> = match order {
        Some(list) => {
            for name in &list {
                assert!(
                    differing.contains(&name.as_str()),
                    "--groups: {name} is not a group the fitted file changes (it changes: {})",
                    differing.join(", ")
                );
            }
            list
        }
        None => differing.iter().map(|s| s.to_string()).collect(),
    };
    let sets: Vec<(&'static str, Vec<tactics::Tactic>)> =
        ORDER.iter().map(|&n| (n, tactics::load(n))).collect();
    if let Some((name, size, floor)) = first_failed_floor(&base, &sets) {
        panic!(
            "the base set itself misses the floor of {name} (fewer than {floor} of {size} solved)"
        );
    }
    let mut kept = base.clone();
    let (mut n_kept, mut n_refused) = (0, 0);
    for name in &groups {
        let start = std::time::Instant::now();
        let trial = kept
            .with_group_from(name, &fitted)
            .expect("a group name from the weights");
        let verdict = match first_failed_floor(&trial, &sets) {
            None => {
                kept = trial;
                n_kept += 1;
                "kept".to_string()
            }
            Some((set, size, floor)) => {
                n_refused += 1;
                format!("refused by {set} (fewer than {floor} of {size} solved)")
            }
        };
        println!(
            "{name:<24} {verdict}  {:.1}s",
            start.elapsed().as_secs_f64()
        );
    }
    println!(
        "{n_kept} of {} groups kept, {n_refused} refused",
        groups.len()
    );
    if let Some(path) = out {
        std::fs::write(&path, tusk_eval::weights_file::to_json(&kept))
            .unwrap_or_else(|e| panic!("{path}: {e}"));
        println!("wrote {path}");
    }
}
