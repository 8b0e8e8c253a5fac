//! The controller side of AEI over an [`EngineProc`]: the handshake, options, `newgame`,
//! `makemove`, `go`, and waiting for `bestmove` against a deadline.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::engine_proc::{Children, Ended, EngineProc, Received};

/// How long an engine may take to answer `aei` with `aeiok` (pyrimaa allows 5 s; a loaded
/// machine gets some slack).
pub const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);
/// How long an engine may take to answer `isready` (as pyrimaa).
pub const READY_TIMEOUT: Duration = Duration::from_secs(15);

/// How long a failed engine is given to exit by itself, and then to close its standard
/// error, before its error is reported.
const FAILURE_GRACE: Duration = Duration::from_millis(500);

/// Why talking to an engine failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ClientError {
    /// The process could not be started.
    #[error("could not start: {0}")]
    Spawn(String),
    /// The engine exited (or closed its output) while we waited for `what`.
    #[error("exited while the controller waited for {0}")]
    Exited(String),
    /// No answer to `what` in time.
    #[error("no {0} in time")]
    Timeout(String),
    /// The engine said something the protocol does not allow.
    #[error("protocol error: {0}")]
    Protocol(String),
    /// The engine answered its options with `log Error: <text>` (a value it refuses, a
    /// weights file it cannot read): it would not play as configured.
    #[error("it refused its options: {0}")]
    OptionRefused(String),
    /// The match is being cancelled.
    #[error("cancelled")]
    Cancelled,
}

/// An engine that could not be started: what went wrong, and how the process ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StartError {
    /// What went wrong.
    pub error: ClientError,
    /// The exit status and the last of the standard error of the process (none when it could
    /// not even be spawned).
    pub ended: Option<Ended>,
}

/// The answer to a `go`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Answer {
    /// `bestmove <text>` arrived at this instant.
    Move(String, Instant),
    /// The deadline passed first.
    Timeout,
    /// The engine exited first.
    Exited,
    /// The match was cancelled.
    Cancelled,
}

/// The level of a `log` line that asks the controller for attention.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LogLevel {
    /// `log Error: ...`.
    Error,
    /// `log Warning: ...`.
    Warning,
}

/// The level and text of a `log Error: <text>` or `log Warning: <text>` line (the prefixes of
/// the AEI specification, matched as written); `None` for any other line.
pub fn log_level(line: &str) -> Option<(LogLevel, &str)> {
    let rest = line.strip_prefix("log ")?.trim_start();
    let (level, text) = if let Some(t) = rest.strip_prefix("Error:") {
        (LogLevel::Error, t)
    } else {
        (LogLevel::Warning, rest.strip_prefix("Warning:")?)
    };
    Some((level, text.trim()))
}

/// A started AEI engine (handshake done).
pub struct AeiClient {
    proc: EngineProc,
    /// The `id name` the engine announced.
    pub id_name: String,
    /// Options were sent whose answers no `isready` has read yet.
    options_unanswered: bool,
}

impl AeiClient {
    /// Starts the process of `cmd`, registered with `children`, without a word said yet. On
    /// Linux the engine dies with the thread that calls this (see [`EngineProc::spawn`]).
    pub fn spawn(
        cmd: &str,
        stderr_log: Option<&std::path::Path>,
        children: &Arc<Children>,
    ) -> Result<AeiClient, StartError> {
        let proc = EngineProc::spawn(cmd, stderr_log, children).map_err(|e| StartError {
            error: ClientError::Spawn(e.to_string()),
            ended: None,
        })?;
        Ok(AeiClient {
            proc,
            id_name: String::new(),
            options_unanswered: false,
        })
    }

    /// The handshake: `aei` → `protocol-version 1` … `aeiok`, then `isready` → `readyok`. On
    /// failure the process is ended and its standard error kept.
    pub fn handshake(mut self, cancel: &AtomicBool) -> Result<AeiClient, StartError> {
        match self.greet(cancel) {
            Ok(()) => Ok(self),
            Err(error) => Err(self.fail(error)),
        }
    }

    /// Ends an engine that failed to start with `error`, keeping its exit status and the last
    /// of its standard error (a cancelled start is killed at once).
    pub fn fail(self, error: ClientError) -> StartError {
        let ended = match error {
            ClientError::Cancelled => None,
            _ => Some(self.proc.end_with_stderr(FAILURE_GRACE)),
        };
        StartError { error, ended }
    }

    fn greet(&mut self, cancel: &AtomicBool) -> Result<(), ClientError> {
        let c = self;
        c.send("aei")?;
        let deadline = Instant::now() + HANDSHAKE_TIMEOUT;
        let mut first = true;
        loop {
            let line = c.read_line(deadline, "aeiok", cancel)?;
            if first {
                first = false;
                if line.trim() != "protocol-version 1" {
                    return Err(ClientError::Protocol(format!(
                        "the first line must be \"protocol-version 1\", got \"{line}\""
                    )));
                }
                continue;
            }
            if line == "aeiok" {
                break;
            }
            if let Some(name) = line.strip_prefix("id name ") {
                c.id_name = name.trim().to_string();
            }
        }
        c.isready(cancel).map(drop)
    }

    fn read_line(
        &mut self,
        deadline: Instant,
        what: &str,
        cancel: &AtomicBool,
    ) -> Result<String, ClientError> {
        loop {
            if cancel.load(Ordering::Relaxed) {
                return Err(ClientError::Cancelled);
            }
            let slice = deadline.min(Instant::now() + Duration::from_millis(100));
            match self.proc.recv(Some(slice)) {
                Received::Line(_, l) => return Ok(l),
                Received::Eof => return Err(ClientError::Exited(what.to_string())),
                Received::Timeout if Instant::now() >= deadline => {
                    return Err(ClientError::Timeout(what.to_string()))
                }
                Received::Timeout => {}
            }
        }
    }

    /// Sends one line; a failure means the engine is gone.
    pub fn send(&mut self, line: &str) -> Result<(), ClientError> {
        self.proc
            .send(line)
            .map_err(|_| ClientError::Exited(format!("\"{line}\" to be read")))
    }

    /// `setoption name <name> value <value>`.
    pub fn setoption(&mut self, name: &str, value: &str) -> Result<(), ClientError> {
        self.send(&format!("setoption name {name} value {value}"))
    }

    /// Sends the engine's own options (`setoption name K value V` each, after the handshake);
    /// what the engine answers to them is read by the next [`AeiClient::isready`], the one
    /// before the first game (roundrobin's order: no `isready` of their own).
    pub fn send_options(&mut self, options: &[(String, String)]) -> Result<(), ClientError> {
        for (k, v) in options {
            self.setoption(k, v)?;
        }
        self.options_unanswered = !options.is_empty();
        Ok(())
    }

    /// `isready`, waiting for `readyok` (other lines are skipped). The first one after
    /// [`AeiClient::send_options`] (the one before the first game, after `newgame`) also reads
    /// what the engine logged about its options: a `log Error: <text>` is
    /// [`ClientError::OptionRefused`]; the texts of its `log Warning: <text>` lines (an option
    /// it does not know and ignores) are returned.
    pub fn isready(&mut self, cancel: &AtomicBool) -> Result<Vec<String>, ClientError> {
        let answers = std::mem::take(&mut self.options_unanswered);
        self.send("isready")?;
        let deadline = Instant::now() + READY_TIMEOUT;
        let mut warnings = Vec::new();
        loop {
            let line = self.read_line(deadline, "readyok", cancel)?;
            if line == "readyok" {
                return Ok(warnings);
            }
            match log_level(&line) {
                Some((LogLevel::Error, text)) if answers => {
                    return Err(ClientError::OptionRefused(text.to_string()))
                }
                Some((LogLevel::Warning, text)) if answers => warnings.push(text.to_string()),
                _ => {}
            }
        }
    }

    /// Forgets anything the engine sent that nobody read (before a new game), except the
    /// answers to options not yet read by [`AeiClient::isready`].
    pub fn drain(&mut self) {
        if !self.options_unanswered {
            self.proc.drain();
        }
    }

    /// Sends `go` and waits for `bestmove` until `deadline` (`None`: forever), sending `stop`
    /// once at `stop_at` if given. `info`, `log` and other lines are skipped.
    pub fn go(
        &mut self,
        deadline: Option<Instant>,
        stop_at: Option<Instant>,
        cancel: &AtomicBool,
    ) -> Result<Answer, ClientError> {
        self.send("go")?;
        let mut stop_sent = false;
        loop {
            if cancel.load(Ordering::Relaxed) {
                return Ok(Answer::Cancelled);
            }
            let now = Instant::now();
            if let (Some(s), false) = (stop_at, stop_sent) {
                if now >= s {
                    stop_sent = true;
                    let _ = self.send("stop");
                }
            }
            if deadline.is_some_and(|d| now >= d) {
                return Ok(Answer::Timeout);
            }
            let mut wake = now + Duration::from_millis(100);
            if let Some(d) = deadline {
                wake = wake.min(d);
            }
            if let (Some(s), false) = (stop_at, stop_sent) {
                wake = wake.min(s.max(now));
            }
            match self.proc.recv(Some(wake)) {
                Received::Line(t, l) => {
                    if let Some(rest) = l.strip_prefix("bestmove") {
                        if rest.is_empty() || rest.starts_with(' ') {
                            return Ok(Answer::Move(rest.trim().to_string(), t));
                        }
                    }
                }
                Received::Eof => return Ok(Answer::Exited),
                Received::Timeout => {}
            }
        }
    }

    /// The exit status text, if the process has exited.
    pub fn exit_status(&mut self) -> Option<String> {
        self.proc.exit_status()
    }

    /// Ends the engine politely (`quit`, a short grace period), then kills what is left.
    pub fn quit(self) {
        self.proc.quit(Duration::from_millis(500));
    }

    /// Kills the engine at once.
    pub fn kill(self) {
        self.proc.kill();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn log_levels_are_read_from_the_specifications_prefixes() {
        assert_eq!(
            log_level("log Error: bad value 'x' for option 'hash'"),
            Some((LogLevel::Error, "bad value 'x' for option 'hash'"))
        );
        assert_eq!(
            log_level("log Warning: Unknown option: depth abc"),
            Some((LogLevel::Warning, "Unknown option: depth abc"))
        );
        assert_eq!(
            log_level("log  Warning:spaced"),
            Some((LogLevel::Warning, "spaced"))
        );
        assert_eq!(log_level("log Debug: hash 256 MB ready"), None);
        assert_eq!(log_level("log Exiting..."), None);
        assert_eq!(log_level("info Error: not a log line"), None);
        assert_eq!(log_level("logError: no space"), None);
        assert_eq!(log_level("readyok"), None);
    }
}
