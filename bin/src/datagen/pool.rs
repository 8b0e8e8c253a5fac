//! The game threads: each owns a single-threaded searcher and plays the next index still to
//! play, until none is left, the run is stopped, its game fails or the writer has gone.
//! Their events go to the calling thread, which writes them.

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::mpsc::{self, Sender};

use anyhow::Result;
use tusk_engine::TurnGen;
use tusk_search::{Params, SearchConfig, Searcher};

use super::game::{self, GameConfig, Outcome};
use super::plan::Plan;

/// What the writer hears from the game threads.
pub enum Event {
    /// A game ended (or was dropped, or interrupted).
    Done(Outcome),
    /// A game thread failed.
    Failed(anyhow::Error),
}

/// The games to play and what their threads share: the settings, the next index to take and
/// the count of positions searched.
pub struct Games<'a> {
    cfg: &'a GameConfig,
    params: &'a Params,
    todo: &'a [u64],
    hash_mb: usize,
    stop: &'a AtomicBool,
    next: AtomicUsize,
    positions: AtomicU64,
}

impl<'a> Games<'a> {
    /// The games of `plan`, each thread's transposition table `hash_mb` MiB; `stop` abandons
    /// them between turns.
    pub fn new(plan: &'a Plan, hash_mb: usize, stop: &'a AtomicBool) -> Games<'a> {
        Games {
            cfg: &plan.cfg,
            params: &plan.params,
            todo: &plan.todo,
            hash_mb,
            stop,
            next: AtomicUsize::new(0),
            positions: AtomicU64::new(0),
        }
    }

    /// The flag that stops the run (set by Ctrl-C or a failure).
    pub fn stop(&self) -> &'a AtomicBool {
        self.stop
    }

    /// Positions searched so far, by every thread.
    pub fn positions(&self) -> u64 {
        self.positions.load(Ordering::Relaxed)
    }

    /// A single-threaded searcher with the run's parameters.
    fn searcher(&self) -> Result<Searcher> {
        let mut searcher = Searcher::new(SearchConfig {
            threads: 1,
            hash_mb: self.hash_mb,
        })
        .map_err(anyhow::Error::new)?;
        searcher.set_params(self.params.clone());
        Ok(searcher)
    }

    /// Plays game `index`, counting its searched positions.
    fn play_one(&self, index: u64, searcher: &mut Searcher, gen: &mut TurnGen) -> Event {
        let mut count = || {
            self.positions.fetch_add(1, Ordering::Relaxed);
        };
        match game::play(self.cfg, index, searcher, gen, self.stop, &mut count) {
            Ok(o) => Event::Done(o),
            Err(e) => Event::Failed(e),
        }
    }
}

/// Plays `games` on `threads` threads (no more than there are games, at least one), handing
/// each event to `on_event` on the calling thread until every game thread has stopped.
pub fn play(games: &Games, threads: usize, mut on_event: impl FnMut(Event)) {
    let (tx, rx) = mpsc::channel::<Event>();
    std::thread::scope(|scope| {
        for _ in 0..threads.min(games.todo.len().max(1)) {
            let tx = tx.clone();
            scope.spawn(move || work(games, tx));
        }
        drop(tx);
        for event in rx {
            on_event(event);
        }
    });
}

/// One game thread: takes the next index until none is left or the run is stopped; a failure
/// (its own or the writer's absence) ends it.
fn work(games: &Games, tx: Sender<Event>) {
    let mut searcher = match games.searcher() {
        Ok(s) => s,
        Err(e) => {
            let _ = tx.send(Event::Failed(e));
            return;
        }
    };
    let mut gen = TurnGen::new();
    loop {
        let i = games.next.fetch_add(1, Ordering::SeqCst);
        let Some(&index) = games.todo.get(i) else {
            break;
        };
        if games.stop.load(Ordering::SeqCst) {
            break;
        }
        let event = games.play_one(index, &mut searcher, &mut gen);
        let failed = matches!(event, Event::Failed(_));
        if tx.send(event).is_err() || failed {
            break;
        }
    }
}
