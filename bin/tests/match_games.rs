//! `tusk match` plays real AEI engines: pyrimaa's simple_engine and scripted fakes that
//! misbehave (illegal move, hang, crash, late answer). Every game is scored with the right
//! reason, the tournament completes, no engine outlives the runner, the JSON games replay in
//! pyrimaa.board to the same winner and reason, and the records read back with the engine
//! crate.

mod match_common;
mod support;

use match_common::{args, games, pyrimaa_replay, run_match, Scratch};
use tusk_engine::notation::record::Record;

#[test]
fn faulty_engines_lose_with_the_right_reason_and_the_gauntlet_completes() {
    let s = Scratch::new("faults");
    let json = s.path("games.jsonl");
    let table = s.path("table.json");
    let records = s.path("records");
    let mut a = args(&[
        "--gauntlet",
        "--tc",
        "1s/0s/0",
        "--games",
        "2",
        "--concurrency",
        "2",
    ]);
    for e in [
        s.simple("simple"),
        s.fake("illegal", "illegal"),
        s.fake("hang", "hang"),
        s.fake("crash", "crash"),
        s.fake("late", "late 2.5"),
    ] {
        a.push("--engine".into());
        a.push(e);
    }
    for (k, v) in [
        ("--json", &json),
        ("--table-json", &table),
        ("--records", &records),
    ] {
        a.push(k.into());
        a.push(v.display().to_string());
    }
    run_match(&a);
    assert!(
        s.live_engines().is_empty(),
        "engines left running: {:?}",
        s.live_engines()
    );

    let g = games(&json);
    assert_eq!(g.len(), 8, "4 opponents x 2 games");
    for game in &g {
        let (gold, silver) = (
            game["gold"].as_str().unwrap(),
            game["silver"].as_str().unwrap(),
        );
        let bad = if gold == "simple" { silver } else { gold };
        let simple_colour = if gold == "simple" { "g" } else { "s" };
        assert_eq!(game["winner"], simple_colour, "{game}");
        let detail = game["detail"].as_str().unwrap();
        let (reason, words) = match bad {
            "illegal" => ("i", "illegal move"),
            "hang" => ("t", "gave no move within 1.000 s"),
            "crash" => ("t", "exited during its turn"),
            "late" => ("t", "gave no move within 1.000 s"),
            other => panic!("unexpected engine {other}"),
        };
        assert_eq!(game["reason"], reason, "{game}");
        assert!(detail.contains(words) && detail.contains(bad), "{detail}");
        // Each fault happens at the faulty engine's first turn after the setups.
        let moves = game["moves"].as_array().unwrap();
        assert_eq!(moves.len(), if gold == bad { 2 } else { 3 }, "{game}");
    }
    let crash = g.iter().find(|x| x["gold"] == "crash").unwrap();
    assert!(
        crash["detail"].as_str().unwrap().contains("exit status: 3"),
        "{crash}"
    );
    let illegal = g.iter().find(|x| x["silver"] == "illegal").unwrap();
    assert_eq!(illegal["illegal_move"], "ed5s");

    // The table: simple 8-0, each faulty engine 0-2.
    let t: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&table).unwrap()).unwrap();
    let rows = t["table"].as_array().unwrap();
    assert_eq!(rows[0]["name"], "simple");
    assert_eq!(
        (rows[0]["wins"].as_u64(), rows[0]["losses"].as_u64()),
        (Some(8), Some(0))
    );
    for r in &rows[1..] {
        assert_eq!(
            (r["wins"].as_u64(), r["losses"].as_u64()),
            (Some(0), Some(2)),
            "{r}"
        );
    }

    let (ok, out) = pyrimaa_replay(&s.python, &json);
    assert!(ok, "{out}");
    assert!(out.contains("checked 8 games"), "{out}");
    assert_eq!(std::fs::read_dir(&records).unwrap().count(), 8);
}

#[test]
fn played_games_replay_in_pyrimaa_and_records_read_back() {
    let s = Scratch::new("replay");
    let json = s.path("games.jsonl");
    let records = s.path("records");
    // Engines' own setups against simple_engine, then random setups between two fakes.
    let mut a = args(&["--tc", "2s/2s/100", "--games", "4", "--concurrency", "2"]);
    for e in [s.simple("simple"), s.fake("det", "det 0 x")] {
        a.push("--engine".into());
        a.push(e);
    }
    a.extend(args(&["--json", &json.display().to_string()]));
    a.extend(args(&["--records", &records.display().to_string()]));
    run_match(&a);
    let json2 = s.path("random.jsonl");
    let mut b = args(&["--games", "4", "--setups", "random", "--seed", "9"]);
    for e in [s.fake("d1", "det 0 a"), s.fake("d2", "det 0 b")] {
        b.push("--engine".into());
        b.push(e);
    }
    b.extend(args(&["--json", &json2.display().to_string()]));
    run_match(&b);
    assert!(s.live_engines().is_empty());

    let mut all = games(&json);
    all.extend(games(&json2));
    assert_eq!(all.len(), 8);
    for g in &all {
        let moves = g["moves"].as_array().unwrap();
        assert!(moves.len() > 2, "a whole game: {g}");
        assert!(moves[0].as_str().unwrap().starts_with("1g "));
        assert!(moves[2].as_str().unwrap().starts_with("2g "));
        assert!(
            "gem".contains(g["reason"].as_str().unwrap()),
            "natural end: {g}"
        );
    }
    // Random setups: both games of a pair start from the same setups, colours swapped.
    let r = games(&json2);
    assert_eq!(r[0]["moves"][0], r[1]["moves"][0]);
    assert_eq!(r[0]["moves"][1], r[1]["moves"][1]);
    assert_eq!(r[0]["gold"], r[1]["silver"]);
    assert_ne!(
        r[0]["moves"][0], r[2]["moves"][0],
        "each round has its own setups"
    );

    for f in [&json, &json2] {
        let (ok, out) = pyrimaa_replay(&s.python, f);
        assert!(ok, "{out}");
        assert!(out.contains("checked 4 games"), "{out}");
    }

    // The records: tags, and a replay with the engine crate to the same end.
    for g in games(&json) {
        let path = records.join(format!("game-{:06}.txt", g["id"].as_u64().unwrap()));
        let rec = Record::parse(&std::fs::read_to_string(&path).unwrap()).unwrap();
        assert_eq!(rec.tag("Gold"), g["gold"].as_str());
        assert_eq!(rec.tag("Silver"), g["silver"].as_str());
        assert_eq!(rec.tag("Result"), g["winner"].as_str());
        assert_eq!(rec.tag("Reason"), g["reason"].as_str());
        assert_eq!(rec.tag("TimeControl"), Some("2s/2s/100/0/0/0"));
        assert!(rec.tag("Event").is_some() && rec.tag("Date").is_some());
        let game = rec.replay(None).unwrap();
        let result = game.result().expect("the record ends the game");
        assert_eq!(
            result.winner.letter().to_string(),
            g["winner"].as_str().unwrap()
        );
        assert_eq!(rec.moves.len(), g["moves"].as_array().unwrap().len());
    }
}

#[test]
fn the_pyrimaa_check_rejects_a_wrong_result() {
    let s = Scratch::new("tamper");
    let json = s.path("games.jsonl");
    let mut a = args(&["--games", "2", "--setups", "random"]);
    for e in [s.fake("d1", "det 0 a"), s.fake("d2", "det 0 b")] {
        a.push("--engine".into());
        a.push(e);
    }
    a.extend(args(&["--json", &json.display().to_string()]));
    run_match(&a);
    let text = std::fs::read_to_string(&json).unwrap();
    let mut lines: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let w = lines[0]["winner"].as_str().unwrap().to_string();
    lines[0]["winner"] = if w == "g" { "s" } else { "g" }.into();
    lines[1]["reason"] = "e".into();
    let bad = s.path("tampered.jsonl");
    let body: Vec<String> = lines.iter().map(|v| v.to_string()).collect();
    std::fs::write(&bad, body.join("\n") + "\n").unwrap();
    let (ok, out) = pyrimaa_replay(&s.python, &bad);
    assert!(!ok, "{out}");
    assert!(
        out.contains("game 0: ") && out.contains("game 1: "),
        "{out}"
    );
}

/// Plays a 200-game match of an engine that always wins against one that always loses, with
/// `--sprt SPEC`; returns the number of games written and the SPRT's JSON.
fn lopsided_sprt_match(name: &str, spec: &str) -> (usize, serde_json::Value) {
    let s = Scratch::new(name);
    let table = s.path("table.json");
    let json = s.path("games.jsonl");
    let mut a = args(&["--games", "200", "--concurrency", "2", "--sprt", spec]);
    for e in [s.fake("good", "det"), s.fake("bad", "illegal")] {
        a.push("--engine".into());
        a.push(e);
    }
    a.extend(args(&["--table-json", &table.display().to_string()]));
    a.extend(args(&["--json", &json.display().to_string()]));
    let out = run_match(&a);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("H1 accepted"), "{stdout}");
    let t: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&table).unwrap()).unwrap();
    assert!(s.live_engines().is_empty());
    (games(&json).len(), t["sprt"].clone())
}

#[test]
fn sprt_stops_a_lopsided_match_early() {
    // By games: each win adds ln(0.64/0.5) = 0.2469 to the LLR; the bound ln(19) = 2.944 is
    // passed at the 12th win, so the match stops after 12 games, far short of 200.
    let (n, sprt) = lopsided_sprt_match("sprt-games", "elo0=0,elo1=100,model=games");
    assert_eq!(sprt["result"], "H1");
    assert_eq!(n, 12, "{sprt}");
    // By pairs (the default): a pair won whole is as likely as can be under a distribution
    // with no split pairs and the hypothesis's mean, so it too adds ln(0.64/0.5); the bound
    // is passed at the 12th pair, 24 games.
    let (n, sprt) = lopsided_sprt_match("sprt-pairs", "elo0=0,elo1=100");
    assert_eq!(sprt["result"], "H1");
    assert_eq!(sprt["model"], "pairs");
    assert_eq!(sprt["pairs"]["won_both"], 12, "{sprt}");
    assert_eq!(n, 24, "{sprt}");
}

/// A gold setup other than the fakes' own (pyrimaa's basic setup), for the setup-file tests.
const GOLD_SETUP: &str = "Ra1 Rb1 Rc1 Rd1 Re1 Rf1 Rg1 Rh1 Da2 Hb2 Cc2 Ed2 Me2 Cf2 Hg2 Dh2";
/// The silver setup that goes with [`GOLD_SETUP`].
const SILVER_SETUP: &str = "ra8 rb8 rc8 rd8 re8 rf8 rg8 rh8 da7 hb7 cc7 md7 ee7 cf7 hg7 dh7";

#[test]
fn setups_from_a_file_are_played_by_the_referee() {
    let s = Scratch::new("setupfile");
    let file = s.path("setups.txt");
    let (gold, silver) = (GOLD_SETUP, SILVER_SETUP);
    std::fs::write(&file, format!("# one opening\n1g {gold} 1s {silver}\n")).unwrap();
    let json = s.path("games.jsonl");
    let mut a = args(&["--games", "2", "--setup-file", &file.display().to_string()]);
    for e in [s.fake("d1", "det 0 a"), s.fake("d2", "det 0 b")] {
        a.push("--engine".into());
        a.push(e);
    }
    a.extend(args(&["--json", &json.display().to_string()]));
    run_match(&a);
    let g = games(&json);
    assert_eq!(g.len(), 2);
    for game in &g {
        // The fakes would have played pyrimaa's basic setup (elephant on e2/d7); the file's
        // setups were played instead, and the games replay in pyrimaa.
        assert_eq!(game["moves"][0], format!("1g {gold}"));
        assert_eq!(game["moves"][1], format!("1s {silver}"));
        assert_eq!(game["setups"], "file");
    }
    let (ok, out) = pyrimaa_replay(&s.python, &json);
    assert!(ok, "{out}");
    // A file with a bad setup is refused before any game, naming the line.
    std::fs::write(&file, format!("{gold} ra8\n")).unwrap();
    let out = match_common::tusk().arg("match").args(&a).output().unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("setups.txt:1: silver setup"), "{err}");
}

#[test]
fn random_turns_vary_the_games_of_deterministic_engines() {
    let s = Scratch::new("randomturns");
    let file = s.path("setups.txt");
    let (gold, silver) = (GOLD_SETUP, SILVER_SETUP);
    std::fs::write(&file, format!("1g {gold} 1s {silver}\n")).unwrap();
    let run = |extra: &[&str], name: &str| {
        let json = s.path(name);
        let mut a = args(&["--games", "4", "--setup-file", &file.display().to_string()]);
        a.extend(args(extra));
        for e in [s.fake("d1", "det 0 a"), s.fake("d2", "det 0 b")] {
            a.push("--engine".into());
            a.push(e);
        }
        a.extend(args(&["--json", &json.display().to_string()]));
        let out = run_match(&a);
        (String::from_utf8_lossy(&out.stdout).to_string(), json)
    };
    // One opening and deterministic engines: the second round replays the first.
    let (stdout, json) = run(&[], "plain.jsonl");
    let g = games(&json);
    assert_eq!(g[0]["moves"], g[2]["moves"]);
    assert!(
        stdout.contains("note: 2 of 4 games repeat an earlier game move for move (2 distinct)"),
        "{stdout}"
    );
    // Two random turns after the setups: the two games of a pair share them, the rounds
    // differ, and the referee's turns replay in pyrimaa like the rest.
    let (stdout, json) = run(&["--random-turns", "2"], "random.jsonl");
    let g = games(&json);
    assert_eq!(g.len(), 4);
    let opening = |i: usize| g[i]["moves"].as_array().unwrap()[..4].to_vec();
    assert_eq!(opening(0), opening(1));
    assert_eq!(opening(2), opening(3));
    assert_ne!(opening(0), opening(2));
    for game in &g {
        assert_eq!(game["moves"][0], format!("1g {gold}"));
        assert!(game["moves"].as_array().unwrap().len() > 4, "{game}");
    }
    assert!(!stdout.contains("repeat an earlier game"), "{stdout}");
    let (ok, out) = pyrimaa_replay(&s.python, &json);
    assert!(ok, "{out}");
}

// An engine that answers only when told to stop: with roundrobin's stop_time it plays on,
// without it it loses on time. 2 s per turn, no reserve; stop is sent 1 s before the deadline.
#[test]
fn stop_time_sends_stop_before_the_deadline() {
    let s = Scratch::new("stoptime");
    let run = |extra: &[&str], json: &str| {
        let json = s.path(json);
        let mut a = args(&["--tc", "2s/0s/0", "--games", "1"]);
        a.extend(args(extra));
        for e in [s.fake("waits", "stoppable"), s.fake("det", "det")] {
            a.push("--engine".into());
            a.push(e);
        }
        a.extend(args(&["--json", &json.display().to_string()]));
        run_match(&a);
        games(&json).remove(0)
    };
    let with_stop = run(&["--stop-time", "1"], "stop.jsonl");
    assert!(
        "gem".contains(with_stop["reason"].as_str().unwrap()),
        "{with_stop}"
    );
    assert!(
        with_stop["moves"].as_array().unwrap().len() > 3,
        "{with_stop}"
    );
    let without = run(&[], "nostop.jsonl");
    assert_eq!(
        (without["winner"].as_str(), without["reason"].as_str()),
        (Some("s"), Some("t"))
    );
    assert_eq!(without["moves"].as_array().unwrap().len(), 2, "{without}");
}
