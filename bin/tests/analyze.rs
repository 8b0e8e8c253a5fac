//! `tusk analyze` run as a user would run it.

use std::process::{Command, Output};

fn tusk(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tusk"))
        .args(args)
        .output()
        .expect("tusk runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

const GOAL: &str = "g [r   e              R                                    E      R]";

#[test]
fn shows_the_board_one_line_per_depth_and_the_best_move() {
    let o = tusk(&["analyze", "--depth", "5"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.starts_with("position g [rrrrrrrr"), "{out}");
    assert!(out.contains("8| r r r r r r r r |"), "{out}");
    for d in 1..=5 {
        let line = out
            .lines()
            .find(|l| l.split_whitespace().next() == Some(&d.to_string()))
            .unwrap_or_else(|| panic!("no depth {d} line:\n{out}"));
        assert!(line.contains("2g "), "PV with turn labels: {line}");
    }
    let last = out.lines().last().unwrap();
    let turn = last
        .strip_prefix("bestmove ")
        .expect("last line is bestmove");
    // The best move plays from the start position.
    let mut g = tusk_engine::Game::from_position(
        tusk_engine::notation::board::parse_aei(tusk_engine::notation::board::STANDARD_OPENING)
            .unwrap(),
        2,
    );
    g.play_text(turn).expect("bestmove is a legal turn");
}

#[test]
fn a_goal_shows_as_a_win_in_steps() {
    let o = tusk(&["analyze", "--setposition", GOAL, "--depth", "4"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("win in 2 steps"), "{out}");
    assert!(
        out.lines()
            .last()
            .unwrap()
            .starts_with("bestmove Rd6n Rd7n"),
        "{out}"
    );
}

#[test]
fn json_prints_one_object_per_line() {
    let o = tusk(&["analyze", "--setposition", GOAL, "--depth", "3", "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let lines: Vec<serde_json::Value> = stdout(&o)
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect();
    assert_eq!(lines[0]["type"], "position");
    assert!(lines.iter().any(|l| l["type"] == "info" && l["depth"] == 3));
    let last = lines.last().unwrap();
    assert_eq!(last["type"], "bestmove");
    assert_eq!(last["win_in_steps"], 2);
    assert!(last["move"].as_str().unwrap().starts_with("Rd6n Rd7n"));
}

#[test]
fn time_nodes_multipv_and_threads_limit_and_shape_the_search() {
    let o = tusk(&["analyze", "--time", "0.3", "--threads", "2"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).lines().last().unwrap().starts_with("bestmove "));
    let o = tusk(&["analyze", "--nodes", "5000"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).lines().last().unwrap().starts_with("bestmove "));
    let o = tusk(&["analyze", "--depth", "2", "--multipv", "3"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    for k in 1..=3 {
        assert!(out.contains(&format!("#{k} 2g ")), "{out}");
    }
}

#[test]
fn a_record_position_by_move_label() {
    let dir = std::env::temp_dir().join(format!("tusk-analyze-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let rec = dir.join("game.txt");
    std::fs::write(
        &rec,
        "1g Ra1 Rb1 Rc1 Rd1 Re1 Rf1 Rg1 Rh1 Da2 Hb2 Cc2 Md2 Ee2 Cf2 Hg2 Dh2\n\
         1s ra8 rb8 rc8 rd8 re8 rf8 rg8 rh8 da7 hb7 cc7 ed7 me7 cf7 hg7 dh7\n\
         2g Ee2n Ee3n Ee4n Ee5n\n\
         2s ed7s ed6s\n",
    )
    .unwrap();
    let r = rec.to_str().unwrap();
    let o = tusk(&["analyze", "--record", r, "--upto", "2s", "--depth", "2"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("(2s to play)"), "{out}");
    assert!(out.contains("2s "), "{out}");
    let o = tusk(&["analyze", "--record", r, "--upto", "9g", "--depth", "2"]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("no move 9g"), "{}", stderr(&o));
    let o = tusk(&["analyze", "--record", r, "--upto", "2x"]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("2x"), "{}", stderr(&o));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_finished_game_is_reported_not_searched() {
    // Silver has no rabbits: gold has won by elimination.
    let o = tusk(&[
        "analyze",
        "--setposition",
        "g [    e                                           R              E]",
    ]);
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("game over: gold wins by elimination"), "{out}");
    assert!(!out.contains("bestmove"), "{out}");
}

#[test]
fn bad_options_are_errors() {
    for (args, want) in [
        (vec!["analyze", "--threads", "0"], "--threads 0"),
        (vec!["analyze", "--time=-1"], "--time"),
        (vec!["analyze", "--multipv", "0"], "--multipv 0"),
        (vec!["analyze", "--depth", "0"], "--depth 0"),
        (
            vec!["analyze", "--depth", "5", "--with", "exchange,nosuch"],
            "--with nosuch: unknown feature",
        ),
    ] {
        let o = tusk(&args);
        assert!(!o.status.success(), "{args:?}");
        assert!(stderr(&o).contains(want), "{args:?}: {}", stderr(&o));
    }
}

/// `--with` and `--without` switch search features: in round 8's ladder game 8 at 5g a
/// depth-9 search without reverse futility pruning advances the camel to d6 (where sharp won
/// it) without the exchange and not with it (see `search/tests/search.rs`); the default
/// search, with the pruning, plays another turn.
#[test]
fn features_can_be_switched_on_and_off() {
    let ladder = "g [rrrrrrrrd c mc d h         M       e Eh  H    H D C  CD RRRRRRRR]";
    let run = |extra: &[&str]| {
        let mut args = vec![
            "analyze",
            "--setposition",
            ladder,
            "--depth",
            "9",
            "--hash",
            "8",
        ];
        args.extend_from_slice(extra);
        let o = tusk(&args);
        assert!(o.status.success(), "{extra:?}: {}", stderr(&o));
        let out = stdout(&o);
        out.lines().last().unwrap_or("").to_string()
    };
    // The search without reverse futility pruning (on by default since round 26) plays
    // Md5n here; the default search, with it, plays another turn.
    let plain = run(&["--without", "rfp"]);
    assert!(plain.ends_with("Md5n"), "{plain}");
    let default = run(&[]);
    assert!(
        default.starts_with("bestmove") && default != plain,
        "{default}"
    );
    assert_eq!(
        run(&["--with", "rfp,exchange", "--without", "exchange,rfp"]),
        plain
    );
    let exchange = run(&["--with", "exchange", "--without", "rfp"]);
    assert!(
        exchange.starts_with("bestmove") && !exchange.ends_with("Md5n"),
        "{exchange}"
    );
}

#[cfg(unix)]
#[test]
fn ctrl_c_stops_the_search_and_still_prints_the_best_move() {
    use std::process::Stdio;
    let child = Command::new(env!("CARGO_BIN_EXE_tusk"))
        .args(["analyze"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("tusk runs");
    std::thread::sleep(std::time::Duration::from_millis(1500));
    let status = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(status.success());
    let o = child.wait_with_output().expect("tusk ends");
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let last = out.lines().last().unwrap_or_default();
    assert!(last.starts_with("bestmove "), "{out}");
}
