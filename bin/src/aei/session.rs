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
use tusk_engine::{Game, Position, TurnGen};
use tusk_search::{Control, Limits, Report, SearchConfig, SearchResult, Searcher};

use super::command::{self, Command, CommandError};
use super::options::{Changed, OptionError, Options};
use super::output::{info_lines, Output};
use super::reader::Event;
use crate::clock::policy::{self, Spending, TurnClock};

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
            Event::Overlong(bytes) => {
                session.out.error(&format!(
                    "a line of {bytes} bytes was ignored (the longest line read is {} bytes)",
                    super::reader::MAX_LINE_BYTES
                ));
                Flow::Continue
            }
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

fn lock(shared: &Mutex<Spending>) -> MutexGuard<'_, Spending> {
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
    shared: Arc<Mutex<Spending>>,
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
    /// search has it; the change then waits until it comes back. A table that cannot be made
    /// is reported and the one in use kept (the option goes back to its size); a thread count
    /// beyond what the machine runs is capped, with a warning.
    fn prepare_searcher(&mut self) {
        if self.running.is_some() {
            return;
        }
        if self.searcher.is_none() {
            // The default size first; the options' size is then applied like any change.
            match Searcher::new(SearchConfig::default()) {
                Ok(s) => self.searcher = Some(s),
                Err(e) => {
                    self.out.error(&format!("cannot make the searcher: {e}"));
                    return;
                }
            }
        }
        let mut params = tusk_search::Params {
            weights: self.opts.weights.clone(),
            ..tusk_search::Params::default()
        };
        params.switch(&self.opts.with, &self.opts.without);
        params.tune(&self.opts.tunables);
        let Some(s) = &mut self.searcher else {
            return;
        };
        s.set_params(params);
        let have = s.config();
        if have.threads != self.opts.threads {
            match s.set_threads(self.opts.threads) {
                Ok(runs) if runs < self.opts.threads => self.out.warning(&format!(
                    "threads {}: capped at {runs}, the threads this machine runs at once",
                    self.opts.threads
                )),
                Ok(_) => {}
                Err(e) => {
                    self.out
                        .error(&format!("{e}; kept {} threads", have.threads));
                    self.opts.threads = have.threads;
                }
            }
        }
        if have.hash_mb != self.opts.hash_mb {
            if let Err(e) = s.set_hash_mb(self.opts.hash_mb) {
                self.out
                    .error(&format!("{e}; kept the {} MiB table", have.hash_mb));
                self.opts.hash_mb = have.hash_mb;
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
            // The table is made (or refused) now, so the answer comes to this command.
            Ok(Changed::Hash | Changed::Threads) => self.prepare_searcher(),
            Ok(Changed::Params) => {
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
        match self.game.play_text_lenient(text) {
            Ok(None) => {}
            Ok(Some(e)) => self.out.warning(&format!(
                "makemove {text}: {e}; played the steps without the capture tokens"
            )),
            Err(e) => self.out.error(&format!(
                "makemove {text}: {e}; the position is unchanged ({} to move)",
                self.game.move_label()
            )),
        }
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
            let s = tusk_engine::setup::default_setup(side, self.setup_seed, self.game.position());
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
                None => self.resign_without_turn(),
            }
            return;
        }
        self.start_search(false);
    }

    fn start_search(&mut self, ponder: bool) {
        self.prepare_searcher();
        let Some(mut searcher) = self.searcher.take() else {
            // No searcher could be made (already reported): still a legal answer.
            if !ponder {
                let game = self.game.clone();
                self.answer(&game, None, &Spending::default(), 0.0);
            }
            return;
        };
        let control = Arc::new(Control::new());
        let side = self.game.side_to_move();
        let budget = if ponder {
            None
        } else {
            policy::budget(
                &self.opts.tc,
                &TurnClock {
                    reserve: self.opts.reserve_of(side),
                    game_elapsed: self.game_started.elapsed().as_secs_f64(),
                    move_number: self.game.move_number(),
                },
            )
        };
        let extension = if ponder {
            1.0
        } else {
            policy::initial_extension(self.game.position())
        };
        let shared = Arc::new(Mutex::new(Spending::new(
            budget,
            self.opts.move_used,
            extension,
        )));
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
                let mut on_report = |r: &Report| {
                    for line in info_lines(r, thread_game.position()) {
                        out.line(&line);
                    }
                    if !out.is_open() {
                        // The controller has gone: nobody will read the answer.
                        thread_control.stop();
                    }
                    lock(&thread_shared).on_report(r, &thread_control);
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
                    self.answer(&game, None, &Spending::default(), 0.0);
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
                if let Some(res) = &result {
                    if res.threads < searcher.threads() {
                        self.out.warning(&format!(
                            "only {} of {} search threads could be started",
                            res.threads,
                            searcher.threads()
                        ));
                    }
                }
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
    fn answer(&mut self, game: &Game, result: Option<&SearchResult>, sh: &Spending, used: f64) {
        let candidates = result.map(|r| r.best).into_iter().chain(sh.best);
        let mut chosen = None;
        for turn in candidates {
            let text = game.turn_text(&turn);
            match game.clone().play_text(&text) {
                Ok(()) => {
                    chosen = Some(text);
                    break;
                }
                Err(e) => self.out.error(&format!(
                    "the search's turn \"{text}\" is not playable: {e}"
                )),
            }
        }
        let Some(text) = chosen.or_else(|| self.any_turn(game)) else {
            self.resign_without_turn();
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
                "; depth {}, score {}, nodes {}, threads {}",
                r.depth, r.score, r.nodes, r.threads
            ));
        }
        self.out.debug(&summary);
    }

    /// Answers a `go` in a position where the side to move has no legal turn at all: the
    /// controllers' convention `bestmove resign` (pyrimaa's `roundrobin` and `gameroom` score
    /// it as a resignation), so a controller waiting for a move is never left waiting.
    fn resign_without_turn(&self) {
        self.out
            .error("the side to move has no legal turn: answering 'bestmove resign'");
        self.out.line("bestmove resign");
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

#[cfg(test)]
mod tests {
    //! The session under arbitrary input: whatever lines arrive, in whatever order, it never
    //! panics, answers every `go` that owes a move, and still answers `isready` at the end.

    use super::*;
    use proptest::prelude::*;
    use std::sync::mpsc::{channel, Receiver};

    /// An output that collects what the session writes.
    #[derive(Clone, Default)]
    struct Sink(Arc<Mutex<Vec<u8>>>);

    impl std::io::Write for Sink {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    impl Sink {
        fn text(&self) -> String {
            String::from_utf8_lossy(&self.0.lock().unwrap()).into_owned()
        }
    }

    /// Hands finished searches back to the session, as the event loop does.
    fn pump(session: &mut Session, rx: &Receiver<Event>) {
        while let Ok(event) = rx.try_recv() {
            if let Event::SearchDone(id) = event {
                session.search_done(id);
            }
        }
    }

    /// `with` and a tunable set by `setoption` reach the searcher's parameters, before and
    /// after it exists; a refused value leaves them as they were.
    #[test]
    fn features_and_tunables_reach_the_searcher() {
        let (tx, _rx) = channel();
        let mut session = Session::new(Output::new(Box::new(Sink::default())), tx);
        for l in [
            "aei",
            "setoption name hash value 1",
            "setoption name with value rfp",
            "setoption name rfp_margin value 30",
            "isready",
        ] {
            session.handle_line(l);
        }
        let params = |s: &Session| s.searcher.as_ref().expect("a searcher").params().clone();
        let p = params(&session);
        assert!(p.reverse_futility);
        assert_eq!((p.rfp_margin, p.rfp_max_depth), (30, 3));
        session.handle_line("setoption name rfp_max_depth value 5");
        session.handle_line("setoption name rfp_margin value -1");
        let p = params(&session);
        assert_eq!((p.rfp_margin, p.rfp_max_depth), (30, 5));
    }

    /// Lines a controller (or a fuzzer) might send: protocol commands with random arguments,
    /// and raw bytes.
    fn line() -> impl Strategy<Value = String> {
        let cell = prop::sample::select(" rcdhmeRCDHMEx.".chars().collect::<Vec<_>>());
        let board = (
            prop::sample::select(vec!["g", "s", "w", "b", "x"]),
            prop::collection::vec(cell, 60..68),
        )
            .prop_map(|(side, cells)| {
                format!(
                    "setposition {side} [{}]",
                    cells.into_iter().collect::<String>()
                )
            });
        let option = (
            prop::sample::select(vec![
                "tcmove",
                "tcreserve",
                "tcpercent",
                "tcmax",
                "tctotal",
                "tcturns",
                "tcturntime",
                "greserve",
                "sreserve",
                "moveused",
                "depth",
                "nodes",
                "seed",
                "strict",
                "rated",
                "with",
                "without",
                "rfp_margin",
                "null_min_depth",
                "lmr_full_moves",
                "opponent",
                "bogus",
            ]),
            prop::sample::select(vec![
                "0", "1", "-1", "1e300", "nan", "4", "300", "2.5", "", "x", "lmr,tt", "1e-9",
            ]),
        )
            .prop_map(|(n, v)| format!("setoption name {n} value {v}"));
        let step = "[RCDHMErcdhme][a-h][1-8][nsewx]";
        let makemove =
            prop::collection::vec(step, 0..6).prop_map(|s| format!("makemove {}", s.join(" ")));
        prop_oneof![
            3 => prop::sample::select(vec![
                "aei", "isready", "newgame", "go", "go ponder", "stop", "quit", "",
                "setposition START",
                "makemove Ra1 Rb1 Rc1 Dd1 De1 Rf1 Rg1 Rh1 Ra2 Hb2 Cc2 Md2 Ee2 Cf2 Hg2 Rh2",
                "makemove ra8 rb8 rc8 dd8 de8 rf8 rg8 rh8 ra7 hb7 cc7 ed7 me7 cf7 hg7 rh7",
                "makemove Ee2n Ee3n",
            ]).prop_map(|l| l.replace("START", crate::cli::position::START)),
            2 => board,
            2 => option,
            2 => makemove,
            1 => prop::collection::vec(any::<u8>(), 0..40)
                .prop_map(|b| String::from_utf8_lossy(&b).into_owned()),
            1 => "\\PC{0,60}",
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

        #[test]
        fn arbitrary_input_never_breaks_the_session(
            start in any::<bool>(),
            lines in prop::collection::vec(line(), 0..24),
        ) {
            let sink = Sink::default();
            let (tx, rx) = channel();
            let mut session = Session::new(Output::new(Box::new(sink.clone())), tx);
            // Small, quick searches, whatever the fuzzer sets later (it may clear the limit:
            // `stop` ends such a search).
            for l in ["aei", "setoption name hash value 1", "setoption name nodes value 300"] {
                session.handle_line(l);
            }
            if start {
                // Half the cases play from the opening, so that searches run.
                session.handle_line(&format!("setposition {}", crate::cli::position::START));
            }
            for l in &lines {
                session.handle_line(l);
                pump(&mut session, &rx);
            }
            session.handle_line("stop");
            pump(&mut session, &rx);
            if let Some(r) = session.running.as_ref() {
                // A search may still be running (a ponder, or one already answered).
                r.control.stop();
                let id = r.id;
                prop_assert!(wait_finished(&r.handle));
                session.search_done(id);
            }
            session.handle_line("isready");
            let text = sink.text();
            prop_assert!(text.ends_with("readyok\n"), "{}", text);
            // Every plain `go` that was not refused was answered: at most one bestmove each.
            let gos = lines.iter().filter(|l| l.trim().eq_ignore_ascii_case("go")).count();
            let answers = text.lines().filter(|l| l.starts_with("bestmove ")).count();
            prop_assert!(answers <= gos, "{} bestmoves for {} go: {}", answers, gos, text);
        }
    }
}
