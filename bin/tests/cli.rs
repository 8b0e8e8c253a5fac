//! The `tusk` command line, run as a user would run it.

use std::io::Write;
use std::process::{Command, Output, Stdio};

const START: &str = "g [rrrrrrrrdhcemchd                                DHCMECHDRRRRRRRR]";
const MIDGAME: &str = "g [ D      c   r HcR   M r rC  r R r  r E R R C  R R    D      R  R]";

fn tusk(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tusk"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("tusk starts");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn row(out: &str, label: &str) -> Vec<String> {
    out.lines()
        .map(|l| l.split_whitespace().map(str::to_string).collect::<Vec<_>>())
        .filter(|w| w.first().map(String::as_str) == Some(label))
        .collect::<Vec<_>>()
        .first()
        .cloned()
        .unwrap_or_default()
}

#[test]
fn perft_prints_published_counts() {
    let o = tusk(&["perft", "--depth", "2"], "");
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert_eq!(row(&out, "4")[1], "22370", "{out}");
    assert_eq!(row(&out, "3")[1], "1408", "{out}");
    assert_eq!(row(&out, "1")[1..2], ["8".to_string()], "{out}");
    let turns: Vec<&str> = out
        .lines()
        .filter(|l| l.trim_start().starts_with("1 ") || l.trim_start().starts_with("2 "))
        .collect();
    assert!(out.contains(" 3353 "), "{out}");
    assert!(out.contains(" 11214629 "), "{out}");
    assert!(!turns.is_empty());
}

#[test]
fn perft_midgame_and_divide() {
    let o = tusk(
        &[
            "perft",
            "--setposition",
            MIDGAME,
            "--divide",
            "--threads",
            "1",
        ],
        "",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains(" 101363 "), "{out}");
    // The divide lines sum to the 4-step sequence count.
    let total: u64 = out
        .lines()
        .skip_while(|l| !l.starts_with("divide"))
        .skip(1)
        .map(|l| l.rsplit(' ').next().unwrap().parse::<u64>().unwrap())
        .sum();
    assert_eq!(total.to_string(), row(&out, "4")[1]);
}

#[test]
fn moves_lists_every_distinct_turn_in_notation() {
    let o = tusk(&["moves", "--setposition", START], "");
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3353);
    assert!(lines.contains(&"Ee2n Ee3n Ee4n Ee5n"));
    let mut sorted = lines.clone();
    sorted.dedup();
    assert_eq!(sorted.len(), 3353, "no turn is listed twice");
    let o = tusk(&["moves", "--setposition", START, "--count"], "");
    assert_eq!(stdout(&o).trim(), "3353");
}

#[test]
fn moves_count_reads_positions_from_stdin() {
    let input = format!("{START}\n# a comment\n{MIDGAME} 101363 51\n");
    let o = tusk(&["moves", "--count"], &input);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o), "3353\n101363\n");
}

#[test]
fn bad_input_is_an_error_not_a_panic() {
    let input = format!("{START}\ng [rrr]\n{START}\n");
    let o = tusk(&["moves", "--count"], &input);
    assert!(!o.status.success());
    assert_eq!(stdout(&o), "3353\nerror\n3353\n");
    let err = stderr(&o);
    assert!(err.contains("line 2") && err.contains("64 cells"), "{err}");
    assert!(!err.contains("panicked"), "{err}");

    let o = tusk(&["perft", "--setposition", "x [rrr]"], "");
    assert!(!o.status.success());
    let err = stderr(&o);
    assert!(err.contains("\"x\" is not a side"), "{err}");
    assert!(!err.contains("panicked"), "{err}");

    let o = tusk(&["perft", "--position", "/nonexistent/file.txt"], "");
    assert!(!o.status.success());
    assert!(stderr(&o).contains("cannot read position file"));
}

#[test]
fn position_file_and_record_inputs() {
    let dir = std::env::temp_dir().join(format!("tusk-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let pos = dir.join("start.pos");
    std::fs::write(
        &pos,
        "2g\n +-----------------+\n8| r r r r r r r r |\n7| d h c e m c h d |\n6| . . x . . x . . |\n5| . . . . . . . . |\n4| . . . . . . . . |\n3| . . x . . x . . |\n2| D H C M E C H D |\n1| R R R R R R R R |\n +-----------------+\n   a b c d e f g h\n",
    )
    .unwrap();
    let o = tusk(
        &["moves", "--count", "--position", pos.to_str().unwrap()],
        "",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o).trim(), "3353");

    let rec = dir.join("game.txt");
    std::fs::write(
        &rec,
        "1g Ra1 Rb1 Rc1 Rd1 Re1 Rf1 Rg1 Rh1 Da2 Hb2 Cc2 Md2 Ee2 Cf2 Hg2 Dh2\n\
         1s ra8 rb8 rc8 rd8 re8 rf8 rg8 rh8 da7 hb7 cc7 md7 ee7 cf7 hg7 dh7\n\
         2g Ee2n Ee3n\n2s ee7s\n",
    )
    .unwrap();
    let full = tusk(&["moves", "--count", "--record", rec.to_str().unwrap()], "");
    let upto = tusk(
        &[
            "moves",
            "--count",
            "--record",
            rec.to_str().unwrap(),
            "--upto",
            "2",
        ],
        "",
    );
    assert!(
        full.status.success() && upto.status.success(),
        "{}",
        stderr(&full)
    );
    assert_eq!(stdout(&upto).trim(), "3353", "after both setups");
    assert_ne!(stdout(&full).trim(), "3353");
    let bad = tusk(
        &["moves", "--record", rec.to_str().unwrap(), "--upto", "1"],
        "",
    );
    assert!(!bad.status.success());
    assert!(stderr(&bad).contains("setup phase"));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn bench_is_deterministic() {
    let args = ["bench", "--positions", "5", "--depth", "4"];
    let a = tusk(&args, "");
    let b = tusk(&args, "");
    assert!(a.status.success(), "{}", stderr(&a));
    // Position number, nodes, and (after the time) score, name and best move must agree.
    let counts = |o: &Output| -> Vec<String> {
        stdout(o)
            .lines()
            .map(|l| {
                let w: Vec<&str> = l.split_whitespace().collect();
                if l.starts_with("bench:") {
                    w[..7].join(" ")
                } else {
                    w.iter()
                        .enumerate()
                        .filter(|&(i, _)| i != 2)
                        .map(|(_, s)| *s)
                        .collect::<Vec<_>>()
                        .join(" ")
                }
            })
            .collect()
    };
    assert_eq!(counts(&a), counts(&b));
    let out = stdout(&a);
    assert!(out.contains("bench: 5 positions, depth 4, "), "{out}");
    assert_eq!(out.lines().count(), 7, "{out}");
    let bad = tusk(&["bench", "--without", "bogus"], "");
    assert!(!bad.status.success());
    assert!(stderr(&bad).contains("unknown feature"), "{}", stderr(&bad));
}

#[test]
fn eval_prints_every_term_and_the_score() {
    let o = tusk(&["eval"], "");
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    for term in [
        "material",
        "trap control",
        "rabbits",
        "captures",
        "frozen",
        "total",
    ] {
        assert!(
            out.lines().any(|l| l.starts_with(term)),
            "{term} missing:\n{out}"
        );
    }
    // The opening position is symmetric: the score is exactly zero.
    assert!(
        out.contains("score for gold (to move): +0 centirabbits"),
        "{out}"
    );

    let o = tusk(&["eval", "--setposition", MIDGAME], "");
    let out = stdout(&o);
    assert!(out.contains("reaches goal in"), "{out}");
    let material: Vec<i64> = out
        .lines()
        .find(|l| l.starts_with("material"))
        .unwrap()
        .split_whitespace()
        .skip(1)
        .map(|w| w.parse().unwrap())
        .collect();
    assert!(material[2] > 1000, "gold is far ahead in material: {out}");

    let o = tusk(&["eval", "--setposition", "g [rrr]"], "");
    assert!(!o.status.success());
    assert!(stderr(&o).contains("64 cells"));
}
