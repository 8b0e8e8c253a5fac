//! The `tusk` command line, run as a user would run it.

use std::io::Write;
use std::process::{Command, Output, Stdio};

const START: &str = tusk_engine::notation::board::STANDARD_OPENING;
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

/// Writes `contents` to a fresh file named `name` under the test's own directory.
fn temp_file(test: &str, name: &str, contents: &[u8]) -> std::path::PathBuf {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("tusk-cli-{}-{test}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, contents).unwrap();
    path
}

/// The numbers of `tusk eval`'s row for `term`: gold, silver, difference.
fn term_row(out: &str, term: &str) -> Vec<i64> {
    out.lines()
        .find(|l| l.starts_with(term))
        .unwrap_or_else(|| panic!("no {term} row:\n{out}"))
        .split_whitespace()
        .skip(term.split_whitespace().count())
        .map(|w| w.parse().unwrap())
        .collect()
}

/// A committed fixture under bin/tests/data.
fn data(name: &str) -> String {
    format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"))
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
    // The opening position is symmetric: every term but the tempo is level, and the score is
    // gold's four steps in hand (`steps_left.4`, 20 in the shipped weights).
    for line in out.lines().skip_while(|l| !l.starts_with("term")).skip(1) {
        let Some(term) = line.split("  ").next().filter(|t| !t.is_empty()) else {
            continue;
        };
        if term == "tempo" || term == "total" || term.starts_with("score") {
            continue;
        }
        let row = term_row(&out, term);
        assert_eq!(row[0], row[1], "{term} is not level:\n{out}");
    }
    assert_eq!(term_row(&out, "tempo"), [20, 0, 20], "{out}");
    assert!(
        out.contains("score for gold (to move): +20 centirabbits"),
        "{out}"
    );

    let o = tusk(&["eval", "--setposition", MIDGAME], "");
    let out = stdout(&o);
    assert!(out.contains("reaches goal in"), "{out}");
    let material = term_row(&out, "material");
    assert!(material[2] > 1000, "gold is far ahead in material: {out}");

    let o = tusk(&["eval", "--setposition", "g [rrr]"], "");
    assert!(!o.status.success());
    assert!(stderr(&o).contains("64 cells"));
}

/// The JSON lines a successful run wrote on standard output.
fn json_lines(o: &Output) -> Vec<serde_json::Value> {
    assert!(o.status.success(), "{}", stderr(o));
    stdout(o)
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect()
}

#[test]
fn eval_batch_writes_one_json_line_per_position_and_names_a_bad_line() {
    let text = format!("# two positions\n\n{START}\n{{\"position\": \"{MIDGAME}\", \"id\": 7}}\n");
    let file = temp_file("eval-batch", "positions.txt", text.as_bytes());
    let lines = json_lines(&tusk(&["eval", "--batch", file.to_str().unwrap()], ""));
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0]["position"], START);
    // The opening is symmetric: the score is gold's four steps in hand alone.
    assert_eq!(lines[0]["score"], 20, "the tempo of the side to move");
    assert_eq!(lines[0]["terms"]["tempo"], serde_json::json!([20, 0]));
    assert_eq!(lines[0]["terms"]["material"], serde_json::json!([0, 0]));
    assert_eq!(lines[1]["position"], MIDGAME);
    // The same score as the single-position table, and every term's pair.
    let single = stdout(&tusk(&["eval", "--setposition", MIDGAME], ""));
    let material = term_row(&single, "material");
    assert_eq!(
        lines[1]["terms"]["material"],
        serde_json::json!([material[0], material[1]])
    );
    assert_eq!(
        lines[1]["terms"].as_object().unwrap().len(),
        tusk_eval::Term::NUM
    );
    // Standard input works too.
    let o = tusk(&["eval", "--batch", "-"], &format!("{START}\n"));
    assert_eq!(stdout(&o).lines().count(), 1, "{}", stderr(&o));

    // A bad line is named, by file and line.
    let bad = temp_file(
        "eval-batch",
        "bad.txt",
        format!("{START}\n\ng [rrr]\n").as_bytes(),
    );
    let o = tusk(&["eval", "--batch", bad.to_str().unwrap()], "");
    assert!(!o.status.success());
    assert!(stderr(&o).contains("bad.txt:3"), "{}", stderr(&o));
    assert!(stderr(&o).contains("64 cells"), "{}", stderr(&o));
    let no_key = temp_file("eval-batch", "nokey.txt", b"{\"board\": 1}\n");
    let o = tusk(&["eval", "--batch", no_key.to_str().unwrap()], "");
    assert!(stderr(&o).contains("nokey.txt:1"), "{}", stderr(&o));
    assert!(stderr(&o).contains("\"position\""), "{}", stderr(&o));
    // A decided game is refused, not scored.
    let over = "s [rrrrrrrRdhcmechd                                DHCMECHDRRRRRRR ]";
    let done = temp_file("eval-batch", "over.txt", format!("{over}\n").as_bytes());
    let o = tusk(&["eval", "--batch", done.to_str().unwrap()], "");
    assert!(stderr(&o).contains("already decided"), "{}", stderr(&o));
    // It cannot be mixed with a single position.
    let o = tusk(&["eval", "--batch", "-", "--setposition", START], "");
    assert!(!o.status.success());
}

#[test]
fn eval_batch_plays_the_steps_given_and_scores_the_middle_of_the_turn() {
    let text = format!(
        "{{\"position\": \"{START}\", \"steps\": \"Ee2n Ee3n\"}}\n{{\"position\": \"{MIDGAME}\", \"steps\": \"\"}}\n"
    );
    let lines = json_lines(&tusk(&["eval", "--batch", "-"], &text));
    assert_eq!(lines.len(), 2);
    // The elephant has gone two squares up and gold, still to move, has two steps left: the
    // score is the library's for that position, not the turn start's 0.
    let start = tusk_engine::notation::board::parse_aei(START).unwrap();
    let (_, mid) = tusk_engine::notation::turn::play_steps(&start, "Ee2n Ee3n").unwrap();
    assert_eq!(mid.steps_left(), 2);
    let expected = tusk_eval::evaluate(&mid, &tusk_eval::Weights::default());
    assert_eq!(lines[0]["steps_left"], 2);
    assert_eq!(lines[0]["score"], expected);
    assert_ne!(expected, 0, "the moved elephant changes the score");
    assert_eq!(
        lines[0]["position"],
        tusk_engine::notation::board::to_aei_with_side(&mid)
    );
    // Empty steps: the turn start itself.
    assert_eq!(lines[1]["steps_left"], 4);
    assert_eq!(lines[1]["position"], MIDGAME);

    // An illegal step, too many steps and steps that are not a string are named, by line.
    let bad = format!("{START}\n{{\"position\": \"{START}\", \"steps\": \"Ee2s\"}}\n");
    let o = tusk(&["eval", "--batch", "-"], &bad);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("-:2"), "{}", stderr(&o));
    assert!(stderr(&o).contains("Ee2s"), "{}", stderr(&o));
    let five = format!("{{\"position\": \"{START}\", \"steps\": \"Ee2n Ee3n Ee4n Ee5n Ee6n\"}}\n");
    let o = tusk(&["eval", "--batch", "-"], &five);
    assert!(stderr(&o).contains("at most 4 steps"), "{}", stderr(&o));
    let number = format!("{{\"position\": \"{START}\", \"steps\": 3}}\n");
    let o = tusk(&["eval", "--batch", "-"], &number);
    assert!(
        stderr(&o).contains("\"steps\" must be a string"),
        "{}",
        stderr(&o)
    );
}

const SETUPS: &str = "1g Ra1 Rb1 Rc1 Rd1 Re1 Rf1 Rg1 Rh1 Da2 Hb2 Cc2 Md2 Ee2 Cf2 Hg2 Dh2\n\
                      1s ra8 rb8 rc8 rd8 re8 rf8 rg8 rh8 da7 hb7 cc7 md7 ee7 cf7 hg7 dh7\n";

const FRAMED_START: &str = "2g\n +-----------------+\n8| r r r r r r r r |\n7| d h c e m c h d |\n\
     6| . . x . . x . . |\n5| . . . . . . . . |\n4| . . . . . . . . |\n3| . . x . . x . . |\n\
     2| D H C M E C H D |\n1| R R R R R R R R |\n +-----------------+\n   a b c d e f g h\n";

/// Runs `tusk moves --count --position FILE` on a position file and returns the output.
fn moves_on_file(test: &str, contents: &[u8]) -> (Output, String) {
    let path = temp_file(test, "board.pos", contents);
    let path = path.to_str().unwrap().to_string();
    (tusk(&["moves", "--count", "--position", &path], ""), path)
}

/// A malformed framed position file is refused with the file, line, column and what was
/// expected; before, shifted, extra or unknown cells were dropped and the count printed.
#[test]
fn malformed_position_files_name_file_line_and_column() {
    let (o, _) = moves_on_file("framed-ok", FRAMED_START.as_bytes());
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o), "3353\n");
    let cases = [
        // Rank 7 shifted one column to the right: its pieces would have been misread.
        (
            "7|  d h c e m c h d|",
            "line 4, column 5: expected a space before the b7 cell (cells stand in every other column), found 'd'",
        ),
        // A ninth cell on rank 2.
        (
            "2| D H C M E C H D D |",
            "line 9, column 20: expected \" |\" after the 8 cells of rank 2, found 'D'",
        ),
        // An unknown letter.
        (
            "1| R R R R R R R Z |",
            "line 10, column 18: h1: 'Z' is not a piece letter (RCDHME, rcdhme) or an empty cell (space, '.')",
        ),
        // A trap mark off a trap.
        (
            "4| . . . . x . . . |",
            "line 7, column 12: e4: 'x' marks an empty trap, but e4 is not a trap (c3, f3, c6, f6)",
        ),
    ];
    for (i, (line, want)) in cases.into_iter().enumerate() {
        let label = line.split('|').next().unwrap();
        let original = FRAMED_START
            .lines()
            .find(|l| l.starts_with(&format!("{label}|")))
            .unwrap();
        let text = FRAMED_START.replace(original, line);
        let (o, path) = moves_on_file(&format!("framed-{i}"), text.as_bytes());
        assert_eq!(o.status.code(), Some(1), "{line}: {}", stdout(&o));
        assert_eq!(stdout(&o), "", "{line}");
        assert_eq!(stderr(&o), format!("error: {path}: {want}\n"), "{line}");
    }
    // A footer that is not the file letters.
    let text = FRAMED_START.replace("   a b c d e f g h", "   a b c d e f g h i");
    let (o, path) = moves_on_file("framed-footer", text.as_bytes());
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        stderr(&o),
        format!("error: {path}: line 12, column 19: expected the file letters \"a b c d e f g h\", found \"a b c d e f g h i\"\n")
    );
}

/// A file that is not UTF-8 is refused with the line and column of the bad byte.
#[test]
fn non_utf8_files_name_the_line() {
    let mut bytes = FRAMED_START.as_bytes().to_vec();
    // Line 4 is rank 7: put a Latin-1 byte in place of the a7 dog.
    let at = FRAMED_START.find("7| d").unwrap() + 3;
    bytes[at] = 0xE9;
    let (o, path) = moves_on_file("latin1", &bytes);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        stderr(&o),
        format!("error: {path}: line 4, column 4: byte 0xE9 is not UTF-8 text (the file must be UTF-8)\n")
    );
    let mut text = format!("{SETUPS}2g Ee2n\n2s ").into_bytes();
    text.push(0xFF);
    let rec = temp_file("latin1", "game.txt", &text);
    let rec = rec.to_str().unwrap();
    let o = tusk(&["moves", "--count", "--record", rec], "");
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains(&format!("{rec}: line 4, column 4: byte 0xFF")),
        "{}",
        stderr(&o)
    );
    // Standard input in batch mode: the line is named and the other lines are counted.
    let mut input = format!("{START}\n").into_bytes();
    input.extend_from_slice(b"g [\xFF]\n");
    input.extend_from_slice(format!("{START}\n").as_bytes());
    let mut child = Command::new(env!("CARGO_BIN_EXE_tusk"))
        .args(["moves", "--count"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(&input).unwrap();
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(stdout(&o), "3353\nerror\n3353\n");
    assert!(
        stderr(&o).starts_with("error: line 2, column 4: byte 0xFF is not UTF-8 text"),
        "{}",
        stderr(&o)
    );
}

/// Record faults name the file, the line and the move or word; an ending `resigns` is
/// replayed up to and reported on standard error.
#[test]
fn record_faults_name_file_and_line() {
    let cases = [
        (
            "junk",
            format!("{SETUPS}2g Ee2n Ee3n\n2s ee7s\ngarbage here\n"),
            "line 5, column 1: expected a move label like 2g at the start of the line, found \"garbage\"",
        ),
        (
            "token",
            format!("{SETUPS}2g Ee2n Ee3n\n2s ee7s garbage\n"),
            "move 2s: token \"garbage\": expected a step like Ed2n, a capture like rc3x or a placement like Ra1 (line 4)",
        ),
        (
            "empty",
            format!("{SETUPS}2g\n2s ee7s\n"),
            "line 3: move 2g is empty; only the last move of a record may be empty",
        ),
        (
            "after-resigns",
            format!("{SETUPS}2g Ee2n\n2s resigns\n3g Ee3n\n"),
            "line 5: move 3g follows \"2s resigns\" on line 4, which ends the record",
        ),
        (
            "label",
            format!("{SETUPS}2g Ee2n\n2g Ee3n\n"),
            "move 2g: token \"2g\": expected move 2s (line 4)",
        ),
    ];
    for (name, text, want) in cases {
        let path = temp_file("records", &format!("{name}.txt"), text.as_bytes());
        let path = path.to_str().unwrap();
        let o = tusk(&["moves", "--count", "--record", path], "");
        assert_eq!(o.status.code(), Some(1), "{name}: {}", stdout(&o));
        assert_eq!(stderr(&o), format!("error: {path}: {want}\n"), "{name}");
    }

    let path = temp_file(
        "records",
        "resigns.txt",
        format!("{SETUPS}2g Ee2n Ee3n\n2s resigns\n").as_bytes(),
    );
    let path = path.to_str().unwrap();
    // The whole record: the position before the resignation, with a note saying so.
    let o = tusk(&["moves", "--count", "--record", path], "");
    assert!(o.status.success(), "{}", stderr(&o));
    let after_2g = tusk(
        &[
            "moves",
            "--count",
            "--setposition",
            "s [rrrrrrrrdhcemchd                    E           DHCM CHDRRRRRRRR]",
        ],
        "",
    );
    assert_eq!(stdout(&o), stdout(&after_2g));
    assert_eq!(
        stderr(&o),
        format!("note: {path} line 4: the record ends with \"2s resigns\"; this is the position before it\n")
    );
    // Up to the move before it: no note. Beyond the end: an error.
    let o = tusk(&["moves", "--count", "--record", path, "--upto", "3"], "");
    assert!(o.status.success());
    assert_eq!(stderr(&o), "");
    assert_eq!(stdout(&o), stdout(&after_2g));
    let o = tusk(&["moves", "--count", "--record", path, "--upto", "5"], "");
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        stderr(&o),
        format!("error: {path}: asked for the first 5 moves, but the record has only 4\n")
    );
}

/// An AEI board with text before '[' or an 'x' off a trap is refused, naming the fault.
#[test]
fn malformed_aei_boards_are_refused() {
    let o = tusk(
        &[
            "moves",
            "--count",
            "--setposition",
            &START.replacen("g [", "g 7 [", 1),
        ],
        "",
    );
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).ends_with("board: unexpected text \"7\" before '['\n"),
        "{}",
        stderr(&o)
    );
    let o = tusk(
        &[
            "perft",
            "--setposition",
            &START.replacen("        ", "   x    ", 1),
        ],
        "",
    );
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).ends_with(
            "board: cell 20 (d6): 'x' marks an empty trap, but d6 is not a trap (c3, f3, c6, f6)\n"
        ),
        "{}",
        stderr(&o)
    );
}

/// Thread counts and depths outside their ranges are refused with the range (clap's usage
/// error, exit status 2).
#[test]
fn absurd_limits_are_refused_with_the_range() {
    for (args, want) in [
        (&["perft", "--threads", "0"][..], "0 is not in 1..=256"),
        (
            &["perft", "--threads", "99999"][..],
            "99999 is not in 1..=256",
        ),
        (
            &["perft", "--depth", "4000000000"][..],
            "4000000000 is not in 1..=5",
        ),
        (&["perft", "--depth", "0"][..], "0 is not in 1..=5"),
    ] {
        let o = tusk(args, "");
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(stderr(&o).contains(want), "{args:?}: {}", stderr(&o));
        assert_eq!(stdout(&o), "");
    }
    let o = tusk(&["perft", "--threads", "256"], "");
    assert!(o.status.success(), "{}", stderr(&o));
}

/// `moves --count` reading a terminal says that it reads positions from standard input;
/// reading a pipe it says nothing. The terminal comes from `script` (util-linux).
#[test]
fn moves_count_on_a_terminal_says_it_reads_standard_input() {
    let cmd = format!("{} moves --count", env!("CARGO_BIN_EXE_tusk"));
    let mut child = Command::new("script")
        .args(["-qec", &cmd, "/dev/null"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("`script` (util-linux) runs the command on a terminal");
    let start = std::time::Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > std::time::Duration::from_secs(60) {
            child.kill().ok();
            panic!("tusk moves --count on a terminal did not end at end of input");
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let o = child.wait_with_output().unwrap();
    let seen = format!("{}{}", stdout(&o), stderr(&o));
    assert!(
        seen.contains("tusk moves --count: reading positions from standard input"),
        "{seen}"
    );
    let o = tusk(&["moves", "--count"], &format!("{START}\n"));
    assert_eq!((stdout(&o).as_str(), stderr(&o).as_str()), ("3353\n", ""));
}

/// The exit status and line of a decided game.
fn assert_game_over(o: &Output, line: &str, what: &str) {
    assert_eq!(
        o.status.code(),
        Some(3),
        "{what}: {}{}",
        stdout(o),
        stderr(o)
    );
    assert_eq!(stdout(o), format!("{line}\n"), "{what}");
    assert!(!stderr(o).contains("error"), "{what}: {}", stderr(o));
}

/// Every command reports a decided game the same way: one line, exit status 3.
#[test]
fn a_decided_game_is_reported_the_same_way_by_every_command() {
    // A gold rabbit on a8 (silver to move, gold just moved): gold wins by goal.
    let goal = "s [R       rrrrrrrdhcemchd                         DHCMECHD RRRRRRR]";
    // Silver has no rabbits: gold wins by elimination.
    let no_rabbits = "g [        dhcemchd                                DHCMECHDRRRRRRRR]";
    for (pos, line) in [
        (goal, "game over: gold wins by goal"),
        (no_rabbits, "game over: gold wins by elimination"),
    ] {
        for args in [
            &["perft", "--setposition", pos][..],
            &["perft", "--setposition", pos, "--depth", "2", "--divide"][..],
            &["moves", "--setposition", pos][..],
            &["moves", "--count", "--setposition", pos][..],
            &["eval", "--setposition", pos][..],
        ] {
            assert_game_over(&tusk(args, ""), line, &format!("{args:?}"));
        }
    }
    // A record that ends in a goal (game 8 of the pyrimaa fixtures), with and without the
    // loser's `lost`.
    let rec = data("goal-game.txt");
    for cmd in ["perft", "moves", "eval"] {
        assert_game_over(
            &tusk(&[cmd, "--record", &rec], ""),
            "game over: gold wins by goal",
            cmd,
        );
    }
    let before = tusk(&["moves", "--count", "--record", &rec, "--upto", "50"], "");
    assert!(before.status.success(), "{}", stderr(&before));
    let text = std::fs::read_to_string(&rec).unwrap();
    let lost = temp_file(
        "decided",
        "lost.txt",
        format!("{text}26s lost\n").as_bytes(),
    );
    let o = tusk(&["eval", "--record", lost.to_str().unwrap()], "");
    assert_eq!(o.status.code(), Some(3));
    assert_eq!(stdout(&o), "game over: gold wins by goal\n");
    // A move after the goal is an error naming it.
    let more = temp_file(
        "decided",
        "more.txt",
        format!("{text}26s ee7s\n").as_bytes(),
    );
    let o = tusk(&["moves", "--record", more.to_str().unwrap()], "");
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o)
            .ends_with("line 54: move 26s comes after the end of the game (gold won by goal)\n"),
        "{}",
        stderr(&o)
    );
}

/// The third-repetition rule applies wherever the history is known. In
/// data/elephant-shuffle.txt both elephants step out and back twice: after 5g the board S
/// after the setups (gold to move) has stood at a turn start twice (after 1s and 3s), so
/// silver's `ee6n`, which would bring it back a third time, is not a legal turn. pyrimaa
/// counts 6,331 turns for the board alone; with the history there are 6,330, and listing
/// them leaves out exactly `ee6n`. At two turns the whole subtree under `ee6n` goes: the
/// opening's 3,353 gold turns from S. One move earlier (after 4s, gold to move) the only
/// two-turn sequence lost is `Ee3s` then `ee6n`.
#[test]
fn perft_and_moves_apply_the_record_history() {
    let rec = data("elephant-shuffle.txt");
    // The board after 5g (silver to move) and after 4s (gold to move).
    let z = "s [rrrrrrrrdhcm chd    e                           DHCMECHDRRRRRRRR]";
    let y = "g [rrrrrrrrdhcm chd    e                       E   DHCM CHDRRRRRRRR]";
    let perft = |args: &[&str]| -> Vec<String> {
        let mut all = vec!["perft", "--depth", "2", "--threads", "2"];
        all.extend_from_slice(args);
        let o = tusk(&all, "");
        assert!(o.status.success(), "{}", stderr(&o));
        let out = stdout(&o);
        let turns: Vec<&str> = out
            .lines()
            .skip_while(|l| !l.starts_with("turns"))
            .collect();
        turns[1..]
            .iter()
            .map(|l| l.split_whitespace().nth(1).unwrap().to_string())
            .collect()
    };
    let with_history = perft(&["--record", &rec]);
    let alone = perft(&["--setposition", z]);
    assert_eq!(alone, ["6331", "21144914"]);
    assert_eq!(with_history, ["6330", "21141561"]);
    assert_eq!(21_144_914 - 21_141_561, 3353);
    let with_history = perft(&["--record", &rec, "--upto", "8"]);
    let alone = perft(&["--setposition", y]);
    assert_eq!(alone[1], "39742955");
    assert_eq!(with_history[1], "39742954");

    let listing = |args: &[&str]| -> Vec<String> {
        let mut all = vec!["moves"];
        all.extend_from_slice(args);
        let o = tusk(&all, "");
        assert!(o.status.success(), "{}", stderr(&o));
        stdout(&o).lines().map(str::to_string).collect()
    };
    let with_history = listing(&["--record", &rec]);
    let alone = listing(&["--setposition", z]);
    let missing: Vec<&String> = alone.iter().filter(|t| !with_history.contains(t)).collect();
    assert_eq!(missing, ["ee6n"]);
    assert_eq!(with_history.len(), 6330);
}

/// A position file with steps already taken: every listed turn is written whole (the steps
/// taken, then the rest), ending the turn at once included, and there are 15 of them.
#[test]
fn moves_lists_whole_turns_from_a_mid_turn_position_file() {
    let file = temp_file(
        "mid_turn_listing",
        "mid.txt",
        b"2g Ee2n Ee3n Ee4n\n +-----------------+\n8| r r r r r r r r |\n7| d h c e m c h d |\n\
          6| . . x . . x . . |\n5| . . . . E . . . |\n4| . . . . . . . . |\n\
          3| . . x . . x . . |\n2| D H C M . C H D |\n1| R R R R R R R R |\n\
           +-----------------+\n   a b c d e f g h\n",
    );
    let o = tusk(&["moves", "--position", file.to_str().unwrap()], "");
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 15, "{out}");
    assert!(
        lines.iter().all(|l| l.starts_with("Ee2n Ee3n Ee4n")),
        "{out}"
    );
    assert!(lines.contains(&"Ee2n Ee3n Ee4n"), "ending at once: {out}");
    assert!(lines.contains(&"Ee2n Ee3n Ee4n Cc2n Cc3x"), "{out}");
    let o = tusk(
        &["moves", "--count", "--position", file.to_str().unwrap()],
        "",
    );
    assert_eq!(stdout(&o).trim(), "15");
}

/// Gold and silver of game `id` of a pair schedule: `first` is gold in the even games.
fn colours<'a>(id: u64, first: &'a str, second: &'a str) -> (&'a str, &'a str) {
    if id.is_multiple_of(2) {
        (first, second)
    } else {
        (second, first)
    }
}

/// One `tusk match --json` line: game `id`, `gold` against `silver`, won by `winner`, from
/// the setup labelled `setup`.
fn match_line(id: u64, gold: &str, silver: &str, winner: &str, setup: &str) -> String {
    format!(
        r#"{{"id":{id},"round":{},"gold":"{gold}","silver":"{silver}","winner":"{winner}","reason":"g","moves":["1g {setup}","1s x"],"detail":"","tc":["-","-"],"setups":"file","seed":1,"match_key":"k","date":"2026-12-06","seconds":1.0}}"#,
        id / 2
    ) + "\n"
}

#[test]
fn match_merge_reports_the_sprt_of_a_candidate_on_the_games_in_the_files() {
    // "new" wins `wins` of 400 games, colours alternating: the first `wins` ids, so whole
    // pairs (both games of a round) go the same way.
    let file = |wins: u64| -> String {
        (0..400u64)
            .map(|id| {
                let (gold, silver) = colours(id, "new", "base");
                let new_wins = id < wins;
                let winner = match (id % 2 == 0, new_wins) {
                    (true, true) | (false, false) => "g",
                    _ => "s",
                };
                match_line(id, gold, silver, winner, "A")
            })
            .collect()
    };
    let strong = temp_file("merge-sprt", "strong.jsonl", file(260).as_bytes());
    let table = strong.with_file_name("table.json");
    let (strong, table_arg) = (strong.display().to_string(), table.display().to_string());
    let args = |f: &str, sprt: &str, candidate: &str| {
        [
            "match",
            "merge",
            f,
            "--sprt",
            sprt,
            "--candidate",
            candidate,
            "--table-json",
            &table_arg,
        ]
        .map(String::from)
    };
    let run = |a: [String; 9]| tusk(&a.iter().map(String::as_str).collect::<Vec<_>>(), "");
    let by_games = "elo0=0,elo1=10,model=games";
    let o = run(args(&strong, by_games, "new"));
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains("SPRT elo0=0 elo1=10 alpha=0.05 beta=0.05 model=games: LLR"),
        "{out}"
    );
    assert!(
        out.contains("after 400 games: H1 accepted: new is stronger"),
        "{out}"
    );
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&table).unwrap()).unwrap();
    assert_eq!(json["sprt"]["result"], "H1", "{json}");
    assert_eq!(json["sprt"]["model"], "games", "{json}");
    assert!(json["sprt"]["llr"].as_f64().unwrap() > 2.94, "{json}");
    // The same games seen from the other engine: rejected.
    let o = run(args(&strong, by_games, "base"));
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("H0 accepted: base is not 10 Elo stronger"),
        "{}",
        stdout(&o)
    );
    // By pairs (the default) those 400 games are 200 pairs each won or lost whole: half as
    // much evidence as 400 independent games, and the test is undecided.
    let o = run(args(&strong, "elo0=0,elo1=10", "new"));
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains("model=pairs: LLR")
            && out.contains("after 200 pairs (400 games; 70 lost both, 0 split, 130 won both;")
            && out.ends_with(": undecided\n"),
        "{out}"
    );
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&table).unwrap()).unwrap();
    assert_eq!(json["sprt"]["pairs"]["won_both"], 130, "{json}");
    assert_eq!(json["sprt"]["pairs"]["unpaired"], 0, "{json}");
    let llr = json["sprt"]["llr"].as_f64().unwrap();
    assert!((1.0..2.94).contains(&llr), "{json}");
    // An even match: undecided either way.
    let even = temp_file("merge-sprt", "even.jsonl", file(200).as_bytes());
    let o = run(args(&even.display().to_string(), by_games, "new"));
    assert!(
        stdout(&o).contains("after 400 games: undecided"),
        "{}",
        stdout(&o)
    );
    // A candidate the files do not hold is named in the error.
    let o = run(args(&strong, by_games, "nobody"));
    assert!(!o.status.success());
    let err = stderr(&o);
    assert!(
        err.contains("--candidate nobody: no engine of that name in the files (they hold"),
        "{err}"
    );
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn match_captures_counts_each_engines_losses_by_trap_and_outcome() {
    // Game 0: "new" (gold) wins, silver loses a rabbit on c6 (its own trap) and a horse on f3
    // (gold's). Game 1: "new" (silver) loses its camel on f3 (gold's trap, so the enemy's).
    let line = |id: u64, gold: &str, silver: &str, winner: &str, moves: &str| {
        match_line(id, gold, silver, winner, "A").replace(r#""1s x""#, moves)
    };
    let text = line(
        0,
        "new",
        "base",
        "g",
        r#""1s x","2g rc6x","2s Ee2n","3g hf3x""#,
    ) + &line(1, "base", "new", "g", r#""1s x","2g mf3x""#);
    let f = temp_file("captures", "games.jsonl", text.as_bytes());
    let f = f.display().to_string();
    let o = tusk(&["match", "captures", &f, "--engine", "new"], "");
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.starts_with("2 games from 1 file\nnew: 2 games, won 1, lost 1\n"),
        "{out}"
    );
    let row = |name: &str| -> Vec<String> {
        let l = out.lines().find(|l| l.starts_with(name)).unwrap();
        l[name.len()..]
            .split_whitespace()
            .map(String::from)
            .collect()
    };
    assert_eq!(
        row("by it, in its losses"),
        ["0.00", "0.00", "0.00", "1.00", "1.00"]
    );
    assert_eq!(
        row("by its opponents, in its wins"),
        ["1.00", "0.00", "0.00", "1.00", "2.00"]
    );
    assert!(!out.contains("base:"), "{out}");

    // A token that is not notation names the file, the game and the move.
    let bad = text.replace("hf3x", "hz3x");
    let b = temp_file("captures", "bad.jsonl", bad.as_bytes());
    let o = tusk(&["match", "captures", &b.display().to_string()], "");
    assert!(!o.status.success());
    let err = stderr(&o);
    assert!(err.contains("bad.jsonl: game 0, move 3g: "), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn match_compare_pairs_two_candidates_game_by_game() {
    // Candidate "new" wins games 0, 1 and 2; "base" wins 0 and 3 (gold in even games).
    let file = |name: &str, winners: [&str; 4]| -> String {
        (0..4u64)
            .map(|id| {
                let (gold, silver) = colours(id, name, "sharp");
                let setup = if id < 2 { "A" } else { "B" };
                match_line(id, gold, silver, winners[id as usize], setup)
            })
            .collect()
    };
    let new = file("new", ["g", "s", "g", "g"]);
    let base = file("base", ["g", "g", "s", "s"]);
    let a = temp_file("compare", "new.jsonl", new.as_bytes());
    let b = temp_file("compare", "base.jsonl", base.as_bytes());
    let (a, b) = (a.display().to_string(), b.display().to_string());
    let o = tusk(&["match", "compare", &a, &b], "");
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.starts_with("4 games paired by id, both candidates against sharp"),
        "{out}"
    );
    assert!(
        out.contains("won by both 1, only by new 2, only by base 1, by neither 0"),
        "{out}"
    );
    // 2 against 1: 2 * P(X <= 1) for X ~ Binomial(3, 1/2) = 2 * 4/8, capped at 1.
    assert!(out.contains("p = 1.0000"), "{out}");

    // A file of another schedule is refused, naming the game and what differs.
    let other = base.replace(r#""1g B""#, r#""1g C""#);
    let c = temp_file("compare", "other.jsonl", other.as_bytes());
    let o = tusk(&["match", "compare", &a, &c.display().to_string()], "");
    assert!(!o.status.success());
    let err = stderr(&o);
    assert!(err.contains("game 2: the setups differ"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}
