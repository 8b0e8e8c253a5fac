//! An engine child process: started through `sh -c` in its own process group, stdout read by
//! a thread that timestamps every line, and a process-wide registry so that every child can be
//! killed on any exit path (normal end, error, Ctrl-C).

use std::collections::HashSet;
use std::io::{BufRead, BufReader, Write};
use std::os::unix::process::CommandExt;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use nix::sys::signal::{killpg, Signal};
use nix::unistd::Pid;

/// Process groups of the live children. Locked while spawning so that [`kill_all`] never
/// misses a child that is being started.
static CHILDREN: Mutex<Option<HashSet<i32>>> = Mutex::new(None);

/// Set by [`kill_all`]: no new child may start after it.
static CLOSED: Mutex<bool> = Mutex::new(false);

fn registry() -> std::sync::MutexGuard<'static, Option<HashSet<i32>>> {
    CHILDREN.lock().unwrap_or_else(|e| e.into_inner())
}

/// Kills every registered child's process group and refuses new ones. Safe to call from
/// the Ctrl-C handler thread and more than once.
pub fn kill_all() {
    *CLOSED.lock().unwrap_or_else(|e| e.into_inner()) = true;
    let reg = registry();
    if let Some(set) = reg.as_ref() {
        for &pgid in set {
            let _ = killpg(Pid::from_raw(pgid), Signal::SIGKILL);
        }
    }
}

/// The line given to `sh -c`: a plain command (words only, no shell operators) is prefixed
/// with `exec`, so the engine replaces the shell and is itself the child that
/// [`die_with_parent`] covers; anything else runs as written.
fn shell_line(cmd: &str) -> String {
    let plain = !cmd.contains(|c: char| "';&|<>()$`\\\"\n*?[]{}~#=".contains(c));
    if plain && !cmd.trim().is_empty() {
        format!("exec {cmd}")
    } else {
        cmd.to_string()
    }
}

/// Asks the kernel to kill the child when the thread that started it dies, so that not even
/// a `kill -9` of the runner leaves an engine behind (Linux only; elsewhere the engines see
/// their input close).
#[allow(unsafe_code)]
fn die_with_parent(command: &mut Command) {
    #[cfg(target_os = "linux")]
    // SAFETY: the closure runs in the forked child before exec and only makes the prctl(2)
    // system call, which is async-signal-safe; it neither allocates nor touches locks.
    unsafe {
        command.pre_exec(|| {
            nix::sys::prctl::set_pdeathsig(Signal::SIGKILL)
                .map_err(|e| std::io::Error::from_raw_os_error(e as i32))
        });
    }
    #[cfg(not(target_os = "linux"))]
    let _ = command;
}

/// One message from the engine's stdout.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Received {
    /// A non-empty line (trailing `\r` removed) and when it was read.
    Line(Instant, String),
    /// The engine closed its stdout (it exited or crashed).
    Eof,
    /// Nothing arrived before the deadline.
    Timeout,
}

/// A running engine process.
pub struct EngineProc {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<(Instant, String)>,
    pgid: i32,
    eof: bool,
}

impl EngineProc {
    /// Starts `cmd` with `sh -c` in its own process group, stdin and stdout piped, stderr
    /// discarded (or appended to `stderr_log` when given).
    pub fn spawn(cmd: &str, stderr_log: Option<&std::path::Path>) -> std::io::Result<EngineProc> {
        let stderr = match stderr_log {
            Some(p) => Stdio::from(
                std::fs::OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(p)?,
            ),
            None => Stdio::null(),
        };
        let mut reg = registry();
        if *CLOSED.lock().unwrap_or_else(|e| e.into_inner()) {
            return Err(std::io::Error::other("the match is shutting down"));
        }
        let mut command = Command::new("sh");
        command
            .arg("-c")
            .arg(shell_line(cmd))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(stderr)
            .process_group(0);
        die_with_parent(&mut command);
        let mut child = command.spawn()?;
        let pgid = child.id() as i32;
        reg.get_or_insert_with(HashSet::new).insert(pgid);
        drop(reg);
        let stdout = child
            .stdout
            .take()
            .ok_or_else(|| std::io::Error::other("no stdout pipe"))?;
        let stdin = child.stdin.take();
        let (tx, rx) = mpsc::channel();
        std::thread::Builder::new()
            .name(format!("engine-{pgid}-reader"))
            .spawn(move || {
                let mut r = BufReader::new(stdout);
                let mut buf = Vec::new();
                loop {
                    buf.clear();
                    match r.read_until(b'\n', &mut buf) {
                        Ok(0) | Err(_) => break,
                        Ok(_) => {
                            let now = Instant::now();
                            let text = String::from_utf8_lossy(&buf);
                            let line = text.trim_end_matches(['\n', '\r']).trim();
                            if line.is_empty() {
                                continue;
                            }
                            if tx.send((now, line.to_string())).is_err() {
                                break;
                            }
                        }
                    }
                }
            })?;
        Ok(EngineProc {
            child,
            stdin,
            lines: rx,
            pgid,
            eof: false,
        })
    }

    /// Sends one line. An error means the engine is gone.
    pub fn send(&mut self, line: &str) -> std::io::Result<()> {
        let stdin = self
            .stdin
            .as_mut()
            .ok_or_else(|| std::io::Error::from(std::io::ErrorKind::BrokenPipe))?;
        stdin.write_all(line.as_bytes())?;
        stdin.write_all(b"\n")?;
        stdin.flush()
    }

    /// The next line, waiting until `deadline` (forever if `None`).
    pub fn recv(&mut self, deadline: Option<Instant>) -> Received {
        if self.eof {
            return Received::Eof;
        }
        let got = match deadline {
            None => self
                .lines
                .recv()
                .map_err(|_| RecvTimeoutError::Disconnected),
            Some(d) => self
                .lines
                .recv_timeout(d.saturating_duration_since(Instant::now())),
        };
        match got {
            Ok((t, l)) => Received::Line(t, l),
            Err(RecvTimeoutError::Timeout) => Received::Timeout,
            Err(RecvTimeoutError::Disconnected) => {
                self.eof = true;
                Received::Eof
            }
        }
    }

    /// Drops every line already received (after a game, before the next `newgame`).
    pub fn drain(&mut self) {
        while self.lines.try_recv().is_ok() {}
    }

    /// Whether the process has exited, with its status text.
    pub fn exit_status(&mut self) -> Option<String> {
        match self.child.try_wait() {
            Ok(Some(s)) => Some(s.to_string()),
            _ => None,
        }
    }

    /// Sends `quit`, waits up to `grace` for the process to exit, then kills its group.
    pub fn quit(mut self, grace: Duration) {
        let _ = self.send("quit");
        self.stdin = None;
        let end = Instant::now() + grace;
        while Instant::now() < end {
            if let Ok(Some(_)) = self.child.try_wait() {
                break;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        // Drop kills the group (any grandchildren too) and reaps the child.
    }

    /// Kills the process group now and reaps the child.
    pub fn kill(self) {}
}

impl Drop for EngineProc {
    fn drop(&mut self) {
        self.stdin = None;
        let mut reg = registry();
        let _ = killpg(Pid::from_raw(self.pgid), Signal::SIGKILL);
        let _ = self.child.wait();
        if let Some(set) = reg.as_mut() {
            set.remove(&self.pgid);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_lines_with_deadlines_and_sees_eof() {
        let mut p = EngineProc::spawn("read x; echo \"got $x\"; printf 'a\\r\\n\\nb\\n'", None)
            .expect("sh runs");
        let soon = Some(Instant::now() + Duration::from_millis(200));
        assert_eq!(p.recv(soon), Received::Timeout);
        p.send("hello").unwrap();
        let far = Some(Instant::now() + Duration::from_secs(10));
        for want in ["got hello", "a", "b"] {
            match p.recv(far) {
                Received::Line(_, l) => assert_eq!(l, want),
                other => panic!("{other:?}"),
            }
        }
        assert_eq!(p.recv(far), Received::Eof);
    }

    #[test]
    fn plain_commands_are_execed_and_others_left_to_the_shell() {
        assert_eq!(shell_line("./tusk aei"), "exec ./tusk aei");
        assert_eq!(
            shell_line("python -m pyrimaa.simple_engine"),
            "exec python -m pyrimaa.simple_engine"
        );
        assert_eq!(shell_line("cd x && ./e"), "cd x && ./e");
        assert_eq!(shell_line("E=1 ./e"), "E=1 ./e");
        assert_eq!(shell_line("./e 'a b'"), "./e 'a b'");
    }

    /// Processes of group `pgid` that are not zombies, from /proc/*/stat.
    fn live_in_group(pgid: i32) -> usize {
        let mut n = 0;
        for e in std::fs::read_dir("/proc").unwrap().flatten() {
            let Ok(stat) = std::fs::read_to_string(e.path().join("stat")) else {
                continue;
            };
            // pid (comm) state ppid pgrp ...
            let Some(rest) = stat.rsplit_once(')').map(|(_, r)| r) else {
                continue;
            };
            let f: Vec<&str> = rest.split_whitespace().collect();
            if f.len() > 2 && f[2] == pgid.to_string() && f[0] != "Z" {
                n += 1;
            }
        }
        n
    }

    #[test]
    fn dropping_kills_the_whole_group() {
        let p = EngineProc::spawn("sleep 30 & sleep 30; echo never", None).unwrap();
        let pgid = p.pgid;
        let t = Instant::now();
        while live_in_group(pgid) < 2 {
            assert!(
                t.elapsed() < Duration::from_secs(5),
                "sh and its background sleep"
            );
            std::thread::sleep(Duration::from_millis(10));
        }
        drop(p);
        // No process of the group is left running (a killed orphan may stay a zombie until
        // init reaps it).
        let t = Instant::now();
        while live_in_group(pgid) > 0 {
            assert!(
                t.elapsed() < Duration::from_secs(5),
                "the group outlived the drop"
            );
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}
