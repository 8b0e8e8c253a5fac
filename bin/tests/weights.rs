//! Weights files everywhere: `tusk eval --features` adds up to the evaluation, and
//! `--weights FILE` changes what `eval`, `bench`, `analyze` and the AEI option
//! `setoption name weights value FILE` play with; a bad file is refused with the line and key.

mod aei_harness;

use std::path::PathBuf;
use std::process::{Command, Output};

use aei_harness::{Engine, START};

/// A middle game with no goal for the side to move (bench position "middle game B").
const MIDGAME: &str = "s [ m   e      r  r           Rhhrrr      RRRR rrRC H  C H  D M D  ]";

/// Every weight of the evaluation at zero, as a weights file (shape parameters left out: they
/// keep the shipped values, and a warning says so).
fn zero_weights() -> String {
    let entries: Vec<String> = tusk_eval::Weights::params()
        .filter(|&p| tusk_eval::Weights::is_linear(p))
        .map(|p| format!("{:?}: 0", tusk_eval::Weights::name(p)))
        .collect();
    format!("{{{}}}", entries.join(",\n"))
}

fn tusk(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tusk"))
        .args(args)
        .output()
        .expect("tusk runs")
}

fn text(o: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// Writes `contents` to `name` in this test's scratch directory.
fn file(test: &str, name: &str, contents: &str) -> PathBuf {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("weights-{test}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, contents).unwrap();
    p
}

/// `tusk eval --features` of the middle game with the weights file `weights`: its output and
/// its warnings (it must succeed).
fn features_with(weights: &std::path::Path) -> (String, String) {
    let o = tusk(&[
        "eval",
        "--features",
        "--setposition",
        MIDGAME,
        "--weights",
        weights.to_str().unwrap(),
    ]);
    let (out, err) = text(&o);
    assert!(o.status.success(), "{err}");
    (out, err)
}

/// The numbers on the line of `tusk eval`'s output starting with `label`.
fn numbers(out: &str, label: &str) -> Vec<f64> {
    let line = out
        .lines()
        .find(|l| l.starts_with(label))
        .unwrap_or_else(|| panic!("no line {label}:\n{out}"));
    line[label.len()..]
        .split_whitespace()
        .map(|w| w.parse().unwrap())
        .collect()
}

#[test]
fn eval_features_list_every_weight_and_add_up_to_the_terms() {
    let o = tusk(&["eval", "--features", "--setposition", MIDGAME]);
    let (out, err) = text(&o);
    assert!(o.status.success(), "{err}");
    for name in [
        "material_pct",
        "trap_home",
        "rabbit_advance.6",
        "goal_threat",
        "elephant_blockade",
    ] {
        assert!(out.lines().any(|l| l.starts_with(name)), "{name}:\n{out}");
    }
    // Shape parameters have no feature line.
    assert!(!out.lines().any(|l| l.starts_with("trap_control_cap")));
    // The contribution column adds up to the total line, which is the terms' total.
    let start = out.lines().position(|l| l.starts_with("feature")).unwrap();
    let sum: f64 = out
        .lines()
        .skip(start + 1)
        .take_while(|l| !l.starts_with("total"))
        .map(|l| l.split_whitespace().last().unwrap().parse::<f64>().unwrap())
        .sum();
    let total = numbers(&out, "total (gold - silver)");
    let terms = numbers(&out, "total ");
    assert_eq!(total, vec![sum], "{out}");
    assert_eq!(terms[2], sum, "{out}");
    assert!(sum != 0.0, "{out}");
}

#[test]
fn eval_shows_the_variance_adjustment_on_the_side_to_moves_line() {
    // Off in the shipped weights: a line of zeros.
    let o = tusk(&["eval", "--features", "--setposition", MIDGAME]);
    let (out, err) = text(&o);
    assert!(o.status.success(), "{err}");
    assert_eq!(numbers(&out, "variance"), vec![0.0, 0.0, 0.0], "{out}");
    assert!(!out.contains("variance adjustment of the total"), "{out}");
    // On: silver is to move, so the adjustment is on silver's column, and the terms' total
    // is the features' sum plus it.
    let on = file(
        "variance",
        "on.json",
        r#"{"rabbit_goal_pct": 100, "variance_pct": 31, "variance_scale": 450}"#,
    );
    let (out, _) = features_with(&on);
    let row = numbers(&out, "variance ");
    assert_eq!(row[0], 0.0, "gold is not to move: {out}");
    assert!(row[1] != 0.0, "an adjustment: {out}");
    let sum = numbers(&out, "total (gold - silver)")[0];
    let terms = numbers(&out, "total ");
    assert_eq!(terms[2], sum - row[1], "{out}");
    let line = out
        .lines()
        .find(|l| l.starts_with("variance adjustment of the total: "))
        .unwrap_or_else(|| panic!("no adjustment line:\n{out}"));
    assert!(line.contains(&format!("{:+}", -row[1] as i64)), "{line}");
    assert!(line.contains("scale 450"), "{line}");
}

#[test]
fn eval_with_a_weights_file_uses_it_and_warns_about_names_it_lacks() {
    let zero = file("eval", "zero.json", &zero_weights());
    let (out, err) = features_with(&zero);
    assert!(
        out.contains("score for silver (to move): +0 centirabbits"),
        "{out}"
    );
    assert_eq!(
        numbers(&out, "trap_home")[3],
        0.0,
        "the weight column: {out}"
    );
    assert!(
        err.contains("weights not in the file keep the shipped values: piece_value_cap"),
        "{err}"
    );

    // The shipped weight, doubled in a file: the column shows each, the features stay.
    let shipped = tusk_eval::Weights::default()[tusk_eval::id::material_pct];
    assert!(shipped > 0);
    let double = file(
        "eval",
        "double.json",
        &format!("{{\n  \"material_pct\": {}\n}}\n", 2 * shipped),
    );
    let o = tusk(&["eval", "--setposition", MIDGAME, "--features"]);
    let base = numbers(&text(&o).0, "material_pct");
    let o = tusk(&[
        "eval",
        "--setposition",
        MIDGAME,
        "--features",
        "--weights",
        double.to_str().unwrap(),
    ]);
    let twice = numbers(&text(&o).0, "material_pct");
    assert_eq!(base[3], f64::from(shipped));
    assert_eq!(twice[3], f64::from(2 * shipped));
    assert_eq!(twice[..3], base[..3], "the same features");
}

#[test]
fn a_bad_weights_file_is_refused_with_its_line_and_key() {
    for (contents, want) in [
        (
            "{\n  \"trap_home\": 35,\n  \"trap_hmoe\": 3\n}\n",
            "line 3: \"trap_hmoe\" is not a weight; did you mean \"trap_home\"?",
        ),
        (
            "{\n\"frozen_pct\": 6.5}",
            "line 2: \"frozen_pct\": 6.5 is not an integer",
        ),
        ("{\"trap_home\": ", "line 1, column"),
    ] {
        let bad = file("bad", "bad.json", contents);
        for cmd in ["eval", "bench", "analyze"] {
            let o = tusk(&[cmd, "--weights", bad.to_str().unwrap()]);
            let (_, err) = text(&o);
            assert!(!o.status.success(), "{cmd} accepted {contents}");
            assert!(err.contains("bad.json: "), "{cmd}: {err}");
            assert!(err.contains(want), "{cmd}: {err}");
        }
    }
    let o = tusk(&["eval", "--weights", "/nonexistent/w.json"]);
    assert!(!o.status.success());
    assert!(text(&o).1.contains("/nonexistent/w.json"));
}

#[test]
fn bench_and_analyze_search_with_the_file_weights() {
    let zero = file("search", "zero.json", &zero_weights());
    let zero = zero.to_str().unwrap();
    let o = tusk(&[
        "bench",
        "--positions",
        "2",
        "--depth",
        "4",
        "--weights",
        zero,
    ]);
    let (out, err) = text(&o);
    assert!(o.status.success(), "{err}");
    // With every weight zero, no position without tactics scores anything.
    for line in out.lines().skip(1).take(2) {
        assert_eq!(line.split_whitespace().nth(3), Some("+0"), "{out}");
    }
    let o = tusk(&["bench", "--positions", "1", "--depth", "4"]);
    let out = text(&o).0;
    assert_ne!(
        out.lines().nth(1).unwrap().split_whitespace().nth(3),
        Some("+0")
    );

    let o = tusk(&["analyze", "--depth", "4", "--json", "--weights", zero]);
    let (out, err) = text(&o);
    assert!(o.status.success(), "{err}");
    let last = out.lines().last().unwrap();
    assert!(last.contains("\"type\":\"bestmove\""), "{out}");
    assert!(last.contains("\"score_cr\":0"), "{out}");
}

#[test]
fn the_aei_weights_option_loads_refuses_and_restores() {
    let zero = file("aei", "zero.json", &zero_weights());
    let bad = file("aei", "bad.json", "{\"nope\": 1}");
    let mut e = Engine::start();
    e.handshake();
    e.send("setoption name depth value 4");
    e.send(&format!("setoption name weights value {}", bad.display()));
    e.send(&format!("setoption name weights value {}", zero.display()));
    e.send("newgame");
    e.send(&format!("setposition {START}"));
    e.send("go");
    e.bestmove();
    e.send("setoption name weights value default");
    e.send("go");
    e.bestmove();
    e.sync();
    let t = &e.transcript;
    let error = t
        .iter()
        .position(|l| l.starts_with("log Error: option 'weights': "))
        .unwrap_or_else(|| panic!("{t:?}"));
    assert!(
        t[error].contains("bad.json: line 1: \"nope\" is not a weight"),
        "{t:?}"
    );
    assert!(t[error].ends_with("kept the previous weights"), "{t:?}");
    assert!(
        t.iter()
            .any(|l| l.starts_with("log Warning: weights ") && l.contains("piece_value_cap")),
        "{t:?}"
    );
    // Both searches answered; the zero weights scored the opening 0, the shipped ones not.
    let scores: Vec<&String> = t.iter().filter(|l| l.starts_with("info score ")).collect();
    let bests: Vec<usize> = t
        .iter()
        .enumerate()
        .filter(|(_, l)| l.starts_with("bestmove "))
        .map(|(i, _)| i)
        .collect();
    assert_eq!(bests.len(), 2, "{t:?}");
    let last_score_before = |end: usize| {
        t[..end]
            .iter()
            .rev()
            .find(|l| l.starts_with("info score "))
            .unwrap()
            .clone()
    };
    assert!(!scores.is_empty());
    assert_eq!(last_score_before(bests[0]), "info score 0", "{t:?}");
    assert_ne!(last_score_before(bests[1]), "info score 0", "{t:?}");
}

#[test]
fn the_engine_plays_the_shipped_file_when_given_no_weights() {
    // The repository's eval/weights/default.json, given explicitly, searches exactly as the
    // compiled-in default does: same nodes, scores and moves.
    let shipped = concat!(env!("CARGO_MANIFEST_DIR"), "/../eval/weights/default.json");
    let strip = |o: &Output| -> Vec<String> {
        text(o)
            .0
            .lines()
            .skip(1)
            .filter(|l| !l.starts_with("bench:"))
            .map(|l| {
                // Drop the time column.
                let mut f: Vec<&str> = l.split_whitespace().collect();
                f.remove(2);
                f.join(" ")
            })
            .collect()
    };
    let a = tusk(&["bench", "--positions", "4", "--depth", "5"]);
    let b = tusk(&[
        "bench",
        "--positions",
        "4",
        "--depth",
        "5",
        "--weights",
        shipped,
    ]);
    assert!(a.status.success() && b.status.success());
    assert!(
        text(&b).1.is_empty(),
        "the shipped file names every weight: {}",
        text(&b).1
    );
    assert_eq!(strip(&a), strip(&b));
    assert_eq!(strip(&a).len(), 4);
}
