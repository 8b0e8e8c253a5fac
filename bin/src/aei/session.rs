//! The AEI session: the game, the options and at most one running search, driven by the
//! events of the reader thread and of the search thread.
//!
//! Promises, whatever the controller sends:
//! * exactly one `bestmove` per plain `go`, and none for `go ponder`; `stop` with no search
//!   waiting for its answer sends nothing;
//! * `makemove`, `newgame` and `setposition` end a running search or ponder without a word;
//! * the game changes only through `newgame`, `setposition` and a legal `makemove` (so Tusk's
//!   own move counts once the controller echoes it); anything refused leaves it as it was;
//! * every `bestmove` is checked against the game before it is sent: a legal turn that changes
//!   the board and repeats no position a third time, or the first such turn when the search's
//!   answer is not one; when every turn loses, still a legal turn;
//! * a search that overruns its hard deadline is answered by a watchdog with the best turn
//!   reported so far.

use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use tusk_engine::notation::turn::write_turn;
use tusk_engine::{Game, Position, TurnError, TurnGen};
use tusk_search::{Control, Limits, Report, SearchConfig, SearchResult, Searcher};

use super::command::{self, Command, CommandError};
use super::options::{Changed, OptionError, Options};
use super::output::{info_lines, Output};
use super::reader::Event;
use super::setup;
use super::time::{self, params, Budget, Clock};

/// How long after its hard deadline a search is answered by the watchdog.
const WATCHDOG_GRACE: Duration = Duration::from_millis(100);
/// How long an aborted search may take to stop before it is abandoned.
const ABORT_WAIT: Duration = Duration::from_secs(2);
/// The move number given to a position set by `setposition` (after both setups).
const SETPOSITION_MOVE_NUMBER: u32 = 2;

/// Whether the session goes on after a command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Flow {
    Continue,
    Quit,
}

/// Runs a session until `quit`, end of input, or the controller stops reading. `events`
/// is the sending side of `rx` (search threads report on it); the reader feeds it too.
pub fn run(out: Output, events: Sender<Event>, rx: Receiver<Event>) {
    let mut session = Session::new(out, events);
    loop {
        let event = match session.watchdog_in() {
            Some(wait) => match rx.recv_timeout(wait) {
                Ok(e) => e,
                Err(RecvTimeoutError::Timeout) => {
                    session.watchdog();
                    continue;
                }
                Err(RecvTimeoutError::Disconnected) => break,
            },
            None => match rx.recv() {
                Ok(e) => e,
                Err(_) => break,
            },
        };
        let flow = match event {
            Event::Line(line) => session.handle_line(&line),
            Event::Eof => Flow::Quit,
            Event::SearchDone(id) => {
                session.search_done(id);
                Flow::Continue
            }
        };
        if flow == Flow::Quit || !session.out.is_open() {
            break;
        }
    }
    session.shutdown();
}

/// What the search thread's report callback and the session share about one search.
#[derive(Clone, Debug, Default)]
struct Shared {
    /// The turn's budget (`None`: untimed, or pondering).
    budget: Option<Budget>,
    /// Seconds of the turn that had gone before the search clock started (`moveused`).
    offset: f64,
    /// How much the budget is stretched.
    extension: f64,
    /// The best turn last reported.
    best: Option<String>,
    /// How many times the best turn changed late.
    late_changes: u32,
    /// The depth of the last late change (at most one extension per depth).
    extended_at: u32,
}

impl Shared {
    /// Moves the control's deadlines to what the budget, offset and extension say.
    fn apply(&self, control: &Control) {
        if let Some(b) = &self.budget {
            let (soft, hard) = b.deadlines(self.offset, self.extension);
            control.set_soft(Some(soft));
            control.set_hard(Some(hard));
        }
    }
}

fn lock(shared: &Mutex<Shared>) -> MutexGuard<'_, Shared> {
    match shared.lock() {
        Ok(g) => g,
        Err(poisoned) => poisoned.into_inner(),
    }
}

/// A search in its own thread.
struct Running {
    id: u64,
    ponder: bool,
    control: Arc<Control>,
    shared: Arc<Mutex<Shared>>,
    handle: JoinHandle<(Searcher, Option<SearchResult>)>,
    /// The game it searches (to check its answer against).
    game: Game,
    /// No `bestmove` is (any longer) owed for it: a ponder, an aborted search, or one the
    /// watchdog already answered.
    answered: bool,
}

struct Session {
    out: Output,
    events: Sender<Event>,
    game: Game,
    game_started: Instant,
    opts: Options,
    searcher: Option<Searcher>,
    running: Option<Running>,
    next_id: u64,
    setup_seed: u64,
    handshake: bool,
    game_announced: bool,
    turns: TurnGen,
}

impl Session {
    fn new(out: Output, events: Sender<Event>) -> Session {
        Session {
            out,
            events,
            game: Game::new(),
            game_started: Instant::now(),
            opts: Options::default(),
            searcher: None,
            running: None,
            next_id: 0,
            setup_seed: rand::random(),
            handshake: false,
            game_announced: false,
            turns: TurnGen::new(),
        }
    }

    fn handle_line(&mut self, line: &str) -> Flow {
        let cmd = match command::parse(line) {
            Ok(c) => c,
            Err(e) => {
                self.out.error(&e.to_string());
                if self.opts.strict && matches!(e, CommandError::Unknown(_)) {
                    return Flow::Quit;
                }
                return Flow::Continue;
            }
        };
        if !self.handshake && !matches!(cmd, Command::Aei | Command::Quit | Command::Blank) {
            self.out
                .log(&format!("Warning: \"{line}\" before 'aei' ignored"));
            return Flow::Continue;
        }
        match cmd {
            Command::Aei => self.aei(),
            Command::IsReady => {
                self.prepare_searcher();
                self.out.line("readyok");
            }
            Command::NewGame => self.new_game(),
            Command::SetPosition(pos) => self.set_position(*pos),
            Command::SetOption { name, value } => self.set_option(&name, value.as_deref()),
            Command::MakeMove(text) => self.make_move(&text),
            Command::Go { ponder } => self.go(ponder),
            Command::Stop => self.stop(),
            Command::Quit => return Flow::Quit,
            Command::Blank => {}
        }
        Flow::Continue
    }

    fn aei(&mut self) {
        if self.handshake {
            self.out.warning("a second 'aei' ignored");
            return;
        }
        self.out.begin_handshake();
        self.out.line("protocol-version 1");
        self.out.line("id name Tusk");
        self.out.line("id author the Tusk developers");
        self.out
            .line(&format!("id version {}", env!("CARGO_PKG_VERSION")));
        self.out.line("aeiok");
        self.handshake = true;
    }

    /// Creates the searcher, or brings its size and threads up to the options. A running
    /// search has it; the change then waits until it comes back.
    fn prepare_searcher(&mut self) {
        if self.running.is_some() {
            return;
        }
        let want = SearchConfig {
            threads: self.opts.threads,
            hash_mb: self.opts.hash_mb,
        };
        let mut params = tusk_search::Params {
            weights: self.opts.weights.clone(),
            ..tusk_search::Params::default()
        };
        for &f in &self.opts.without {
            params.set(f, false);
        }
        match &mut self.searcher {
            None => {
                let mut s = Searcher::new(want);
                s.set_params(params);
                self.searcher = Some(s);
            }
            Some(s) => {
                s.set_params(params);
                let have = s.config();
                if have.threads != want.threads {
                    s.set_threads(want.threads);
                }
                if have.hash_mb != want.hash_mb {
                    s.set_hash_mb(want.hash_mb);
                }
            }
        }
    }

    fn new_game(&mut self) {
        self.abort_search();
        self.game = Game::new();
        self.game_started = Instant::now();
        self.opts.new_game();
        self.setup_seed = self.opts.seed.unwrap_or_else(rand::random);
        self.game_announced = true;
        self.prepare_searcher();
        if let Some(s) = &mut self.searcher {
            s.clear();
        }
    }

    fn set_position(&mut self, pos: Position) {
        self.abort_search();
        if !self.game_announced {
            self.game_started = Instant::now();
            self.game_announced = true;
        }
        self.game = Game::from_position(pos, SETPOSITION_MOVE_NUMBER);
        self.prepare_searcher();
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) {
        match self.opts.set(name, value) {
            Err(e @ OptionError::Unknown(_)) => self.out.warning(&e.to_string()),
            Err(e) => self.out.error(&e.to_string()),
            Ok(Changed::Stored) => {}
            Ok(Changed::MoveUsed) => {
                if let Some(r) = &self.running {
                    if !r.ponder {
                        let mut sh = lock(&r.shared);
                        sh.offset = self.opts.move_used - r.control.elapsed().as_secs_f64();
                        sh.apply(&r.control);
                    }
                }
            }
            Ok(Changed::Hash | Changed::Threads | Changed::Params) => {
                if name == "weights" {
                    if let Some(note) =
                        crate::cli::weights::missing_note(&self.opts.weights_missing)
                    {
                        self.out
                            .warning(&format!("weights {}: {note}", value.unwrap_or("")));
                    }
                }
                if self.searcher.is_some() {
                    self.prepare_searcher();
                }
            }
        }
    }

    fn make_move(&mut self, text: &str) {
        self.abort_search();
        if !self.game_announced {
            self.out
                .warning("makemove before newgame: taken as a move of a new game");
            self.game_announced = true;
        }
        // A new turn begins: what was spent on the last one no longer counts.
        self.opts.move_used = 0.0;
        let Err(e) = self.game.play_text(text) else {
            return;
        };
        if let TurnError::Capture { .. } = e {
            // Capture tokens are optional; a wrong one should not stop the game.
            let steps: Vec<&str> = text
                .split_whitespace()
                .filter(|t| !(t.len() == 4 && t.ends_with('x')))
                .collect();
            if self.game.play_text(&steps.join(" ")).is_ok() {
                self.out.warning(&format!(
                    "makemove {text}: {e}; played the steps without the capture tokens"
                ));
                return;
            }
        }
        self.out.error(&format!(
            "makemove {text}: {e}; the position is unchanged ({} to move)",
            self.game.move_label()
        ));
    }

    fn go(&mut self, ponder: bool) {
        if let Some(r) = &self.running {
            if !r.ponder && !r.answered {
                self.out
                    .error("go while a search is running: ignored (send stop first)");
                return;
            }
            self.abort_search();
        }
        if !self.game_announced {
            self.out.warning("go before newgame: playing a new game");
            self.game_announced = true;
        }
        if ponder {
            if self.game.in_setup() || self.game.result().is_some() {
                self.out.debug("nothing to ponder");
                return;
            }
            self.start_search(true);
            return;
        }
        if self.game.in_setup() {
            let side = self.game.side_to_move();
            let s = setup::choose(side, self.setup_seed, self.game.position());
            let text = s.to_string();
            match self.game.clone().play_text(&text) {
                Ok(()) => self.out.line(&format!("bestmove {text}")),
                Err(e) => self.out.error(&format!("own setup {text} refused: {e}")),
            }
            return;
        }
        if let Some(result) = self.game.result() {
            self.out.warning(&format!(
                "go in a finished game ({} won by {}): sending a legal turn anyway",
                result.winner.name(),
                result.reason.name()
            ));
            let game = self.game.clone();
            match self.any_turn(&game) {
                Some(t) => self.out.line(&format!("bestmove {t}")),
                None => self.out.error("no legal turn exists: no bestmove"),
            }
            return;
        }
        self.start_search(false);
    }

    fn start_search(&mut self, ponder: bool) {
        self.prepare_searcher();
        let Some(mut searcher) = self.searcher.take() else {
            return;
        };
        let control = Arc::new(Control::new());
        let side = self.game.side_to_move();
        let budget = if ponder {
            None
        } else {
            time::budget(
                &self.opts.tc,
                &Clock {
                    reserve: self.opts.reserve_of(side),
                    game_elapsed: self.game_started.elapsed().as_secs_f64(),
                    move_number: self.game.move_number(),
                },
            )
        };
        let mut extension = 1.0;
        if !ponder && opponent_threatens_goal(self.game.position()) {
            extension = params::GOAL_THREAT_EXTENSION;
        }
        let shared = Arc::new(Mutex::new(Shared {
            budget,
            offset: self.opts.move_used,
            extension,
            best: None,
            late_changes: 0,
            extended_at: 0,
        }));
        lock(&shared).apply(&control);
        let limits = Limits {
            depth: if ponder {
                None
            } else {
                self.opts.depth.map(|d| d.max(4))
            },
            nodes: if ponder { None } else { self.opts.nodes },
            ..Limits::default()
        };
        let id = self.next_id;
        self.next_id += 1;
        if !ponder {
            self.out.line("info time 0");
        }
        let game = self.game.clone();
        let thread_game = self.game.clone();
        let (out, events) = (self.out.clone(), self.events.clone());
        let (thread_control, thread_shared) = (Arc::clone(&control), Arc::clone(&shared));
        let spawned = std::thread::Builder::new()
            .name("tusk-search".into())
            .spawn(move || {
                let side = thread_game.side_to_move();
                let mut on_report = |r: &Report| {
                    for line in info_lines(r, side) {
                        out.line(&line);
                    }
                    note_best(r, &thread_control, &thread_shared);
                };
                let result =
                    searcher.search(&thread_game, &limits, &thread_control, &mut on_report);
                let _ = events.send(Event::SearchDone(id));
                (searcher, result)
            });
        match spawned {
            Ok(handle) => {
                self.running = Some(Running {
                    id,
                    ponder,
                    control,
                    shared,
                    handle,
                    game,
                    answered: ponder,
                });
            }
            Err(e) => {
                // The searcher went with the failed closure; a new one is made next time.
                self.out
                    .error(&format!("cannot start the search thread: {e}"));
                if !ponder {
                    self.answer(&game, None, &Shared::default(), 0.0);
                }
            }
        }
    }

    /// `stop`: a search owed a `bestmove` is stopped and answered before the next command is
    /// read; a ponder ends silently; otherwise (a late stop) nothing happens.
    fn stop(&mut self) {
        let Some(r) = &self.running else {
            return;
        };
        if r.ponder {
            self.abort_search();
            return;
        }
        if r.answered {
            return;
        }
        r.control.stop();
        let id = r.id;
        if wait_finished(&r.handle) {
            self.search_done(id);
        } else {
            self.answer_stuck("did not stop within 2 s of 'stop'");
        }
    }

    /// Ends the running search, if any, without a `bestmove`, and takes its searcher back.
    fn abort_search(&mut self) {
        let Some(r) = self.running.take() else {
            return;
        };
        r.control.stop();
        if wait_finished(&r.handle) {
            match r.handle.join() {
                Ok((searcher, _)) => self.searcher = Some(searcher),
                Err(_) => self
                    .out
                    .error("the search thread failed; a new searcher is made"),
            }
            self.prepare_searcher();
        } else {
            self.out.error(&format!(
                "the search did not stop within {} s; it is abandoned and a new searcher is made",
                ABORT_WAIT.as_secs()
            ));
        }
    }

    /// A search thread has finished: take the searcher back and answer its `go`.
    fn search_done(&mut self, id: u64) {
        if self.running.as_ref().map(|r| r.id) != Some(id) {
            return;
        }
        let Some(r) = self.running.take() else {
            return;
        };
        let result = match r.handle.join() {
            Ok((searcher, result)) => {
                self.searcher = Some(searcher);
                result
            }
            Err(_) => {
                self.out
                    .error("the search thread failed; a new searcher is made");
                None
            }
        };
        self.prepare_searcher();
        if !r.answered {
            let sh = lock(&r.shared).clone();
            let used = r.control.elapsed().as_secs_f64() + sh.offset;
            self.answer(&r.game, result.as_ref(), &sh, used);
        }
    }

    /// When the watchdog must look at the running search, if it is owed a `bestmove` and has
    /// a hard deadline.
    fn watchdog_in(&self) -> Option<Duration> {
        let r = self.running.as_ref()?;
        if r.answered {
            return None;
        }
        let fire = r.control.hard()? + WATCHDOG_GRACE;
        Some(fire.saturating_sub(r.control.elapsed()))
    }

    /// Answers a search that has overrun its hard deadline with its best turn so far.
    fn watchdog(&mut self) {
        let Some(r) = self.running.as_mut() else {
            return;
        };
        let Some(hard) = r.control.hard() else {
            return;
        };
        if r.answered || r.control.elapsed() < hard + WATCHDOG_GRACE {
            return;
        }
        self.answer_stuck(&format!(
            "overran its hard deadline ({:.2} s)",
            hard.as_secs_f64()
        ));
    }

    /// Answers the running search, which has not returned, with its best turn reported so far;
    /// it is told to stop and its eventual result is dropped.
    fn answer_stuck(&mut self, why: &str) {
        let Some(r) = self.running.as_mut() else {
            return;
        };
        r.control.stop();
        r.answered = true;
        let game = r.game.clone();
        let sh = lock(&r.shared).clone();
        let used = r.control.elapsed().as_secs_f64() + sh.offset;
        self.out.error(&format!(
            "the search {why}; answering with its best turn so far"
        ));
        self.answer(&game, None, &sh, used);
    }

    /// Sends the `bestmove` for `game`: the search's answer if it is a legal, board-changing,
    /// non-repeating turn, else the last reported best turn if that is, else the first such
    /// turn, else any legal turn.
    fn answer(&mut self, game: &Game, result: Option<&SearchResult>, sh: &Shared, used: f64) {
        let candidates = result
            .map(|r| r.best_text.as_str())
            .into_iter()
            .chain(sh.best.as_deref());
        let mut chosen = None;
        for text in candidates {
            match game.clone().play_text(text) {
                Ok(()) => {
                    chosen = Some(text.to_string());
                    break;
                }
                Err(e) => self.out.error(&format!(
                    "the search's turn \"{text}\" is not playable: {e}"
                )),
            }
        }
        let Some(text) = chosen.or_else(|| self.any_turn(game)) else {
            self.out.error("no legal turn exists: no bestmove");
            return;
        };
        self.out.line(&format!("bestmove {text}"));
        let side = game.side_to_move();
        let reserve = self.opts.reserve_of(side);
        self.opts.reserve[side] = Some(self.opts.tc.reserve_after(reserve, used, false));
        let mut summary = format!("bestmove after {used:.3} s");
        if let Some(b) = &sh.budget {
            let (soft, hard) = b.deadlines(0.0, sh.extension);
            summary.push_str(&format!(
                " (budget: soft {:.3} s, hard {:.3} s, deadline {:.3} s; extension {:.2}, {} late best-turn changes)",
                soft.as_secs_f64(),
                hard.as_secs_f64(),
                b.available,
                sh.extension,
                sh.late_changes
            ));
        }
        if let Some(r) = result {
            summary.push_str(&format!(
                "; depth {}, score {}, nodes {}",
                r.depth, r.score, r.nodes
            ));
        }
        self.out.debug(&summary);
    }

    /// The first legal turn of `game` that repeats no position a third time, else the first
    /// legal turn at all (every turn loses then, but a legal one is still sent).
    fn any_turn(&mut self, game: &Game) -> Option<String> {
        let pos = game.position();
        let mut first = None;
        let repeats = |k: u64| game.would_repeat_third_time(k);
        for excluded in [&repeats as &dyn Fn(u64) -> bool, &|_| false] {
            self.turns.for_each_turn_excluding(pos, excluded, &mut |t| {
                if first.is_none() {
                    first = Some(t.turn());
                }
            });
            if let Some(turn) = first {
                return Some(write_turn(pos, &turn));
            }
        }
        None
    }

    /// Stops whatever runs; the process is about to exit, so nothing is waited for.
    fn shutdown(&mut self) {
        if let Some(r) = &self.running {
            r.control.stop();
        }
    }
}

/// Waits up to [`ABORT_WAIT`] for a search thread to end; whether it did.
fn wait_finished<T>(handle: &JoinHandle<T>) -> bool {
    let started = Instant::now();
    while !handle.is_finished() && started.elapsed() < ABORT_WAIT {
        std::thread::sleep(Duration::from_micros(200));
    }
    handle.is_finished()
}

/// Whether the opponent could reach goal if the side to move passed: a reason to think longer.
fn opponent_threatens_goal(pos: &Position) -> bool {
    let mut opp = pos.clone();
    opp.end_turn();
    tusk_eval::goal::can_goal(&opp)
}

/// Follows the best turn through the reports; a change late in the search stretches the
/// budget (once per depth).
fn note_best(report: &Report, control: &Control, shared: &Mutex<Shared>) {
    let Some(first) = report.pv.first() else {
        return;
    };
    let mut sh = lock(shared);
    if sh.best.as_deref() == Some(first.as_str()) {
        return;
    }
    let late = sh.best.is_some()
        && sh.budget.is_some()
        && report.depth > sh.extended_at
        && control
            .soft()
            .is_some_and(|s| control.elapsed() >= s.mul_f64(params::LATE_FRACTION));
    if late {
        sh.extension = (sh.extension * params::BEST_CHANGE_EXTENSION).min(params::MAX_EXTENSION);
        sh.late_changes += 1;
        sh.extended_at = report.depth;
        sh.apply(control);
    }
    sh.best = Some(first.clone());
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::aei::time::TimeControl;
    use tusk_search::Score;

    fn report(depth: u32, best: &str) -> Report {
        Report {
            depth,
            partial: false,
            seldepth: depth,
            score: Score::centirabbits(0),
            nodes: 0,
            elapsed: Duration::ZERO,
            hashfull: 0,
            pv: vec![best.to_string()],
            multipv: 1,
        }
    }

    fn shared_2s_10s() -> Shared {
        let tc = TimeControl {
            per_move: 2.0,
            reserve: 10.0,
            ..TimeControl::default()
        };
        let clock = Clock {
            reserve: 10.0,
            game_elapsed: 0.0,
            move_number: 2,
        };
        Shared {
            budget: time::budget(&tc, &clock),
            extension: 1.0,
            ..Shared::default()
        }
    }

    #[test]
    fn early_changes_do_not_extend() {
        let control = Control::new();
        let shared = Mutex::new(shared_2s_10s());
        lock(&shared).apply(&control);
        assert_eq!(control.soft(), Some(Duration::from_secs_f64(0.95)));
        // Far from 30% of the soft deadline: no extension.
        control.set_soft(Some(Duration::from_secs(1000)));
        note_best(&report(1, "Ee2n"), &control, &shared);
        note_best(&report(2, "Md2n"), &control, &shared);
        let sh = lock(&shared);
        assert_eq!((sh.extension, sh.late_changes), (1.0, 0));
        assert_eq!(sh.best.as_deref(), Some("Md2n"));
    }

    #[test]
    fn late_changes_extend_once_per_depth_up_to_the_limit() {
        let control = Control::new();
        let shared = Mutex::new(shared_2s_10s());
        // Every change counts as late once the soft deadline is zero.
        control.set_soft(Some(Duration::ZERO));
        note_best(&report(1, "Ee2n"), &control, &shared);
        note_best(&report(5, "Md2n"), &control, &shared);
        note_best(&report(5, "Ee2n"), &control, &shared);
        {
            let sh = lock(&shared);
            assert_eq!(sh.late_changes, 1, "one extension per depth");
            assert!((sh.extension - params::BEST_CHANGE_EXTENSION).abs() < 1e-12);
        }
        // The deadlines moved: 1.4 x (0.95, 3.8).
        assert_eq!(control.soft(), Some(Duration::from_secs_f64(0.95 * 1.4)));
        assert_eq!(control.hard(), Some(Duration::from_secs_f64(3.8 * 1.4)));
        for d in 6..12 {
            control.set_soft(Some(Duration::ZERO));
            note_best(
                &report(d, if d % 2 == 0 { "Md2n" } else { "Ee2n" }),
                &control,
                &shared,
            );
        }
        assert_eq!(lock(&shared).extension, params::MAX_EXTENSION);
        // 2 x 3.8 = 7.6, cut to the cap 2 + 10 / 2.
        assert_eq!(control.hard(), Some(Duration::from_secs_f64(7.0)));
    }

    #[test]
    fn untimed_searches_are_never_extended() {
        let control = Control::new();
        let shared = Mutex::new(Shared {
            extension: 1.0,
            ..Shared::default()
        });
        control.set_soft(Some(Duration::ZERO));
        note_best(&report(1, "Ee2n"), &control, &shared);
        note_best(&report(2, "Md2n"), &control, &shared);
        assert_eq!(lock(&shared).extension, 1.0);
        assert_eq!(control.hard(), None);
    }
}
