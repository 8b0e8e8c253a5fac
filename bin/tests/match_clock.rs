//! The runner talks to engines exactly as pyrimaa's roundrobin does and keeps the same clock,
//! engine options (`bot_hash`/`bot_depth`/`bot_nodes` there, `option.hash`, `depth`, `nodes`
//! here) included:
//! the same scripted game is played once under `roundrobin` and once under `tusk match`, and
//! the transcripts the two engines received (handshake, tc options, newgame, greserve /
//! sreserve / moveused before each go, makemoves) are compared line by line. The engines
//! think for scripted times chosen so that the whole seconds sent as reserves are not on a
//! boundary, and gold's fourth turn overruns its reserve: both controllers must score a loss
//! on time at the same move.
//!
//! Time control 1s/2s/50/3s (setups leave reserves alone). Thinking takes a little longer
//! than scripted (wake-up, pipes), which only lowers a reserve, so every reserve is kept at
//! least 0.4 s above the whole second it is sent as. Gold thinks 0.2, 1.6, 1.3 then 3.5 s:
//! its reserve goes 2 → 2.4 → 1.8 → 1.5, sent before 1g..5g as 2, 2, 2, 1, 1; its 5g deadline
//! is 1 + 1.5 s, which 3.5 s overruns by a second. Silver thinks 1.4, 0.3, 0.2 s: 2 → 1.6 →
//! 1.95 → 2.35, sent before 1s..4s as 2, 2, 1, 1 (and as 2 to gold before 5g).

mod match_common;
mod support;

use std::process::Command;

use match_common::{args, games, run_match, Scratch};

const GOLD: &str = "0.2,1.6,1.3,3.5";
const SILVER: &str = "1.4,0.3,0.2";

fn read(p: &std::path::Path) -> Vec<String> {
    std::fs::read_to_string(p)
        .unwrap_or_else(|e| panic!("{}: {e}", p.display()))
        .lines()
        .map(str::to_string)
        .collect()
}

/// The transcript up to and including its last `go` (after a time-out roundrobin sends the
/// late engine `stop` and `quit`, tusk kills it).
fn through_last_go(t: &[String]) -> Vec<String> {
    let last = t.iter().rposition(|l| l == "go").expect("a go");
    t[..=last].to_vec()
}

#[test]
fn same_transcripts_and_result_as_roundrobin() {
    let s = Scratch::new("clock");
    let fake = s.path("fake_engine.py");
    let py = s.python.display().to_string();
    let engine_cmd = |log: &str, delays: &str| {
        format!(
            "{py} {} script {} {delays}",
            fake.display(),
            s.path(log).display()
        )
    };

    // roundrobin.
    let cfg = format!(
        "[global]\nrounds = 1\nloglevel = WARN\ntimecontrol = 1s/2s/50/3s\nstrict_setup = True\n\
         bots = gold silver\n\n[gold]\ncmdline = {}\nbot_hash = 16\nbot_depth = 8\n\n\
         [silver]\ncmdline = {}\nbot_nodes = 500\n",
        engine_cmd("rr-gold.log", GOLD),
        engine_cmd("rr-silver.log", SILVER)
    );
    std::fs::write(s.path("roundrobin.cfg"), cfg).unwrap();
    let rr = Command::new(&s.python)
        .args(["-m", "pyrimaa.roundrobin"])
        .current_dir(&s.dir)
        .output()
        .unwrap();
    let rr_out = String::from_utf8_lossy(&rr.stdout);
    assert!(
        rr.status.success(),
        "{rr_out}{}",
        String::from_utf8_lossy(&rr.stderr)
    );
    assert!(
        rr_out.contains("silver beat gold because of t playing side s"),
        "{rr_out}"
    );

    // tusk match.
    let json = s.path("games.jsonl");
    let mut a = args(&["--tc", "1s/2s/50/3s", "--games", "1"]);
    a.push("--engine".into());
    a.push(format!(
        "name=gold,cmd='{}',option.hash=16,depth=8",
        engine_cmd("tm-gold.log", GOLD)
    ));
    a.push("--engine".into());
    a.push(format!(
        "name=silver,cmd='{}',nodes=500",
        engine_cmd("tm-silver.log", SILVER)
    ));
    a.extend(args(&["--json", &json.display().to_string()]));
    run_match(&a);
    let g = &games(&json)[0];
    assert_eq!(
        (g["winner"].as_str(), g["reason"].as_str()),
        (Some("s"), Some("t"))
    );
    assert_eq!(
        g["moves"].as_array().unwrap().len(),
        8,
        "gold lost on time at 5g"
    );

    let (rg, tg) = (read(&s.path("rr-gold.log")), read(&s.path("tm-gold.log")));
    let (rs, ts) = (
        read(&s.path("rr-silver.log")),
        read(&s.path("tm-silver.log")),
    );
    assert_eq!(
        through_last_go(&tg),
        through_last_go(&rg),
        "gold's transcript"
    );
    assert_eq!(ts, rs, "silver's transcript");
    // Engine options (roundrobin's bot_*; tusk's option.K, depth, nodes) come after the
    // handshake, before the time control.
    assert_eq!(
        &tg[2..4],
        [
            "setoption name hash value 16",
            "setoption name depth value 8"
        ]
    );
    assert_eq!(ts[2], "setoption name nodes value 500");
    // The reserves really were the scripted ones (the comparison is not vacuous).
    let sent: Vec<&str> = tg
        .iter()
        .filter_map(|l| l.strip_prefix("setoption name greserve value "))
        .collect();
    assert_eq!(sent, vec!["2", "2", "2", "1", "1"]);
    let sent: Vec<&str> = ts
        .iter()
        .filter_map(|l| l.strip_prefix("setoption name sreserve value "))
        .collect();
    assert_eq!(sent, vec!["2", "2", "1", "1"]);
    assert!(s.live_engines().is_empty());
}
