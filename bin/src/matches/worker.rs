//! The match's workers: each keeps its own engine processes and plays the scheduled games it
//! takes from the queue. An engine that cannot be started (it does not exist, fails the
//! handshake, exits at once) is a [`SetupError`] of the whole match, never a game: the
//! worker cancels the run and reports it. So is an engine that answers its options with
//! `log Error:` before its first game (read at that game's `isready`). This holds for an
//! engine that already played games in this run and fails when it is started again (a crash
//! on restart): a match with a broken engine measures nothing, so the run stops; the games
//! already finished are kept, the game that could not start is not recorded. [`probe`]
//! starts every engine once before the first game, so that a broken command fails within
//! seconds.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use tusk_engine::{ByColor, Color};

use super::aei_client::{AeiClient, ClientError, StartError};
use super::engine_proc::Children;
use super::pool::Worker;
use super::referee::{self, Outcome, Played, Player, RefereeConfig};
use super::schedule::{Opening, Scheduled};
use super::spec::EngineSpec;

/// An engine that could not be started: the match cannot go on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SetupError {
    /// The engine's name.
    pub engine: String,
    /// Its command.
    pub cmd: String,
    /// How often it had been started successfully before in this run.
    pub earlier_starts: u64,
    /// What went wrong, with the process's exit status and standard error.
    pub start: StartError,
}

impl std::fmt::Display for SetupError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "engine {} could not be started", self.engine)?;
        if self.earlier_starts > 0 {
            write!(
                f,
                " again (it had started {} time{} in this run)",
                self.earlier_starts,
                if self.earlier_starts == 1 { "" } else { "s" }
            )?;
        }
        write!(f, ": {}", self.start.error)?;
        let Some(ended) = &self.start.ended else {
            return write!(f, "\n  command: {}", self.cmd);
        };
        if let Some(status) = &ended.status {
            write!(f, " ({status})")?;
        }
        write!(f, "\n  command: {}", self.cmd)?;
        let stderr = ended.stderr.trim_end();
        if stderr.is_empty() {
            return write!(f, "\n  its standard error was empty");
        }
        write!(f, "\n  its standard error:")?;
        for line in stderr.lines() {
            write!(f, "\n    {line}")?;
        }
        Ok(())
    }
}

impl std::error::Error for SetupError {}

/// A finished game, from a worker to the main thread.
pub struct Done {
    /// The game.
    pub sched: Scheduled,
    /// How it ended.
    pub outcome: Box<Outcome>,
    /// Its wall-clock length.
    pub seconds: f64,
    /// What its engines warned about their options (`engine <name>: <text>`), each engine's
    /// reported once in a run.
    pub warnings: Vec<String>,
}

/// What a worker reports.
pub enum Event {
    /// A game ended.
    Finished(Done),
    /// An engine could not be started; the run is already cancelled.
    SetupFailed(Box<SetupError>),
}

/// Everything the workers share.
pub struct MatchContext {
    /// The engines.
    pub engines: Vec<EngineSpec>,
    /// The opening of each round to be played (none: the engines choose their setups).
    pub openings: HashMap<u64, Opening>,
    /// The referee's settings.
    pub referee: RefereeConfig,
    /// Where each engine's stderr is appended, when given.
    pub stderr_dir: Option<PathBuf>,
    /// Fresh processes for every game.
    pub restart: bool,
    /// Set to stop the run (Ctrl-C, a decided SPRT, an error).
    pub cancel: AtomicBool,
    /// Every engine process of the run.
    pub children: Arc<Children>,
    /// Engines started by [`probe`], waiting for their first game.
    probed: Mutex<Vec<Option<AeiClient>>>,
    /// Successful starts per engine.
    starts: Vec<AtomicU64>,
    /// Per engine: whether its warnings about its options were reported already.
    warned: Vec<AtomicBool>,
}

impl MatchContext {
    /// The shared state of a run with these settings.
    pub fn new(
        engines: Vec<EngineSpec>,
        openings: HashMap<u64, Opening>,
        referee: RefereeConfig,
        stderr_dir: Option<PathBuf>,
        restart: bool,
    ) -> MatchContext {
        let n = engines.len();
        MatchContext {
            engines,
            openings,
            referee,
            stderr_dir,
            restart,
            cancel: AtomicBool::new(false),
            children: Children::new(),
            probed: Mutex::new((0..n).map(|_| None).collect()),
            starts: (0..n).map(|_| AtomicU64::new(0)).collect(),
            warned: (0..n).map(|_| AtomicBool::new(false)).collect(),
        }
    }

    /// `engine <name>: <text>` for each of `warnings`, engine `e`'s warnings about its
    /// options in one game, the first time that engine has any; nothing after that (an
    /// engine started for every game warns every time).
    fn first_warnings(&self, e: usize, warnings: &[String]) -> Vec<String> {
        if warnings.is_empty() || self.warned[e].swap(true, Ordering::Relaxed) {
            return Vec::new();
        }
        let name = &self.engines[e].name;
        warnings
            .iter()
            .map(|w| format!("engine {name}: {w}"))
            .collect()
    }

    /// Whether the run is being cancelled.
    pub fn cancelled(&self) -> bool {
        self.cancel.load(Ordering::Relaxed)
    }

    /// Cancels the run and kills every engine at once (the games in progress do not count).
    pub fn stop_all(&self) {
        self.cancel.store(true, Ordering::SeqCst);
        self.children.kill_all();
    }

    /// Kills the probed engines that no game took, and waits until they are gone.
    pub fn end_probed(&self) {
        let left: Vec<AeiClient> = self
            .probed
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .iter_mut()
            .filter_map(Option::take)
            .collect();
        for client in left {
            client.kill();
        }
    }

    /// Starts the process of engine `e` (no handshake yet); the engine lives as long as the
    /// calling thread.
    fn spawn_engine(&self, e: usize) -> Result<AeiClient, StartError> {
        let spec = &self.engines[e];
        let log = self
            .stderr_dir
            .as_ref()
            .map(|d| d.join(format!("{}.log", spec.name)));
        AeiClient::spawn(&spec.cmd, log.as_deref(), &self.children)
    }

    /// Starts engine `e`: the process, the handshake, then its options. `Ok(None)` when the
    /// run was cancelled meanwhile.
    fn start_engine(&self, e: usize) -> Result<Option<AeiClient>, Box<SetupError>> {
        self.open_engine(e, self.spawn_engine(e))
    }

    /// The handshake and the options of engine `e`, whose process was `spawned`.
    fn open_engine(
        &self,
        e: usize,
        spawned: Result<AeiClient, StartError>,
    ) -> Result<Option<AeiClient>, Box<SetupError>> {
        let spec = &self.engines[e];
        let started = spawned
            .and_then(|c| c.handshake(&self.cancel))
            .and_then(|mut c| match c.send_options(&spec.options) {
                Ok(()) => Ok(c),
                Err(error) => Err(c.fail(error)),
            });
        match started {
            Ok(c) => {
                self.starts[e].fetch_add(1, Ordering::Relaxed);
                Ok(Some(c))
            }
            Err(_) if self.cancelled() => Ok(None),
            Err(start) if start.error == ClientError::Cancelled => Ok(None),
            Err(start) => Err(Box::new(SetupError {
                engine: spec.name.clone(),
                cmd: spec.cmd.clone(),
                earlier_starts: self.starts[e].load(Ordering::Relaxed),
                start,
            })),
        }
    }

    /// Engine `e` for a game: the probed process if it is still waiting, else a new one.
    fn take_or_start(&self, e: usize) -> Result<Option<AeiClient>, Box<SetupError>> {
        let probed = self.probed.lock().unwrap_or_else(|p| p.into_inner())[e].take();
        match probed {
            Some(c) => Ok(Some(c)),
            None => self.start_engine(e),
        }
    }
}

/// Starts each engine in `engines` once and keeps them for their first game; returns every
/// engine that could not be started (then the run is over). The processes are started from
/// the calling thread, which must live as long as the run (on Linux an engine dies with the
/// thread that started it); the handshakes run at the same time, each in its own thread.
pub fn probe(shared: &MatchContext, engines: &[usize]) -> Result<(), Vec<SetupError>> {
    let spawned: Vec<(usize, Result<AeiClient, StartError>)> = engines
        .iter()
        .map(|&e| (e, shared.spawn_engine(e)))
        .collect();
    type Started = Result<Option<AeiClient>, Box<SetupError>>;
    let results: Vec<(usize, Started)> = std::thread::scope(|s| {
        let handles: Vec<_> = spawned
            .into_iter()
            .map(|(e, client)| (e, s.spawn(move || shared.open_engine(e, client))))
            .collect();
        handles
            .into_iter()
            .map(|(e, h)| {
                let r = h.join().unwrap_or_else(|p| std::panic::resume_unwind(p));
                (e, r)
            })
            .collect()
    });
    let mut failures = Vec::new();
    let mut probed = shared.probed.lock().unwrap_or_else(|p| p.into_inner());
    for (e, r) in results {
        match r {
            Ok(client) => probed[e] = client,
            Err(f) => failures.push(*f),
        }
    }
    if failures.is_empty() {
        Ok(())
    } else {
        Err(failures)
    }
}

/// A game a worker played: its outcome and its engines' first warnings about their options.
type PlayedGame = (Box<Outcome>, Vec<String>);

/// One worker: its own engine processes, by engine index.
pub struct GameWorker {
    shared: Arc<MatchContext>,
    procs: Vec<Option<AeiClient>>,
}

impl GameWorker {
    /// A worker with no engine started yet.
    pub fn new(shared: Arc<MatchContext>) -> GameWorker {
        let procs = (0..shared.engines.len()).map(|_| None).collect();
        GameWorker { shared, procs }
    }

    /// Makes sure the engines of both seats run. `Ok(false)` when the run was cancelled.
    fn start_seats(&mut self, seats: ByColor<usize>) -> Result<bool, Box<SetupError>> {
        for c in Color::ALL {
            let e = seats[c];
            if self.procs[e].is_none() {
                match self.shared.take_or_start(e)? {
                    Some(client) => self.procs[e] = Some(client),
                    None => return Ok(false),
                }
            }
        }
        Ok(!self.shared.cancelled())
    }

    /// Plays game `sg` with the started engines: the outcome and the engines' first
    /// warnings about their options; `Ok(None)` when the run was cancelled, an error when an
    /// engine refused its options.
    fn play(&mut self, sg: Scheduled) -> Result<Option<PlayedGame>, Box<SetupError>> {
        let shared = Arc::clone(&self.shared);
        let seats = sg.seats;
        let (Some(mut gold), Some(mut silver)) = (
            self.procs[seats[Color::Gold]].take(),
            self.procs[seats[Color::Silver]].take(),
        ) else {
            return Ok(None);
        };
        let opening = shared.openings.get(&sg.round);
        let spec = |c: Color| &shared.engines[seats[c]];
        let played = referee::play_game(
            ByColor::new(
                Player {
                    client: &mut gold,
                    tc: spec(Color::Gold).tc,
                },
                Player {
                    client: &mut silver,
                    tc: spec(Color::Silver).tc,
                },
            ),
            ByColor::new(&spec(Color::Gold).name, &spec(Color::Silver).name),
            opening,
            &shared.referee,
            &shared.cancel,
        );
        let outcome = match played {
            Played::Finished(outcome) => outcome,
            Played::Aborted => {
                gold.kill();
                silver.kill();
                return Ok(None);
            }
            Played::OptionsRefused { side, text } => {
                let (refused, other) = match side {
                    Color::Gold => (gold, silver),
                    Color::Silver => (silver, gold),
                };
                other.kill();
                let e = seats[side];
                return Err(Box::new(SetupError {
                    engine: spec(side).name.clone(),
                    cmd: spec(side).cmd.clone(),
                    earlier_starts: shared.starts[e].load(Ordering::Relaxed).saturating_sub(1),
                    start: refused.fail(ClientError::OptionRefused(text)),
                }));
            }
        };
        let warnings = Color::ALL
            .into_iter()
            .flat_map(|c| shared.first_warnings(seats[c], &outcome.option_warnings[c]))
            .collect();
        for (c, client) in Color::ALL.into_iter().zip([gold, silver]) {
            if outcome.faulty[c] {
                client.kill();
            } else if shared.restart {
                client.quit();
            } else {
                self.procs[seats[c]] = Some(client);
            }
        }
        Ok(Some((outcome, warnings)))
    }
}

impl Worker for GameWorker {
    type Job = Scheduled;
    type Event = Event;

    fn run(&mut self, sg: Scheduled) -> Option<Event> {
        if self.shared.cancelled() {
            return None;
        }
        let t0 = Instant::now();
        match self.start_seats(sg.seats) {
            Ok(true) => {}
            Ok(false) => return None,
            Err(e) => {
                self.shared.cancel.store(true, Ordering::SeqCst);
                return Some(Event::SetupFailed(e));
            }
        }
        match self.play(sg) {
            Ok(Some((outcome, warnings))) => Some(Event::Finished(Done {
                sched: sg,
                outcome,
                seconds: t0.elapsed().as_secs_f64(),
                warnings,
            })),
            Ok(None) => None,
            Err(e) => {
                self.shared.cancel.store(true, Ordering::SeqCst);
                Some(Event::SetupFailed(e))
            }
        }
    }
}

impl Drop for GameWorker {
    fn drop(&mut self) {
        for p in self.procs.drain(..).flatten() {
            if self.shared.cancelled() {
                p.kill();
            } else {
                p.quit();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::matches::engine_proc::Ended;

    #[test]
    fn a_setup_error_names_the_engine_and_shows_its_stderr() {
        let e = SetupError {
            engine: "ghost".into(),
            cmd: "./ghost --fast".into(),
            earlier_starts: 1,
            start: StartError {
                error: ClientError::Exited("aeiok".into()),
                ended: Some(Ended {
                    status: Some("exit status: 127".into()),
                    stderr: "sh: 1: exec: ./ghost: not found\n".into(),
                }),
            },
        };
        assert_eq!(
            e.to_string(),
            "engine ghost could not be started again (it had started 1 time in this run): \
             exited while the controller waited for aeiok (exit status: 127)\n  \
             command: ./ghost --fast\n  its standard error:\n    sh: 1: exec: ./ghost: not found"
        );
    }
}
