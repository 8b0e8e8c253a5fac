//! An engine child process: started through `sh -c`, stdout read by a thread that timestamps
//! every line, stderr read by another that keeps its last few kilobytes (and appends it to a
//! log file when asked), and the register of a run's [`Children`] so that every child can be
//! killed on any exit path (normal end, error, Ctrl-C).
//!
//! On Unix each engine runs in its own process group, which is killed whole (an engine's own
//! children die with it), and on Linux the kernel kills the engine when the runner dies. On
//! other systems the fallback is [`std::process::Child::kill`] of the engine alone.

use std::collections::{HashMap, VecDeque};
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

#[cfg(unix)]
use unix_group::{prepare, Group};

#[cfg(not(unix))]
use portable::{prepare, Group};

/// How many bytes of an engine's standard error are kept in memory, to be shown when the
/// engine cannot be started.
pub const STDERR_TAIL_BYTES: usize = 4096;

/// Locks a mutex, going on with the data of a thread that panicked while holding it (every
/// value behind these locks stays consistent between statements).
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// The live engines of one run, so that all of them can be killed at once (on Ctrl-C, on an
/// error, when the run ends), and whether new ones may still start.
#[derive(Default)]
pub struct Children(Mutex<ChildrenState>);

#[derive(Default)]
struct ChildrenState {
    /// By process id.
    groups: HashMap<u32, Group>,
    /// Set by [`Children::kill_all`]: no new child may start after it.
    closed: bool,
}

impl Children {
    /// A register with no engine yet.
    pub fn new() -> Arc<Children> {
        Arc::new(Children::default())
    }

    /// Kills every registered child (its process group on Unix) and refuses new ones. Safe to
    /// call from the Ctrl-C handler thread and more than once.
    pub fn kill_all(&self) {
        let mut state = lock(&self.0);
        state.closed = true;
        for group in state.groups.values() {
            group.kill();
        }
    }
}

/// The process-group layer on Unix: the engine leads its own group, which is killed whole.
#[cfg(unix)]
mod unix_group {
    use std::os::unix::process::CommandExt;
    use std::process::{Child, Command};
    use std::sync::{Arc, Mutex};

    use nix::sys::signal::{killpg, Signal};
    use nix::unistd::Pid;

    /// Starts the engine in a process group of its own, and on Linux asks the kernel to kill
    /// it when the thread that started it dies, so that not even a `kill -9` of the runner
    /// leaves an engine behind (elsewhere the engines see their input close).
    #[allow(unsafe_code)]
    pub fn prepare(command: &mut Command) {
        command.process_group(0);
        #[cfg(target_os = "linux")]
        // SAFETY: the closure runs in the forked child before exec and only makes the prctl(2)
        // system call, which is async-signal-safe; it neither allocates nor touches locks.
        unsafe {
            command.pre_exec(|| {
                nix::sys::prctl::set_pdeathsig(Signal::SIGKILL)
                    .map_err(|e| std::io::Error::from_raw_os_error(e as i32))
            });
        }
    }

    /// An engine's process group (its id is the engine's process id).
    pub struct Group(i32);

    impl Group {
        /// The group that `child`, started with [`prepare`], leads.
        pub fn new(child: &Arc<Mutex<Child>>) -> Group {
            Group(super::lock(child).id() as i32)
        }

        /// Kills every process of the group.
        pub fn kill(&self) {
            let _ = killpg(Pid::from_raw(self.0), Signal::SIGKILL);
        }

        /// The group id.
        #[cfg(test)]
        pub fn id(&self) -> i32 {
            self.0
        }
    }
}

/// The portable fallback: the engine alone is killed. Compiled everywhere (and tested on
/// Unix), used where there is no process group.
#[cfg_attr(unix, allow(dead_code))]
mod portable {
    use std::process::{Child, Command};
    use std::sync::{Arc, Mutex};

    /// Nothing to prepare.
    pub fn prepare(_command: &mut Command) {}

    /// The engine process itself.
    pub struct Group(Arc<Mutex<Child>>);

    impl Group {
        /// The engine `child`.
        pub fn new(child: &Arc<Mutex<Child>>) -> Group {
            Group(Arc::clone(child))
        }

        /// Kills the engine.
        pub fn kill(&self) {
            let _ = super::lock(&self.0).kill();
        }
    }
}

/// The line given to `sh -c`: a plain command (words only, no shell operators) is prefixed
/// with `exec`, so the engine replaces the shell and is itself the child that the kernel
/// kills with the runner; anything else runs as written.
fn shell_line(cmd: &str) -> String {
    let plain = !cmd.contains(|c: char| "';&|<>()$`\\\"\n*?[]{}~#=".contains(c));
    if plain && !cmd.trim().is_empty() {
        format!("exec {cmd}")
    } else {
        cmd.to_string()
    }
}

/// The last [`STDERR_TAIL_BYTES`] bytes an engine wrote to its standard error, fed by the
/// thread that reads it. Cloning gives another handle on the same buffer.
#[derive(Clone, Default)]
pub struct StderrTail(Arc<(Mutex<TailState>, Condvar)>);

#[derive(Default)]
struct TailState {
    bytes: VecDeque<u8>,
    dropped: bool,
    closed: bool,
}

impl StderrTail {
    fn push(&self, chunk: &[u8]) {
        let mut s = lock(&self.0 .0);
        s.bytes.extend(chunk);
        let excess = s.bytes.len().saturating_sub(STDERR_TAIL_BYTES);
        if excess > 0 {
            s.bytes.drain(..excess);
            s.dropped = true;
        }
    }

    fn close(&self) {
        lock(&self.0 .0).closed = true;
        self.0 .1.notify_all();
    }

    /// Waits until the engine's standard error is closed (all its processes are gone), at
    /// most `timeout`; returns whether it is.
    pub fn wait_closed(&self, timeout: Duration) -> bool {
        let guard = lock(&self.0 .0);
        let (guard, _) = self
            .0
             .1
            .wait_timeout_while(guard, timeout, |s| !s.closed)
            .unwrap_or_else(|e| e.into_inner());
        guard.closed
    }

    /// The kept text (invalid UTF-8 replaced), starting with `...` when older output was
    /// dropped.
    pub fn text(&self) -> String {
        let s = lock(&self.0 .0);
        let bytes: Vec<u8> = s.bytes.iter().copied().collect();
        let text = String::from_utf8_lossy(&bytes);
        if s.dropped {
            format!("...{text}")
        } else {
            text.into_owned()
        }
    }
}

/// Reads the engine's standard error until it closes: each chunk is appended to `log` (when
/// given) and kept in `tail`.
fn read_stderr(mut stderr: impl Read, mut log: Option<std::fs::File>, tail: StderrTail) {
    let mut buf = [0u8; 4096];
    loop {
        match stderr.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => {
                if let Some(f) = log.as_mut() {
                    // A log that cannot be written is given up; the engine must not block.
                    if f.write_all(&buf[..n]).is_err() {
                        log = None;
                    }
                }
                tail.push(&buf[..n]);
            }
        }
    }
    tail.close();
}

/// Reads the engine's standard output line by line, sending each non-empty line (trailing
/// `\r` and blanks removed) with the instant it was read.
fn read_stdout(stdout: impl Read, tx: mpsc::Sender<(Instant, String)>) {
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

/// How an engine process ended, for an error message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ended {
    /// The exit status, when the engine had exited by itself before it was killed.
    pub status: Option<String>,
    /// The last bytes of its standard error.
    pub stderr: String,
}

/// A running engine process.
pub struct EngineProc {
    child: Arc<Mutex<Child>>,
    pid: u32,
    children: Arc<Children>,
    stdin: Option<ChildStdin>,
    lines: Receiver<(Instant, String)>,
    stderr: StderrTail,
    eof: bool,
}

impl EngineProc {
    /// Starts `cmd` with `sh -c` (in its own process group on Unix), stdin and stdout piped;
    /// its stderr is kept in a [`StderrTail`] and also appended to `stderr_log` when given.
    /// On Linux the kernel kills the engine when the thread that called this ends: call it
    /// from a thread that lives as long as the engine is needed. The engine is registered
    /// with `children` (locked while spawning, so that [`Children::kill_all`] never misses a
    /// child that is being started); none starts once they were all killed.
    pub fn spawn(
        cmd: &str,
        stderr_log: Option<&std::path::Path>,
        children: &Arc<Children>,
    ) -> std::io::Result<EngineProc> {
        let log = match stderr_log {
            Some(p) => Some(
                std::fs::OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(p)?,
            ),
            None => None,
        };
        let mut command = Command::new("sh");
        command
            .arg("-c")
            .arg(shell_line(cmd))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        prepare(&mut command);
        let (child, pid, stdin, stdout, stderr) = {
            let mut reg = lock(&children.0);
            if reg.closed {
                return Err(std::io::Error::other("the match is shutting down"));
            }
            let mut child = command.spawn()?;
            let pid = child.id();
            let (stdin, stdout, stderr) =
                (child.stdin.take(), child.stdout.take(), child.stderr.take());
            let child = Arc::new(Mutex::new(child));
            reg.groups.insert(pid, Group::new(&child));
            (child, pid, stdin, stdout, stderr)
        };
        // From here on the child is registered: dropping `proc` on an error kills it.
        let (tx, rx) = mpsc::channel();
        let proc = EngineProc {
            child,
            pid,
            children: Arc::clone(children),
            stdin,
            lines: rx,
            stderr: StderrTail::default(),
            eof: false,
        };
        let stdout = stdout.ok_or_else(|| std::io::Error::other("no stdout pipe"))?;
        let stderr = stderr.ok_or_else(|| std::io::Error::other("no stderr pipe"))?;
        let tail = proc.stderr.clone();
        std::thread::Builder::new()
            .name(format!("engine-{pid}-stdout"))
            .spawn(move || read_stdout(stdout, tx))?;
        std::thread::Builder::new()
            .name(format!("engine-{pid}-stderr"))
            .spawn(move || read_stderr(stderr, log, tail))?;
        Ok(proc)
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
        match lock(&self.child).try_wait() {
            Ok(Some(s)) => Some(s.to_string()),
            _ => None,
        }
    }

    /// Sends `quit`, waits up to `grace` for the process to exit, then kills it.
    pub fn quit(mut self, grace: Duration) {
        let _ = self.send("quit");
        self.stdin = None;
        self.wait_exit(grace);
        // Drop kills the group (any grandchildren too) and reaps the child.
    }

    /// Waits up to `grace` for the process to exit; returns its status if it did.
    fn wait_exit(&mut self, grace: Duration) -> Option<String> {
        let end = Instant::now() + grace;
        loop {
            if let Some(status) = self.exit_status() {
                return Some(status);
            }
            if Instant::now() >= end {
                return None;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    /// Kills the process now and reaps it.
    pub fn kill(self) {}

    /// Ends an engine that failed: gives it `grace` to exit by itself (so that its exit status
    /// is known), kills it, and waits as long again for the rest of its standard error.
    pub fn end_with_stderr(mut self, grace: Duration) -> Ended {
        // Its input stays open meanwhile: an engine that exits on end of input would
        // otherwise report a status of its own making.
        let status = self.wait_exit(grace);
        let tail = self.stderr.clone();
        drop(self);
        tail.wait_closed(grace);
        Ended {
            status,
            stderr: tail.text(),
        }
    }
}

impl Drop for EngineProc {
    fn drop(&mut self) {
        self.stdin = None;
        // The register stays locked until the child is reaped: `kill_all` never signals a
        // process id that may have been reused.
        let mut reg = lock(&self.children.0);
        if let Some(group) = reg.groups.remove(&self.pid) {
            group.kill();
        }
        let _ = lock(&self.child).wait();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_lines_with_deadlines_and_sees_eof() {
        let mut p = EngineProc::spawn(
            "read x; echo \"got $x\"; printf 'a\\r\\n\\nb\\n'",
            None,
            &Children::new(),
        )
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

    #[test]
    fn stderr_keeps_its_last_bytes_and_goes_to_the_log_too() {
        let dir = std::env::temp_dir().join(format!("tusk-stderr-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let log = dir.join("e.log");
        let _ = std::fs::remove_file(&log);
        // 5000 bytes of x, then a last line; the engine exits with status 7.
        let p = EngineProc::spawn(
            "head -c 5000 /dev/zero | tr '\\0' x >&2; echo ' the end' >&2; exit 7",
            Some(&log),
            &Children::new(),
        )
        .unwrap();
        let ended = p.end_with_stderr(Duration::from_secs(5));
        assert_eq!(ended.status.as_deref(), Some("exit status: 7"));
        assert!(
            ended.stderr.starts_with("...xxx"),
            "{}",
            &ended.stderr[..10]
        );
        assert!(ended.stderr.ends_with("x the end\n"));
        assert_eq!(ended.stderr.len(), 3 + STDERR_TAIL_BYTES);
        let logged = std::fs::read_to_string(&log).unwrap();
        assert_eq!(logged.len(), 5000 + " the end\n".len());
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn an_engine_that_is_still_running_is_killed_and_its_stderr_read() {
        let p =
            EngineProc::spawn("echo started >&2; exec sleep 30", None, &Children::new()).unwrap();
        let t = Instant::now();
        let ended = p.end_with_stderr(Duration::from_millis(200));
        assert_eq!(ended.status, None, "it was killed");
        assert_eq!(ended.stderr, "started\n");
        assert!(t.elapsed() < Duration::from_secs(5));
    }

    #[test]
    fn kill_all_kills_every_engine_and_refuses_new_ones() {
        let children = Children::new();
        let far = Some(Instant::now() + Duration::from_secs(10));
        let mut engines: Vec<EngineProc> = (0..2)
            .map(|_| EngineProc::spawn("exec sleep 30", None, &children).unwrap())
            .collect();
        children.kill_all();
        for e in &mut engines {
            assert_eq!(e.recv(far), Received::Eof, "killed: its output closed");
        }
        let refused = EngineProc::spawn("exec sleep 30", None, &children);
        assert!(refused.is_err());
        // Another run's register is not affected.
        let other = EngineProc::spawn("exit 0", None, &Children::new());
        assert!(other.is_ok());
    }

    #[test]
    fn the_portable_fallback_kills_the_engine() {
        let mut command = Command::new("sleep");
        command.arg("30");
        portable::prepare(&mut command);
        let child = Arc::new(Mutex::new(command.spawn().unwrap()));
        portable::Group::new(&child).kill();
        let status = lock(&child).wait().unwrap();
        assert!(!status.success(), "{status}");
    }

    /// Processes of group `pgid` that are not zombies, from /proc/*/stat.
    #[cfg(target_os = "linux")]
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

    #[cfg(target_os = "linux")]
    #[test]
    fn dropping_kills_the_whole_group() {
        let p =
            EngineProc::spawn("sleep 30 & sleep 30; echo never", None, &Children::new()).unwrap();
        let pgid = Group::new(&p.child).id();
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
