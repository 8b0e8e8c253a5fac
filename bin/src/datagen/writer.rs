//! The writer, on the main thread: appends each finished game to the output file, counts the
//! games for the summary and keeps the progress bar up to date. The first failure (a game
//! thread's, or a line that cannot be written) stops the run.

use std::collections::BTreeMap;
use std::fs::File;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use anyhow::{anyhow, Result};
use indicatif::ProgressBar;

use super::game::Outcome;
use super::pool::{Event, Games};
use super::record::{self, GameLine};

/// Tallies for the summary.
#[derive(Default)]
pub struct Tally {
    /// Games ended by the rules and written.
    pub finished: u64,
    /// Games dropped at `--max-turns`.
    pub dropped: u64,
    /// Searched turns of the written games.
    pub positions: u64,
    /// Written games by reason code.
    pub reasons: BTreeMap<String, u64>,
    /// Written games gold won.
    pub gold_wins: u64,
}

impl Tally {
    /// Counts a written game.
    fn add(&mut self, line: &GameLine) {
        self.finished += 1;
        self.positions += line.scores.len() as u64;
        *self.reasons.entry(line.reason.clone()).or_default() += 1;
        self.gold_wins += u64::from(line.winner == "g");
    }

    /// Games played in this run: written or dropped.
    pub fn played(&self) -> u64 {
        self.finished + self.dropped
    }
}

/// Receives the game threads' events: writes, counts, shows progress, remembers a failure.
pub struct Writer<'a> {
    out: File,
    path: &'a Path,
    progress: ProgressBar,
    games: &'a Games<'a>,
    stop: &'a AtomicBool,
    started: Instant,
    tally: Tally,
    failure: Option<anyhow::Error>,
}

impl<'a> Writer<'a> {
    /// A writer appending to `out` (the file at `path`), showing `progress`; `games` gives the
    /// count of searched positions and the flag that stops the run.
    pub fn new(
        out: File,
        path: &'a Path,
        progress: ProgressBar,
        games: &'a Games<'a>,
        started: Instant,
    ) -> Writer<'a> {
        Writer {
            out,
            path,
            progress,
            games,
            stop: games.stop(),
            started,
            tally: Tally::default(),
            failure: None,
        }
    }

    /// Handles one event, then refreshes the progress bar's message (not after a line that
    /// could not be written: the run is stopping).
    pub fn handle(&mut self, event: Event) {
        match event {
            Event::Done(Outcome::Finished(line)) => {
                if let Err(e) = record::append(&mut self.out, &*line) {
                    self.failure =
                        Some(anyhow!(e).context(format!("writing {}", self.path.display())));
                    self.stop.store(true, Ordering::SeqCst);
                    return;
                }
                self.tally.add(&line);
                self.progress.inc(1);
            }
            Event::Done(Outcome::Dropped { .. }) => {
                self.tally.dropped += 1;
                self.progress.inc(1);
            }
            Event::Done(Outcome::Interrupted) => {}
            Event::Failed(e) => {
                self.failure.get_or_insert(e);
                self.stop.store(true, Ordering::SeqCst);
            }
        }
        self.refresh();
    }

    /// `812 positions, 1.25 games/s` on the progress bar.
    fn refresh(&self) {
        let secs = self.started.elapsed().as_secs_f64().max(1e-9);
        self.progress.set_message(format!(
            "{} positions, {:.2} games/s",
            self.games.positions(),
            self.tally.played() as f64 / secs
        ));
    }

    /// Clears the progress bar; the tallies, or the run's first failure.
    pub fn finish(self) -> Result<Tally> {
        self.progress.finish_and_clear();
        match self.failure {
            Some(e) => Err(e),
            None => Ok(self.tally),
        }
    }
}
