//! `tusk datagen` as a user runs it, at a tiny effort: the games replay legally to their
//! recorded end in the engine crate and in `pyrimaa.board` (the match replay check); a run cut
//! short (a torn last line, a killed process) resumes to exactly the lines of an uninterrupted
//! run; threads and shards change which process plays a game, never the game.

mod match_common;
mod support;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use match_common::pyrimaa_replay;
use tusk_engine::Game;

/// The settings of every run here: small and fast.
const RUN: &[&str] = &[
    "datagen",
    "--games",
    "6",
    "--nodes",
    "200",
    "--seed",
    "5",
    "--random-turns",
    "4",
    "--hash",
    "2",
];

fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("datagen-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn datagen(out: &Path, extra: &[&str]) -> Output {
    let o = Command::new(env!("CARGO_BIN_EXE_tusk"))
        .args(RUN)
        .args(extra)
        .arg("--out")
        .arg(out)
        .output()
        .expect("tusk runs");
    o
}

fn ok(o: &Output) -> String {
    assert!(
        o.status.success(),
        "datagen failed: {}\n{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn lines(p: &Path) -> Vec<String> {
    std::fs::read_to_string(p)
        .unwrap()
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(str::to_string)
        .collect()
}

fn set(p: &Path) -> BTreeSet<String> {
    let v = lines(p);
    let s: BTreeSet<String> = v.iter().cloned().collect();
    assert_eq!(s.len(), v.len(), "a game written twice in {}", p.display());
    s
}

/// The reference run: all six games on two threads, played once for every test here.
fn reference() -> &'static (PathBuf, BTreeSet<String>) {
    static REFERENCE: OnceLock<(PathBuf, BTreeSet<String>)> = OnceLock::new();
    REFERENCE.get_or_init(|| {
        let full = scratch("reference").join("full.jsonl");
        let out = ok(&datagen(&full, &["--threads", "2"]));
        assert!(out.contains("datagen: 6 games written"), "{out}");
        let games = set(&full);
        (full, games)
    })
}

#[test]
fn games_replay_to_their_recorded_end_in_the_engine_and_in_pyrimaa() {
    let (full, games) = reference();
    for line in games {
        let g: serde_json::Value = serde_json::from_str(line).unwrap();
        let moves: Vec<&str> = g["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m.as_str().unwrap())
            .collect();
        let searched = g["scores"].as_array().unwrap().len();
        let random = g["random_turns"].as_u64().unwrap() as usize;
        assert_eq!(moves.len(), 2 + random + searched, "{line}");
        assert_eq!(g["depths"].as_array().unwrap().len(), searched);
        let mut game = Game::new();
        for (i, m) in moves.iter().enumerate() {
            let (label, text) = m.split_once(' ').unwrap();
            assert_eq!(
                label,
                format!("{}{}", i / 2 + 1, ["g", "s"][i % 2]),
                "{line}"
            );
            assert!(game.result().is_none(), "moves after the end: {line}");
            game.play_text(text)
                .unwrap_or_else(|e| panic!("{m}: {e}: {line}"));
        }
        let r = game.result().expect("the rules ended the game");
        assert_eq!(g["winner"], r.winner.letter().to_string());
        assert!(["g", "e", "m"].contains(&g["reason"].as_str().unwrap()));
        assert!(g["detail"].as_str().unwrap().contains(r.reason.name()));
    }
    let python = support::aei_python();
    let (pass, out) = pyrimaa_replay(&python, full);
    assert!(pass, "{out}");
    assert!(out.contains("checked 6 games"), "{out}");
}

#[test]
fn an_interrupted_run_resumes_to_exactly_the_same_games() {
    let dir = scratch("resume");
    let (full, want) = reference();
    let want = want.clone();
    let full = lines(full);

    // A torn last line: three whole games and half of a fourth.
    let torn = dir.join("torn.jsonl");
    let half = &full[3][..full[3].len() / 2];
    std::fs::write(
        &torn,
        format!("{}\n{}\n{}\n{half}", full[0], full[1], full[2]),
    )
    .unwrap();
    let o = datagen(&torn, &["--threads", "2"]);
    let out = ok(&o);
    assert!(out.contains("datagen: 3 games written"), "{out}");
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("the last line was cut short"),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert_eq!(set(&torn), want);

    // A process killed mid-run (on one thread this time), then resumed.
    let killed = dir.join("killed.jsonl");
    let mut child = Command::new(env!("CARGO_BIN_EXE_tusk"))
        .args(RUN)
        .args(["--threads", "1", "--out"])
        .arg(&killed)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let t = Instant::now();
    while std::fs::read_to_string(&killed).map_or(0, |s| s.lines().count()) < 2 {
        assert!(t.elapsed() < Duration::from_secs(120), "no games written");
        std::thread::sleep(Duration::from_millis(20));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let before = std::fs::read_to_string(&killed).unwrap().lines().count();
    assert!(before < 6, "the run finished before it was killed");
    ok(&datagen(&killed, &["--threads", "1"]));
    assert_eq!(set(&killed), want);

    // Nothing left to play: the file stays as it is.
    let o = ok(&datagen(&killed, &[]));
    assert!(o.contains("datagen: 0 games written"), "{o}");
    assert_eq!(set(&killed), want);

    // Other settings are refused rather than mixed in.
    let o = Command::new(env!("CARGO_BIN_EXE_tusk"))
        .args([
            "datagen", "--games", "8", "--nodes", "301", "--seed", "5", "--out",
        ])
        .arg(&killed)
        .output()
        .unwrap();
    assert!(!o.status.success());
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("was played with other settings"),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
}

#[test]
fn shards_split_the_run_into_the_same_games() {
    let dir = scratch("shards");
    let want = reference().1.clone();
    let mut union = BTreeSet::new();
    for k in ["1/3", "2/3", "3/3"] {
        let f = dir.join(format!("shard{}.jsonl", &k[..1]));
        ok(&datagen(&f, &["--shard", k]));
        let ids: Vec<u64> = lines(&f)
            .iter()
            .map(|l| {
                serde_json::from_str::<serde_json::Value>(l).unwrap()["id"]
                    .as_u64()
                    .unwrap()
            })
            .collect();
        let shard: u64 = k[..1].parse().unwrap();
        assert!(ids.iter().all(|i| i % 3 == shard - 1), "{k}: {ids:?}");
        union.extend(set(&f));
    }
    assert_eq!(union, want);
}
