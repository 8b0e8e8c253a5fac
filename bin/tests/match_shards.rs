//! Shards merged equal the whole match; an interrupted match resumes from its JSON file
//! without losing or duplicating a game, and Ctrl-C leaves no engine running. The engines are
//! the deterministic fake (the same position always gets the same move), so a game played
//! twice is the same game.
//!
//! Unix only: the tests send signals with `nix`, a Unix-only dependency.
#![cfg(unix)]

mod match_common;
mod support;

use std::time::{Duration, Instant};

use match_common::{args, games, run_match, tusk, Scratch};
use nix::sys::signal::{kill, Signal};
use nix::unistd::Pid;

/// Removes what may differ between two plays of the same game (when, how fast).
fn normalise(mut g: serde_json::Value) -> serde_json::Value {
    let o = g.as_object_mut().unwrap();
    o.remove("date");
    o.remove("seconds");
    g
}

fn sorted(mut v: Vec<serde_json::Value>) -> Vec<serde_json::Value> {
    v.sort_by_key(|g| g["id"].as_u64());
    v.into_iter().map(normalise).collect()
}

#[test]
fn shards_merged_equal_the_whole_match() {
    let s = Scratch::new("shards");
    let engines: Vec<String> = ["a", "b", "c"]
        .iter()
        .map(|salt| s.fake(&format!("det-{salt}"), &format!("det 0 {salt}")))
        .collect();
    let base = |json: &str, table: &str| {
        let mut a = args(&["--games", "4", "--setups", "random", "--seed", "5"]);
        for e in &engines {
            a.push("--engine".into());
            a.push(e.clone());
        }
        a.extend(args(&["--json", &s.path(json).display().to_string()]));
        a.extend(args(&[
            "--table-json",
            &s.path(table).display().to_string(),
        ]));
        a
    };
    let mut whole = base("whole.jsonl", "whole.json");
    whole.extend(args(&["--concurrency", "2"]));
    run_match(&whole);
    let mut shard_files = Vec::new();
    for k in 1..=3 {
        let name = format!("shard{k}.jsonl");
        let mut a = base(&name, &format!("shard{k}.json"));
        a.extend(args(&["--shard", &format!("{k}/3")]));
        run_match(&a);
        shard_files.push(s.path(&name).display().to_string());
    }
    let whole_games = games(&s.path("whole.jsonl"));
    assert_eq!(whole_games.len(), 12, "3 pairings x 4 games");
    let sizes: Vec<usize> = shard_files
        .iter()
        .map(|f| games(std::path::Path::new(f)).len())
        .collect();
    assert_eq!(sizes, vec![4, 4, 4], "whole pairs dealt out in turn");

    let mut m = vec!["merge".to_string()];
    m.extend(shard_files.iter().cloned());
    m.extend(args(&[
        "--json",
        &s.path("merged.jsonl").display().to_string(),
    ]));
    m.extend(args(&[
        "--table-json",
        &s.path("merged.json").display().to_string(),
    ]));
    let out = tusk().arg("match").args(&m).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("12 games from 3 files"), "{stdout}");

    assert_eq!(
        sorted(games(&s.path("merged.jsonl"))),
        sorted(whole_games),
        "the merged shards are the whole match's games"
    );
    let table = |f: &str| -> serde_json::Value {
        serde_json::from_str::<serde_json::Value>(&std::fs::read_to_string(s.path(f)).unwrap())
            .unwrap()["table"]
            .clone()
    };
    assert_eq!(table("merged.json"), table("whole.json"));
    assert!(s.live_engines().is_empty());
}

#[test]
fn an_interrupted_match_resumes_without_losing_or_duplicating_games() {
    let s = Scratch::new("resume");
    let json = s.path("games.jsonl");
    let match_args = |json: &std::path::Path| {
        let mut a = args(&["--games", "8", "--concurrency", "2", "--setups", "random"]);
        for e in [
            s.fake("slow-a", "det 0.01 a"),
            s.fake("slow-b", "det 0.01 b"),
        ] {
            a.push("--engine".into());
            a.push(e);
        }
        a.extend(args(&["--json", &json.display().to_string()]));
        a
    };

    // Start, wait for two finished games, then Ctrl-C.
    let child = tusk()
        .arg("match")
        .args(match_args(&json))
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let started = Instant::now();
    loop {
        let n = std::fs::read_to_string(&json).map_or(0, |t| t.lines().count());
        if n >= 2 {
            break;
        }
        assert!(
            started.elapsed() < Duration::from_secs(120),
            "no games after 120 s"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    kill(Pid::from_raw(child.id() as i32), Signal::SIGINT).unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(130),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("run the same command again to resume"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        s.live_engines().is_empty(),
        "engines outlived the runner: {:?}",
        s.live_engines()
    );
    let before = games(&json);
    let k = before.len();
    assert!((2..8).contains(&k), "{k} games before the interrupt");

    // A torn last line, as if the runner had been killed while writing it.
    let text = std::fs::read_to_string(&json).unwrap();
    let first = text.lines().next().unwrap();
    std::fs::write(&json, format!("{text}{}", &first[..40])).unwrap();

    // Another match's file is refused.
    let mut other = match_args(&json);
    other.extend(args(&["--seed", "2"]));
    let o = tusk().arg("match").args(&other).output().unwrap();
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("belongs to another match"));

    let out = run_match(&match_args(&json));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("cut short"), "{stderr}");
    assert!(
        stderr.contains(&format!("{k} games done, {} to play", 8 - k)),
        "{stderr}"
    );
    let after = games(&json);
    assert_eq!(after.len(), 8, "no game lost or duplicated");
    assert_eq!(
        &after[..k],
        &before[..],
        "finished games are kept as they were"
    );
    let mut ids: Vec<u64> = after.iter().map(|g| g["id"].as_u64().unwrap()).collect();
    ids.sort_unstable();
    assert_eq!(ids, (0..8).collect::<Vec<_>>());

    // The same match played without interruption gives the same games.
    let fresh = s.path("fresh.jsonl");
    run_match(&match_args(&fresh));
    assert_eq!(sorted(after), sorted(games(&fresh)));
    assert!(s.live_engines().is_empty());
}

// kill -9 cannot be caught: the engines die with the runner because the kernel kills each
// one when its parent dies (simple_engine would otherwise spin forever on a closed stdin).
#[test]
fn engines_die_with_a_killed_runner() {
    let s = Scratch::new("sigkill");
    let mut a = args(&["--games", "4", "--concurrency", "2", "--tc", "5s/5s/100"]);
    for e in [s.marked_simple("s1", "0.05"), s.marked_simple("s2", "0.05")] {
        a.push("--engine".into());
        a.push(e);
    }
    let child = tusk()
        .arg("match")
        .args(&a)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while s.live_engines().len() < 4 {
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "engines never started"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    kill(Pid::from_raw(child.id() as i32), Signal::SIGKILL).unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), None, "killed by a signal");
    let killed = Instant::now();
    while !s.live_engines().is_empty() {
        assert!(
            killed.elapsed() < Duration::from_secs(5),
            "engines outlived a killed runner: {:?}",
            s.live_engines()
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}
