//! The searcher's resources under hostile settings, process-level: a transposition table larger
//! than the machine is refused with a message and the process goes on, a new game empties a
//! large table at once, thread counts beyond the machine are capped with a warning, and every
//! bad `hash` or `threads` value gets the one message with the real range.

mod aei_harness;

use std::process::{Command, Output};
use std::time::{Duration, Instant};

use aei_harness::{count, game_at, legal, Engine, START};

/// A size far beyond any machine this runs on: the documented maximum, 1 TiB.
const HUGE_HASH_MB: &str = "1048576";

fn tusk(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tusk"))
        .args(args)
        .output()
        .expect("tusk runs")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn machine_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

#[test]
fn aei_refuses_a_hash_beyond_the_machine_and_keeps_serving() {
    let mut e = Engine::start();
    e.handshake();
    e.send(&format!("setoption name hash value {HUGE_HASH_MB}"));
    let lines = e.sync();
    assert_eq!(count(&lines, "log Error"), 1, "{lines:?}");
    let error = &lines[0];
    assert!(
        error.contains("hash 1048576 MiB could not be allocated")
            && error.ends_with("kept the 64 MiB table"),
        "{error}"
    );
    // The session goes on with the table it had.
    e.send("newgame");
    e.send(&format!("setposition {START}"));
    e.send("setoption name depth value 4");
    assert!(e.sync().is_empty(), "{:?}", e.transcript);
    e.send("go");
    let mv = e.bestmove();
    assert!(legal(&game_at(START), &mv), "{mv}");
    // A later size that fits is taken.
    e.send("setoption name hash value 16");
    let lines = e.sync();
    assert_eq!(count(&lines, "log Error"), 0, "{lines:?}");
    assert!(
        e.wait_exit(Duration::ZERO).is_none(),
        "tusk is still running"
    );
}

#[test]
fn analyze_refuses_a_hash_beyond_the_machine_with_exit_status_1() {
    let o = tusk(&["analyze", "--hash", HUGE_HASH_MB, "--depth", "4"]);
    assert_eq!(o.status.code(), Some(1), "{o:?}");
    let err = stderr(&o);
    assert!(
        err.contains("hash 1048576 MiB could not be allocated"),
        "{err}"
    );
    assert!(!stdout(&o).contains("bestmove"), "{}", stdout(&o));
}

#[test]
fn newgame_empties_a_large_table_at_once() {
    let mut e = Engine::start();
    e.handshake();
    e.send("setoption name hash value 2048");
    let lines = e.sync();
    assert!(lines.is_empty(), "the 2 GiB table is made: {lines:?}");
    for _ in 0..3 {
        e.send("newgame");
        let asked = Instant::now();
        e.sync();
        let waited = asked.elapsed();
        assert!(
            waited < Duration::from_secs(1),
            "readyok {waited:?} after newgame"
        );
    }
    e.send(&format!("setposition {START}"));
    e.send("setoption name depth value 4");
    e.send("go");
    assert!(legal(&game_at(START), &e.bestmove()));
}

#[test]
fn aei_caps_threads_at_the_machine_with_a_warning() {
    let machine = machine_threads();
    let asked = 300;
    assert!(machine < asked, "a machine with {machine} threads");
    let mut e = Engine::start();
    e.handshake();
    e.send(&format!("setoption name threads value {asked}"));
    let lines = e.sync();
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(
        lines[0].starts_with("log Warning")
            && lines[0].contains(&format!("threads {asked}: capped at {machine}")),
        "{lines:?}"
    );
    e.send("newgame");
    e.send(&format!("setposition {START}"));
    e.send("setoption name depth value 4");
    let started = Instant::now();
    e.send("go");
    let mv = e.bestmove();
    assert!(legal(&game_at(START), &mv), "{mv}");
    assert!(
        started.elapsed() < Duration::from_secs(30),
        "{:?} for depth 4",
        started.elapsed()
    );
    // Every thread started: no warning about threads that could not.
    e.sync();
    assert_eq!(count(&e.transcript, "log Warning"), 1, "{:?}", e.transcript);
}

#[test]
fn analyze_caps_threads_at_the_machine_with_a_line_on_stderr() {
    let machine = machine_threads();
    assert!(machine < 300, "a machine with {machine} threads");
    let started = Instant::now();
    let o = tusk(&["analyze", "--threads", "300", "--depth", "4"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        started.elapsed() < Duration::from_secs(30),
        "{:?} for depth 4",
        started.elapsed()
    );
    let err = stderr(&o);
    assert!(
        err.contains(&format!("--threads 300: capped at {machine}")),
        "{err}"
    );
    assert!(stdout(&o).contains("bestmove "), "{}", stdout(&o));
}

#[test]
fn every_bad_hash_or_threads_value_gets_the_one_message_with_the_range() {
    let mut e = Engine::start();
    e.handshake();
    for (name, want) in [
        ("hash", "expected a size in MiB from 1 to 1048576"),
        ("threads", "expected a thread count from 1 to 1024"),
    ] {
        for value in ["-1", "0", "1.5", "abc", "2000000"] {
            e.send(&format!("setoption name {name} value {value}"));
            let lines = e.sync();
            assert_eq!(lines.len(), 1, "{name} {value}: {lines:?}");
            assert!(
                lines[0].starts_with("log Error") && lines[0].contains(want),
                "{name} {value}: {lines:?}"
            );
        }
    }
    for (flag, want) in [
        ("--hash", "must be a whole number from 1 to 1048576"),
        ("--threads", "must be a whole number from 1 to 1024"),
    ] {
        for value in ["-1", "0", "1.5", "abc", "2000000"] {
            let o = tusk(&["analyze", flag, value, "--depth", "1"]);
            assert_eq!(o.status.code(), Some(1), "{flag} {value}: {o:?}");
            let err = stderr(&o);
            assert!(
                err.contains(&format!("{flag} {value}: {want}")),
                "{flag} {value}: {err}"
            );
        }
    }
}
