//! Faults a hostile tester found (issue 18), each reproduced at the process level: the
//! process must neither abort, panic, hang, eat the memory, nor leave a controller waiting.

mod aei_harness;

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use aei_harness::{Engine, PATIENCE, START};

/// Runs `tusk args` with no input and returns what it did.
fn tusk(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tusk"))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("tusk starts")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Exit status 1 (an error, not clap's 2 and not a panic's 101) with `needle` on stderr.
fn assert_refused(args: &[&str], needle: &str) {
    let o = tusk(args);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "tusk {args:?}: {err}");
    assert!(err.contains(needle), "tusk {args:?}: {err}");
    assert!(!err.contains("panicked"), "tusk {args:?}: {err}");
}

#[test]
fn analyze_refuses_times_and_node_limits_out_of_range() {
    // Before: 1e308 and 1e20 panicked (exit 101), -1 was clap's "unexpected argument", and
    // --nodes 0 printed an unsearched move.
    for t in ["1e308", "1e20", "-1", "0", "nan", "inf"] {
        assert_refused(&["analyze", "--time", t], "--time");
    }
    assert_refused(&["analyze", "--time", "1e20"], "at most 1000000000");
    assert_refused(&["analyze", "--nodes", "0"], "--nodes 0");
}

#[test]
fn aei_huge_time_values_do_not_panic() {
    // Before: `go` after tcmove/tcreserve 1e300 panicked in Duration::from_secs_f64 (exit 101).
    let mut e = Engine::start();
    e.handshake();
    for (name, value) in [
        ("tcmove", "1e300"),
        ("tcreserve", "1e300"),
        ("tcmax", "1e300"),
    ] {
        e.send(&format!("setoption name {name} value {value}"));
    }
    e.send("newgame");
    e.send(&format!("setposition {START}"));
    e.send("setoption name depth value 4");
    e.send("go");
    let mv = e.bestmove();
    assert!(!mv.is_empty());
    // A controller's "forever" reserve at the next turn too.
    e.send("setoption name greserve value 1e300");
    e.send("setoption name moveused value 1e300");
    e.send("go");
    assert!(!e.bestmove().is_empty());
    e.send("isready");
    e.wait_for("readyok");
    e.send("quit");
    let status = e.wait_exit(PATIENCE).expect("tusk exits after quit");
    assert!(status.success(), "{status}");
}

#[test]
fn a_record_that_never_ends_is_refused() {
    // Before: `tusk eval --record /dev/zero` read until the kernel killed it (24 GB).
    let started = Instant::now();
    for cmd in ["eval", "analyze", "moves", "perft"] {
        assert_refused(&[cmd, "--record", "/dev/zero"], "larger than 16 MiB");
        assert_refused(&[cmd, "--position", "/dev/zero"], "larger than 16 MiB");
    }
    assert!(started.elapsed() < PATIENCE);
}

#[test]
fn aei_go_with_no_legal_turn_answers_resign() {
    // Gold's only piece, a rabbit on a1, is frozen by silver's elephant on a2 and blocked by
    // a dog on b1: no legal step. Before: no bestmove at all, so an untimed controller
    // waited for ever.
    let board = "g [       r                                        e       Rd      ]";
    let mut e = Engine::start();
    e.handshake();
    e.send(&format!("setposition {board}"));
    e.send("go");
    let lines = e.wait_for("bestmove");
    assert_eq!(lines.last().map(String::as_str), Some("bestmove resign"));
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("log Error:") && l.contains("no legal turn")),
        "{lines:?}"
    );
    e.send("isready");
    e.wait_for("readyok");
}

#[test]
fn aei_skips_an_endless_line_and_keeps_serving() {
    let mut e = Engine::start();
    e.handshake();
    let long = vec![b'x'; 4 << 20];
    e.send_raw(&long);
    e.send_raw(b"\nisready\n");
    let lines = e.wait_for("readyok");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("log Error: a line of 4194305 bytes was ignored")),
        "{lines:?}"
    );
    e.send("setoption name depth value 4");
    e.send(&format!("setposition {START}"));
    e.send("go");
    assert!(!e.bestmove().is_empty());
}

#[test]
fn aei_stops_searching_when_the_controller_stops_reading() {
    // An untimed `go`, then the controller closes its end of Tusk's output but not Tusk's
    // input. Before: Tusk searched on, a core busy, until the next input line.
    let mut child = Command::new(env!("CARGO_BIN_EXE_tusk"))
        .arg("aei")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("tusk starts");
    let mut stdin = child.stdin.take().expect("piped stdin");
    let mut out = BufReader::new(child.stdout.take().expect("piped stdout"));
    writeln!(stdin, "aei\nnewgame\nsetposition {START}\ngo").unwrap();
    stdin.flush().unwrap();
    let mut line = String::new();
    // Read until the search has reported a completed depth, then hang up.
    loop {
        line.clear();
        let n = out.read_line(&mut line).unwrap();
        assert!(n > 0, "tusk ended its output before searching");
        if line.starts_with("info depth") {
            break;
        }
    }
    drop(out);
    let started = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break Some(s);
        }
        if started.elapsed() > Duration::from_secs(30) {
            break None;
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    if status.is_none() {
        let _ = child.kill();
        let _ = child.wait();
    }
    drop(stdin);
    assert!(
        status.is_some(),
        "tusk still running 30 s after the controller closed its output"
    );
}
