//! One run of a match: get ready ([`super::plan`]), probe the engines, play the games on the
//! worker pool, collect and record them, and stop on Ctrl-C, a decided SPRT, an engine that
//! cannot be started, or a worker's panic.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use indicatif::ProgressBar;
use tusk_engine::Color;

use super::args::Settings;
use super::plan::{engines_in, get_ready, tc_text, Ready};
use super::pool::{Message, PanicError, Pool, Worker};
use super::record;
use super::referee::Outcome;
use super::report::{self, sprt_state};
use super::schedule::{self, OpeningError, Scheduled};
use super::state::{self, GameJson, LoadError};
use super::stats::Hypothesis;
use super::worker::{self, Done, Event, GameWorker, MatchContext, SetupError};

/// Why a run failed.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// The JSON file to resume cannot be read.
    #[error(transparent)]
    Load(#[from] LoadError),
    /// The JSON file holds games of another match.
    #[error(
        "{}: game {id} belongs to another match (different engines, options, time control, \
         setups or seed); use another --json file",
        path.display()
    )]
    OtherMatch {
        /// The file.
        path: PathBuf,
        /// The first stray game.
        id: u64,
    },
    /// A file or directory could not be opened, created or written.
    #[error("{action} {}: {error}", path.display())]
    File {
        /// `opening`, `creating` or `writing`.
        action: &'static str,
        /// The file or directory.
        path: PathBuf,
        /// The operating system's reason (shown in the message).
        error: std::io::Error,
    },
    /// The JSON file could not be opened, or another run is writing it.
    #[error(transparent)]
    Claim(#[from] crate::files::ClaimError),
    /// The Ctrl-C handler could not be installed.
    #[error("installing the Ctrl-C handler: {0}")]
    CtrlC(String),
    /// A round's random opening could not be made.
    #[error(transparent)]
    Opening(#[from] OpeningError),
    /// A worker thread could not be started.
    #[error("starting a worker thread: {0}")]
    Thread(std::io::Error),
    /// An engine could not be started: the match stopped.
    #[error("{}\nthe match is stopped: {}", list(failures), saved_text(*saved, json.as_deref()))]
    Setup {
        /// Each engine that could not be started.
        failures: Vec<SetupError>,
        /// Games finished and saved before.
        saved: usize,
        /// The JSON file, if any.
        json: Option<PathBuf>,
    },
    /// A worker thread panicked (a bug).
    #[error("{panic} (a bug in tusk match)\nthe match is stopped: {}", saved_text(*saved, json.as_deref()))]
    Panicked {
        /// The panic.
        panic: PanicError,
        /// Games finished and saved before.
        saved: usize,
        /// The JSON file, if any.
        json: Option<PathBuf>,
    },
}

/// The failures, one after the other.
fn list(failures: &[SetupError]) -> String {
    let texts: Vec<String> = failures.iter().map(|f| f.to_string()).collect();
    texts.join("\n")
}

/// `3 finished games saved in games.jsonl; run the same command again to resume`.
fn saved_text(saved: usize, json: Option<&Path>) -> String {
    let games = if saved == 1 { "game" } else { "games" };
    match json {
        _ if saved == 0 => "no game was recorded".to_string(),
        Some(p) => format!(
            "{saved} finished {games} saved in {}; run the same command again to resume",
            p.display()
        ),
        None => format!("{saved} finished {games} not saved (no --json)"),
    }
}

/// Kills every engine when dropped, and reaps those the run still holds: the last line of
/// defence on error and panic paths (the workers end their own engines).
struct KillGuard(Arc<MatchContext>);

impl Drop for KillGuard {
    fn drop(&mut self) {
        self.0.children.kill_all();
        self.0.end_probed();
    }
}

/// Installs the Ctrl-C handler: the first Ctrl-C cancels the run and kills the engines (the
/// games played so far are kept), a second one leaves at once. Returns the flag it sets.
fn install_ctrlc(shared: &Arc<MatchContext>) -> Result<Arc<AtomicBool>, RunError> {
    let interrupted = Arc::new(AtomicBool::new(false));
    let (shared, flag) = (Arc::clone(shared), Arc::clone(&interrupted));
    ctrlc::set_handler(move || {
        if flag.swap(true, Ordering::SeqCst) {
            // A second Ctrl-C: leave at once (the engines are already killed).
            shared.children.kill_all();
            std::process::exit(130);
        }
        shared.stop_all();
    })
    .map_err(|e| RunError::CtrlC(e.to_string()))?;
    Ok(interrupted)
}

/// Why the collection of results stopped early.
enum Fatal {
    /// Engines could not be started.
    Setup(Vec<SetupError>),
    /// A worker panicked.
    Panicked(PanicError),
    /// The JSON file or a record could not be written.
    Write(RunError),
}

/// Receives the finished games, records them (JSON line, record file, progress) and decides
/// the SPRT.
struct Collector<'a> {
    settings: &'a Settings,
    shared: &'a MatchContext,
    key: String,
    names: Vec<String>,
    finished: Vec<GameJson>,
    json: Option<File>,
    progress: ProgressBar,
    decided: Option<Hypothesis>,
    fatal: Option<Fatal>,
}

impl Collector<'_> {
    /// Handles every message until the workers have stopped (or a file cannot be written).
    fn collect(&mut self, messages: impl Iterator<Item = Message<Event>>) {
        for message in messages {
            match message {
                Message::Panicked { thread, message } => {
                    self.shared.stop_all();
                    if self.fatal.is_none() {
                        self.fatal = Some(Fatal::Panicked(PanicError { thread, message }));
                    }
                }
                Message::Event(Event::SetupFailed(e)) => {
                    self.shared.stop_all();
                    match &mut self.fatal {
                        None => self.fatal = Some(Fatal::Setup(vec![*e])),
                        Some(Fatal::Setup(v)) if !v.iter().any(|f| f.engine == e.engine) => {
                            v.push(*e)
                        }
                        Some(_) => {}
                    }
                }
                // Once the SPRT has decided or the run failed, games that were still running
                // do not count.
                Message::Event(Event::Finished(_))
                    if self.decided.is_some() || self.fatal.is_some() => {}
                Message::Event(Event::Finished(done)) => {
                    if let Err(e) = self.record(done) {
                        self.shared.stop_all();
                        self.fatal = Some(Fatal::Write(e));
                        break;
                    }
                }
            }
        }
    }

    /// The JSON line of a finished game.
    fn game_json(&self, done: Done) -> GameJson {
        let Done {
            sched,
            outcome,
            seconds,
            ..
        } = done;
        let Outcome {
            winner,
            reason,
            detail,
            game,
            illegal_move,
            ..
        } = *outcome;
        let engines = sched.seats.map(|e| &self.settings.engines[e]);
        GameJson {
            id: sched.id,
            round: sched.round,
            gold: engines[Color::Gold].name.clone(),
            silver: engines[Color::Silver].name.clone(),
            winner,
            reason,
            moves: game.record().lines().map(str::to_string).collect(),
            illegal_move,
            detail,
            tc: engines.map(|e| tc_text(&e.tc)),
            setups: self.settings.setups.name().to_string(),
            seed: self.settings.seed,
            match_key: self.key.clone(),
            date: record::today(),
            seconds,
        }
    }

    /// Writes a finished game to the JSON file and the records, shows it, and checks the
    /// SPRT.
    fn record(&mut self, done: Done) -> Result<(), RunError> {
        for warning in &done.warnings {
            self.progress.suspend(|| eprintln!("warning: {warning}"));
        }
        let g = self.game_json(done);
        let outputs = &self.settings.outputs;
        if let (Some(f), Some(path)) = (self.json.as_mut(), &outputs.json) {
            state::append(f, &g).map_err(|error| RunError::File {
                action: "writing",
                path: path.clone(),
                error,
            })?;
        }
        if let Some(d) = &outputs.records {
            let path = d.join(format!("game-{:06}.txt", g.id));
            std::fs::write(&path, record::record_text(&self.settings.event, &g)).map_err(
                |error| RunError::File {
                    action: "writing",
                    path,
                    error,
                },
            )?;
        }
        if !g.reason.decided_on_board() {
            let line = format!("game {} ({}): {}", g.id, g.reason, g.detail);
            self.progress.suspend(|| eprintln!("{line}"));
        }
        self.finished.push(g);
        self.progress.inc(1);
        let sprt = self.settings.sprt;
        self.progress
            .set_message(report::progress_message(&self.names, &self.finished, sprt));
        if let Some(h) = sprt_state(sprt, &self.names, &self.finished).and_then(|s| s.decision) {
            self.decided = Some(h);
            self.shared.cancel.store(true, Ordering::SeqCst);
        }
        Ok(())
    }
}

/// What a run collected: the games finished (before and in this run) and the SPRT's
/// decision.
struct Collected {
    names: Vec<String>,
    finished: Vec<GameJson>,
    decided: Option<Hypothesis>,
}

/// Plays the games of `ready` on `workers` and collects them. An engine that could not be
/// started, a worker that panicked, or a file that could not be written fails the run.
fn play<'a, W: Worker<Job = Scheduled, Event = Event>>(
    s: &'a Settings,
    shared: &'a Arc<MatchContext>,
    names: Vec<String>,
    ready: Ready,
    workers: Vec<W>,
) -> Result<Collected, RunError> {
    let progress = report::progress_bar(ready.planned, ready.planned - ready.todo.len());
    progress.set_message(report::progress_message(&names, &ready.finished, s.sprt));
    let pool = Pool::start("match-worker", ready.todo, workers).map_err(|e| {
        shared.cancel.store(true, Ordering::SeqCst);
        RunError::Thread(e)
    })?;
    let mut collector = Collector {
        settings: s,
        shared,
        key: ready.key,
        names,
        finished: ready.finished,
        json: ready.json,
        progress,
        decided: ready.decided,
        fatal: None,
    };
    collector.collect(pool.messages());
    let joined = pool.join();
    collector.progress.finish_and_clear();
    let (saved, json) = (collector.finished.len(), s.outputs.json.clone());
    match (collector.fatal, joined) {
        (Some(Fatal::Write(e)), _) => Err(e),
        (Some(Fatal::Setup(failures)), _) => Err(RunError::Setup {
            failures,
            saved,
            json,
        }),
        (Some(Fatal::Panicked(panic)), _) | (None, Err(panic)) => {
            Err(RunError::Panicked { panic, saved, json })
        }
        (None, Ok(())) => Ok(Collected {
            names: collector.names,
            finished: collector.finished,
            decided: collector.decided,
        }),
    }
}

/// Plays the match of `s`.
pub fn run_match(s: Settings) -> Result<(), RunError> {
    let names: Vec<String> = s.engines.iter().map(|e| e.name.clone()).collect();
    let ready = get_ready(&s, &names)?;
    let planned = ready.planned;
    let openings = schedule::openings(&s.setups, s.seed, s.random_turns, &ready.todo)?;
    let shared = Arc::new(MatchContext::new(
        s.engines.clone(),
        openings,
        s.referee.clone(),
        s.outputs.stderr.clone(),
        s.restart,
    ));
    let interrupted = install_ctrlc(&shared)?;
    let guard = KillGuard(Arc::clone(&shared));
    let saved = ready.finished.len();
    worker::probe(&shared, &engines_in(&ready.todo)).map_err(|failures| RunError::Setup {
        failures,
        saved,
        json: s.outputs.json.clone(),
    })?;
    let workers = (0..s.concurrency.min(ready.todo.len().max(1)))
        .map(|_| GameWorker::new(Arc::clone(&shared)))
        .collect();
    let Collected {
        names,
        finished,
        decided,
    } = play(&s, &shared, names, ready, workers)?;
    let (rows, sprt_json) = report::print_summary(&names, &finished, planned, s.sprt, decided);
    if let Some(p) = &s.outputs.table_json {
        report::write_table_json(p, &rows, sprt_json).map_err(|error| RunError::File {
            action: "writing",
            path: p.clone(),
            error,
        })?;
    }
    if interrupted.load(Ordering::SeqCst) {
        drop(guard);
        eprintln!(
            "interrupted: {} games are saved{}; run the same command again to resume",
            finished.len(),
            if s.outputs.json.is_some() {
                ""
            } else {
                " nowhere (no --json)"
            }
        );
        std::process::exit(130);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::matches::args::settings_of;
    use std::collections::HashMap;

    /// A worker with a bug.
    struct Panics;

    impl Worker for Panics {
        type Job = Scheduled;
        type Event = Event;
        fn run(&mut self, _: Scheduled) -> Option<Event> {
            panic!("a bug in the worker")
        }
    }

    // A worker that panics fails the run, with the panic's message: never "0 games" and a
    // success.
    #[test]
    fn a_worker_that_panics_fails_the_run() {
        let args = [
            "--engine",
            "name=a,cmd=x",
            "--engine",
            "name=b,cmd=y",
            "--games",
            "6",
        ];
        let s = settings_of(&args).unwrap();
        let names: Vec<String> = vec!["a".into(), "b".into()];
        let ready = get_ready(&s, &names).unwrap();
        assert_eq!(ready.todo.len(), 6);
        let shared = Arc::new(MatchContext::new(
            s.engines.clone(),
            HashMap::new(),
            s.referee.clone(),
            None,
            false,
        ));
        let e = play(&s, &shared, names, ready, vec![Panics, Panics])
            .err()
            .expect("the run fails");
        let text = e.to_string();
        assert!(matches!(e, RunError::Panicked { saved: 0, .. }), "{text}");
        assert!(text.contains("a bug in the worker"), "{text}");
        assert!(text.contains("match-worker-"), "{text}");
        assert!(shared.cancelled(), "the other workers were stopped");
    }
}
