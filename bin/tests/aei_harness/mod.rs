//! Drives `tusk aei` as a child process over pipes, as a controller does: every line Tusk
//! writes is collected by a thread, so a test can wait for a line with a time limit or check
//! that nothing arrives for a while.

#![allow(dead_code)]

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use tusk_engine::Game;

/// The standard opening, gold to move.
pub const START: &str = tusk_engine::notation::board::STANDARD_OPENING;

/// How long a test waits for a line that must come (generous: CI machines are shared).
pub const PATIENCE: Duration = Duration::from_secs(60);

/// A running `tusk aei`.
pub struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    /// Every line received so far, in order.
    pub transcript: Vec<String>,
}

impl Engine {
    /// Starts `tusk aei`.
    pub fn start() -> Engine {
        Engine::start_args(&["aei"])
    }

    /// Starts `tusk` with `args`.
    pub fn start_args(args: &[&str]) -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_tusk"))
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("tusk starts");
        let stdout = child.stdout.take().expect("piped stdout");
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { return };
                if tx.send(line).is_err() {
                    return;
                }
            }
        });
        let stdin = child.stdin.take();
        Engine {
            child,
            stdin,
            lines: rx,
            transcript: Vec::new(),
        }
    }

    /// Sends `text` followed by a line feed.
    pub fn send(&mut self, text: &str) {
        self.send_raw(format!("{text}\n").as_bytes());
    }

    /// Sends bytes as they are.
    pub fn send_raw(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin still open");
        stdin.write_all(bytes).expect("write to tusk");
        stdin.flush().expect("flush to tusk");
    }

    /// Closes Tusk's input (end of file).
    pub fn close_input(&mut self) {
        self.stdin = None;
    }

    /// The next line, or `None` if none comes within `timeout`.
    pub fn next_line(&mut self, timeout: Duration) -> Option<String> {
        match self.lines.recv_timeout(timeout) {
            Ok(l) => {
                self.transcript.push(l.clone());
                Some(l)
            }
            Err(RecvTimeoutError::Timeout | RecvTimeoutError::Disconnected) => None,
        }
    }

    /// Lines up to and including the first that starts with `prefix`; panics (showing the
    /// transcript) if none comes within [`PATIENCE`].
    pub fn wait_for(&mut self, prefix: &str) -> Vec<String> {
        self.wait_for_within(prefix, PATIENCE)
    }

    /// [`Engine::wait_for`] with a time limit.
    pub fn wait_for_within(&mut self, prefix: &str, limit: Duration) -> Vec<String> {
        let end = Instant::now() + limit;
        let mut got = Vec::new();
        loop {
            let left = end.saturating_duration_since(Instant::now());
            match self.next_line(left) {
                Some(l) => {
                    let done = l.starts_with(prefix);
                    got.push(l);
                    if done {
                        return got;
                    }
                }
                None => panic!(
                    "no line starting with {prefix:?} within {limit:?}; transcript:\n{}",
                    self.transcript.join("\n")
                ),
            }
        }
    }

    /// Everything that arrives within `period`.
    pub fn collect_for(&mut self, period: Duration) -> Vec<String> {
        let end = Instant::now() + period;
        let mut got = Vec::new();
        while let Some(l) = self.next_line(end.saturating_duration_since(Instant::now())) {
            got.push(l);
        }
        got
    }

    /// The move of the next `bestmove` line.
    pub fn bestmove(&mut self) -> String {
        let lines = self.wait_for("bestmove");
        lines
            .last()
            .and_then(|l| l.strip_prefix("bestmove "))
            .map(str::to_string)
            .expect("a bestmove line has a move")
    }

    /// Sends `isready` and waits for `readyok`; returns the lines before it.
    pub fn sync(&mut self) -> Vec<String> {
        self.send("isready");
        let mut lines = self.wait_for("readyok");
        lines.pop();
        lines
    }

    /// The opening handshake; returns its lines (up to `aeiok`).
    pub fn handshake(&mut self) -> Vec<String> {
        self.send("aei");
        self.wait_for_within("aeiok", Duration::from_secs(5))
    }

    /// The exit status, if Tusk exits within `limit`.
    pub fn wait_exit(&mut self, limit: Duration) -> Option<ExitStatus> {
        let end = Instant::now() + limit;
        while Instant::now() < end {
            if let Ok(Some(status)) = self.child.try_wait() {
                return Some(status);
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        None
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Whether `mv` is a legal move in `game` (a setup in the setup phase, a turn after it that
/// changes the board and repeats no position a third time).
pub fn legal(game: &Game, mv: &str) -> bool {
    game.clone().play_text(mv).is_ok()
}

/// The game at a position given as `<side> [64 cells]`.
pub fn game_at(text: &str) -> Game {
    let pos = tusk_engine::notation::board::parse_aei(text).expect("a valid test position");
    Game::from_position(pos, 2)
}

/// How many lines of `lines` start with `prefix`.
pub fn count(lines: &[String], prefix: &str) -> usize {
    lines.iter().filter(|l| l.starts_with(prefix)).count()
}

/// What a controller run printed.
pub struct Run {
    /// Exit status.
    pub status: ExitStatus,
    /// Standard output.
    pub stdout: String,
    /// Standard error.
    pub stderr: String,
}

/// Runs `python -m <module> <args>` in `dir`, killing it after `limit` (then it panics).
pub fn run_controller(
    python: &std::path::Path,
    module: &str,
    args: &[&str],
    dir: &std::path::Path,
    limit: Duration,
) -> Run {
    let mut child = Command::new(python)
        .arg("-m")
        .arg(module)
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {python:?} -m {module}: {e}"));
    let read = |r: Option<Box<dyn std::io::Read + Send>>| {
        std::thread::spawn(move || {
            let mut s = String::new();
            if let Some(mut r) = r {
                let _ = r.read_to_string(&mut s);
            }
            s
        })
    };
    let out = read(child.stdout.take().map(|s| Box::new(s) as _));
    let err = read(child.stderr.take().map(|s| Box::new(s) as _));
    let end = Instant::now() + limit;
    let status = loop {
        if let Ok(Some(status)) = child.try_wait() {
            break status;
        }
        if Instant::now() >= end {
            let _ = child.kill();
            let _ = child.wait();
            let (o, e) = (
                out.join().unwrap_or_default(),
                err.join().unwrap_or_default(),
            );
            panic!("{module} ran past {limit:?}; stdout:\n{o}\nstderr:\n{e}");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    Run {
        status,
        stdout: out.join().unwrap_or_default(),
        stderr: err.join().unwrap_or_default(),
    }
}

/// A fresh directory under the target's temporary directory.
pub fn scratch_dir(name: &str) -> std::path::PathBuf {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create a scratch directory");
    dir
}

/// `tusk aei` as a shell command line for a controller's `cmdline`.
pub fn tusk_cmdline() -> String {
    format!("'{}' aei", env!("CARGO_BIN_EXE_tusk"))
}
