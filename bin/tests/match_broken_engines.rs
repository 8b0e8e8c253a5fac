//! An engine that cannot be started (a command that does not exist, one that prints garbage
//! instead of `protocol-version 1`, one that exits at once, one that crashes when it is
//! started again, one that answers its options with `log Error:`) is a setup error of the
//! match, not a game: the run stops with a non-zero exit and a message that names the engine
//! and shows its standard error (or its own words), no game of it is recorded, and the
//! engines are probed before the first game so that this takes seconds. An option an engine
//! only warns about (`log Warning:`) is reported once and the match goes on, unless
//! `--strict-options` makes the warning a refusal.

mod match_common;
mod support;

use std::time::{Duration, Instant};

use match_common::{args, games, tusk, Scratch};

/// Runs `tusk match ARGS`; returns (exit code, stderr) and how long it took.
fn run_failing(a: &[String]) -> (Option<i32>, String, Duration) {
    let t = Instant::now();
    let out = tusk().arg("match").args(a).output().expect("tusk runs");
    let took = t.elapsed();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(
        !out.status.success(),
        "tusk match {a:?} succeeded:\n{}\n{stderr}",
        String::from_utf8_lossy(&out.stdout)
    );
    assert!(!stderr.contains("panicked"), "{stderr}");
    (out.status.code(), stderr, took)
}

/// The games recorded in a JSON-lines file that may not exist.
fn recorded(path: &std::path::Path) -> usize {
    if path.exists() {
        games(path).len()
    } else {
        0
    }
}

#[test]
fn a_command_that_does_not_exist_stops_the_match_with_the_shells_message() {
    let s = Scratch::new("ghost");
    let json = s.path("games.jsonl");
    let logs = s.path("logs");
    let ghost = s.path("no-such-engine");
    let mut a = args(&["--games", "2"]);
    a.extend(args(&["--engine", &s.fake("det", "det")]));
    a.extend(args(&[
        "--engine",
        &format!("name=ghost,cmd={} --fast", ghost.display()),
    ]));
    a.extend(args(&["--json", &json.display().to_string()]));
    a.extend(args(&["--stderr", &logs.display().to_string()]));
    let (code, stderr, _) = run_failing(&a);
    assert_eq!(code, Some(1), "{stderr}");
    assert!(stderr.contains("ghost"), "names the engine: {stderr}");
    // The shell's own words: dash says "not found", bash "No such file or directory".
    assert!(
        stderr.contains("no-such-engine: not found")
            || stderr.contains("no-such-engine: No such file or directory"),
        "shows the shell's message: {stderr}"
    );
    assert_eq!(recorded(&json), 0, "no game is recorded");
    // The standard error still goes to the --stderr directory too.
    let log = std::fs::read_to_string(logs.join("ghost.log")).unwrap();
    assert!(log.contains("no-such-engine"), "{log}");
    assert!(s.live_engines().is_empty(), "{:?}", s.live_engines());
}

#[test]
fn engines_that_print_garbage_or_exit_at_once_stop_the_match() {
    let s = Scratch::new("garbage");
    for (mode, words) in [
        ("garbage", "fake engine: garbage mode"),
        ("exit", "fake engine: exiting at once"),
    ] {
        let json = s.path(&format!("{mode}.jsonl"));
        let mut a = args(&["--games", "2", "--tc", "2s/2s/100"]);
        a.extend(args(&["--engine", &s.fake("det", "det")]));
        a.extend(args(&["--engine", &s.fake(mode, mode)]));
        a.extend(args(&["--json", &json.display().to_string()]));
        let (code, stderr, _) = run_failing(&a);
        assert_eq!(code, Some(1), "{stderr}");
        assert!(stderr.contains(mode), "names the engine: {stderr}");
        assert!(stderr.contains(words), "shows its stderr: {stderr}");
        if mode == "garbage" {
            assert!(
                stderr.contains("hello, I am not an AEI engine"),
                "shows what it said: {stderr}"
            );
        }
        assert_eq!(recorded(&json), 0, "{mode}: no game is recorded");
        // Run again as a resume of the same file: still no game, still an error.
        let (code, _, _) = run_failing(&a);
        assert_eq!(code, Some(1));
        assert_eq!(recorded(&json), 0, "{mode}: no game after a resume either");
    }
    assert!(s.live_engines().is_empty(), "{:?}", s.live_engines());
}

// Three engines, round robin, one game at a time: the broken engine's first game would be
// the third, after two games of 0.3 s turns between the others. Every engine is probed
// before the first game, so the run fails at once.
#[test]
fn a_broken_engine_is_found_before_the_first_game() {
    let s = Scratch::new("probe");
    let json = s.path("games.jsonl");
    let mut a = args(&["--games", "2", "--concurrency", "1"]);
    for e in [
        s.fake("slow-a", "det 0.3 a"),
        s.fake("slow-b", "det 0.3 b"),
        s.fake("broken", "exit"),
    ] {
        a.push("--engine".into());
        a.push(e);
    }
    a.extend(args(&["--json", &json.display().to_string()]));
    let (_, stderr, took) = run_failing(&a);
    assert!(stderr.contains("broken"), "{stderr}");
    assert!(
        took < Duration::from_secs(8),
        "failed only after {took:?}: {stderr}"
    );
    assert_eq!(recorded(&json), 0, "no game is recorded");
    assert!(s.live_engines().is_empty(), "{:?}", s.live_engines());
}

// An engine that played and then fails its handshake when it is started again (here with
// --restart, a fresh process per game) stops the match as well: the games already finished
// stay in the JSON file, the game it could not start is not recorded.
#[test]
fn an_engine_that_crashes_on_restart_stops_the_match_and_keeps_the_finished_games() {
    let s = Scratch::new("restart");
    let json = s.path("games.jsonl");
    let marker = s.path("started-once");
    let mut a = args(&["--games", "4", "--restart", "--setups", "random"]);
    a.extend(args(&["--engine", &s.fake("det", "det")]));
    a.extend(args(&[
        "--engine",
        &s.fake("once", &format!("once {}", marker.display())),
    ]));
    a.extend(args(&["--json", &json.display().to_string()]));
    let (code, stderr, _) = run_failing(&a);
    assert_eq!(code, Some(1), "{stderr}");
    assert!(stderr.contains("once"), "{stderr}");
    assert!(stderr.contains("fake engine: exiting at once"), "{stderr}");
    let g = games(&json);
    assert_eq!(g.len(), 1, "the first game only: {g:?}");
    assert_eq!(g[0]["id"], 0);
    assert!(
        "gem".contains(g[0]["reason"].as_str().unwrap()),
        "a game played to its end: {}",
        g[0]
    );
    assert!(s.live_engines().is_empty(), "{:?}", s.live_engines());
}

/// `name=NAME,cmd=<tusk> aei,...`: this build's own engine, with more spec fields.
fn tusk_engine(name: &str, more: &str) -> String {
    format!(
        "name={name},cmd={} aei,nodes=200{more}",
        env!("CARGO_BIN_EXE_tusk")
    )
}

#[test]
fn an_engine_that_refuses_an_option_stops_the_match_with_its_words() {
    let s = Scratch::new("refused-option");
    let json = s.path("games.jsonl");
    let missing = s.path("no-such-weights.json");
    let mut a = args(&["--games", "2"]);
    a.extend(args(&[
        "--engine",
        &tusk_engine("typo", &format!(",option.weights={}", missing.display())),
    ]));
    a.extend(args(&["--engine", &tusk_engine("plain", "")]));
    a.extend(args(&["--json", &json.display().to_string()]));
    let (code, stderr, took) = run_failing(&a);
    assert_eq!(code, Some(1), "{stderr}");
    assert!(
        stderr.contains("engine typo could not be started: it refused its options"),
        "names the engine and says why: {stderr}"
    );
    assert!(
        stderr.contains("option 'weights'") && stderr.contains("no-such-weights.json"),
        "quotes the engine's own error: {stderr}"
    );
    assert!(!stderr.contains("engine plain"), "{stderr}");
    assert_eq!(
        recorded(&json),
        0,
        "no game is played with the wrong weights"
    );
    assert!(
        took < Duration::from_secs(30),
        "found at the probe: {took:?}"
    );
}

#[test]
fn an_option_the_engine_ignores_is_reported_once_and_the_match_goes_on() {
    let s = Scratch::new("ignored-option");
    let json = s.path("games.jsonl");
    let mut a = args(&["--games", "2", "--concurrency", "1", "--restart"]);
    a.extend(args(&[
        "--engine",
        &tusk_engine("odd", ",option.frobnicate=1"),
    ]));
    a.extend(args(&["--engine", &tusk_engine("plain", "")]));
    a.extend(args(&["--json", &json.display().to_string()]));
    let out = tusk().arg("match").args(&a).output().expect("tusk runs");
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "{stderr}");
    let warning = "warning: engine odd: unrecognized option 'frobnicate' ignored";
    assert_eq!(
        stderr.matches(warning).count(),
        1,
        "one warning however often the engine starts: {stderr}"
    );
    assert!(!stderr.contains("engine plain"), "{stderr}");
    assert_eq!(recorded(&json), 2);
}

#[test]
fn with_strict_options_an_option_the_engine_ignores_stops_the_match() {
    let s = Scratch::new("strict-option");
    let json = s.path("games.jsonl");
    let mut a = args(&["--games", "2", "--strict-options"]);
    a.extend(args(&["--engine", &tusk_engine("plain", "")]));
    a.extend(args(&[
        "--engine",
        &tusk_engine("odd", ",option.frobnicate=1"),
    ]));
    a.extend(args(&["--json", &json.display().to_string()]));
    let (code, stderr, _) = run_failing(&a);
    assert_eq!(code, Some(1), "{stderr}");
    assert!(
        stderr.contains("engine odd could not be started: it refused its options")
            && stderr.contains("unrecognized option 'frobnicate' ignored"),
        "names the engine and quotes its warning: {stderr}"
    );
    assert!(!stderr.contains("engine plain"), "{stderr}");
    assert_eq!(recorded(&json), 0, "no game is played without the option");
}
