//! `tusk tune` as a user runs it: it reads a small `tusk datagen` file and a small
//! `tusk match --json` file (Tusk against itself over AEI) together, reports the data and the
//! losses, and writes a complete weights file that `tusk eval --weights` accepts; bad input is
//! refused with the file and line.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn tusk() -> Command {
    Command::new(env!("CARGO_BIN_EXE_tusk"))
}

fn scratch(name: &str) -> PathBuf {
    let dir =
        Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("tune-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs `tusk tune ARGS FILE --out OUT`, checks that it fails and writes nothing, and returns
/// its standard error.
fn refused(args: &[&str], file: &Path, out: &Path) -> String {
    let o = tusk()
        .arg("tune")
        .args(args)
        .arg(file)
        .arg("--out")
        .arg(out)
        .output()
        .unwrap();
    assert!(!o.status.success());
    assert!(!out.exists());
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn ok(o: Output, what: &str) -> (String, String) {
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert!(o.status.success(), "{what} failed:\n{out}\n{err}");
    (out, err)
}

#[test]
fn tune_reads_datagen_and_match_files_and_writes_weights_eval_accepts() {
    let dir = scratch("e2e");
    let games = dir.join("selfplay.jsonl");
    ok(
        tusk()
            .args([
                "datagen", "--games", "6", "--nodes", "200", "--seed", "2", "--hash", "2",
            ])
            .args(["--threads", "2", "--random-turns", "4", "--out"])
            .arg(&games)
            .output()
            .unwrap(),
        "datagen",
    );
    let matches = dir.join("match.jsonl");
    let engine = |name: &str| {
        format!(
            "name={name},cmd={} aei,nodes=150",
            env!("CARGO_BIN_EXE_tusk")
        )
    };
    ok(
        tusk()
            .args(["match", "--engine", &engine("a"), "--engine", &engine("b")])
            .args([
                "--games", "2", "--setups", "random", "--seed", "3", "--json",
            ])
            .arg(&matches)
            .output()
            .unwrap(),
        "match",
    );

    let weights = dir.join("out/tuned.json");
    let (out, _) = ok(
        tusk()
            .args(["tune", "--data"])
            .arg(&games)
            .arg(&matches)
            .args(["--epochs", "5", "--skip-turns", "2", "--validation", "0.25"])
            .args(["--positions-per-game", "12", "--seed", "4", "--out"])
            .arg(&weights)
            .output()
            .unwrap(),
        "tune",
    );
    assert!(
        out.contains("games: 8 read (6 datagen, 2 match), 8 used"),
        "{out}"
    );
    for want in [
        "(starting weights)",
        "K = ",
        "rounded to integers: training",
        "trap_home",
        "wrote ",
    ] {
        assert!(out.contains(want), "{want}:\n{out}");
    }
    // Every epoch is reported, each with two losses.
    let epochs: Vec<&str> = out
        .lines()
        .filter(|l| {
            l.split_whitespace().count() == 3 && l.trim_start().starts_with(char::is_numeric)
        })
        .collect();
    assert_eq!(epochs.len(), 5, "{out}");
    let taken: u64 = out
        .split(" taken")
        .next()
        .and_then(|s| s.rsplit(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{out}"));
    assert!((30..=96).contains(&taken), "{taken} positions: {out}");

    // A line search over two shape parameters on the same positions: one table each, the
    // starting value added, and the file holds the value the report names.
    let scanned = dir.join("scanned.json");
    let (out, _) = ok(
        tusk()
            .args(["tune", "--data"])
            .arg(&games)
            .arg(&matches)
            .args(["--skip-turns", "2", "--validation", "0.25", "--seed", "4"])
            .args(["--scan", "capture_risk_mover_pct=0,50"])
            .args(["--scan", "trap_dominance=0,80", "--out"])
            .arg(&scanned)
            .output()
            .unwrap(),
        "tune --scan",
    );
    assert!(!out.contains("(starting weights)"), "nothing fitted: {out}");
    assert_eq!(out.matches("(the starting value)").count(), 2, "{out}");
    for (name, values) in [
        ("capture_risk_mover_pct", ["100", "0", "50"]),
        ("trap_dominance", ["40", "0", "80"]),
    ] {
        let header = format!("validation minus {name} = {}", values[0]);
        let at = out
            .find(&header)
            .unwrap_or_else(|| panic!("{header}:\n{out}"));
        let rows: Vec<&str> = out[at..].lines().skip(1).take(3).collect();
        for (row, v) in rows.iter().zip(values) {
            assert_eq!(row.split_whitespace().next(), Some(v), "{out}");
        }
        let best = out
            .split(&format!("least training loss: {name} = "))
            .nth(1)
            .and_then(|s| s.split(' ').next())
            .unwrap_or_else(|| panic!("{out}"));
        let text = std::fs::read_to_string(&scanned).unwrap();
        assert!(
            text.contains(&format!("\"{name}\": {best},")),
            "{name} = {best}:\n{text}"
        );
    }

    let text = std::fs::read_to_string(&weights).unwrap();
    assert!(text.contains("\"trap_home\": "), "{text}");
    let (eval_out, eval_err) = ok(
        tusk()
            .args(["eval", "--features", "--weights"])
            .arg(&weights)
            .output()
            .unwrap(),
        "eval --weights",
    );
    assert!(eval_out.contains("score for gold"), "{eval_out}");
    assert!(
        eval_err.is_empty(),
        "a complete file, no warning: {eval_err}"
    );
}

#[test]
fn tune_refuses_bad_data_with_the_file_and_line() {
    let dir = scratch("bad");
    let bad = dir.join("bad.jsonl");
    std::fs::write(&bad, "{\"moves\": [], \"winner\": \"g\"}\n").unwrap();
    let out = dir.join("w.json");
    let err = refused(&["--data"], &bad, &out);
    assert!(
        err.contains("bad.jsonl:1: neither a tusk datagen game"),
        "{err}"
    );

    let err = refused(&["--scan", "no_such_weight=1", "--data"], &bad, &out);
    assert!(
        err.contains("no weight or shape parameter is called"),
        "{err}"
    );
    let err = refused(
        &["--scan", "capture_risk_mover_pct=150", "--data"],
        &bad,
        &out,
    );
    assert!(
        err.contains("150 is outside capture_risk_mover_pct's range"),
        "{err}"
    );

    std::fs::write(&bad, "").unwrap();
    let err = refused(&["--data"], &bad, &out);
    assert!(err.contains("no training positions"), "{err}");

    let o = tusk()
        .args(["tune", "--data", "/nonexistent.jsonl", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("/nonexistent.jsonl"));
}

/// Scored positions from a teacher: the shipped evaluation with the material weight doubled.
/// Fitted to them with every other group kept that touches material, the material weight
/// rises from 100 towards 200; the report counts the positions read, skipped and taken.
#[test]
fn tune_fits_a_teachers_scores_and_keeps_what_it_is_told() {
    use tusk_engine::notation::board::to_aei_with_side;
    use tusk_eval::{evaluate, id, Weights};

    let dir = scratch("scored");
    let mut teacher = Weights::default();
    teacher[id::material_pct] = 200;
    let mut lines = String::new();
    for p in (0..12u64).flat_map(|s| tusk_tests::random_game(s, 60)) {
        let text = to_aei_with_side(&p);
        let Ok(turn_start) = tusk_engine::notation::board::parse_aei(&text) else {
            continue;
        };
        let score = evaluate(&turn_start, &teacher);
        if score.abs() > 5000 {
            continue;
        }
        lines.push_str(&format!(
            "{{\"position\": \"{text}\", \"score\": {score}}}\n"
        ));
    }
    let read = lines.lines().count();
    assert!(read > 300, "{read}");
    let scored = dir.join("scored.jsonl");
    std::fs::write(&scored, &lines).unwrap();

    let weights = dir.join("fit.json");
    let (out, _) = ok(
        tusk()
            .args(["tune", "--scored"])
            .arg(&scored)
            .args(["--k", "400", "--epochs", "40", "--lr", "2", "--batch", "64"])
            .args(["--keep", "goal_threat,placement", "--l2", "0", "--out"])
            .arg(&weights)
            .output()
            .unwrap(),
        "tune --scored",
    );
    let head = format!("scored positions: {read} read, ");
    assert!(out.contains(&head), "{head}\n{out}");
    assert!(
        !out.contains("games: "),
        "no game files, no games line:\n{out}"
    );
    let fitted = tusk_eval::weights_file::load(&weights).unwrap().weights;
    assert!(
        fitted[id::material_pct] > 130,
        "material {}:\n{out}",
        fitted[id::material_pct]
    );
    let shipped = Weights::default();
    assert_eq!(fitted[id::goal_threat], shipped[id::goal_threat]);
    let corner = Weights::find("placement.0.0").unwrap();
    assert_eq!(fitted[corner], shipped[corner]);

    // The line search finds the teacher's material weight on the same positions, with K
    // fixed at the targets' scale.
    let scanned = dir.join("scan.json");
    let (out, _) = ok(
        tusk()
            .args(["tune", "--scored"])
            .arg(&scored)
            .args(["--k", "400", "--scan", "material_pct=150,200,250", "--out"])
            .arg(&scanned)
            .output()
            .unwrap(),
        "tune --scored --scan",
    );
    assert!(
        out.contains("least training loss: material_pct = 200"),
        "{out}"
    );
    let got = tusk_eval::weights_file::load(&scanned).unwrap().weights;
    assert_eq!(got[id::material_pct], 200);
    assert_eq!(got[id::goal_threat], shipped[id::goal_threat]);

    // Without --k the scores cannot be turned into targets; a bad line names itself.
    let refused_to = dir.join("refused.json");
    assert!(refused(&["--scored"], &scored, &refused_to).contains("--k"));
    std::fs::write(
        &scored,
        format!("{}\n{{\"score\": 3}}\n", lines.lines().next().unwrap()),
    )
    .unwrap();
    let err = refused(&["--k", "400", "--scored"], &scored, &refused_to);
    assert!(
        err.contains("scored.jsonl:2: not a scored position"),
        "{err}"
    );
}
