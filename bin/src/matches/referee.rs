//! Plays one game between two started engines. The referee trusts only its own
//! [`tusk_engine::Game`]: every `bestmove` is checked there (legal, changes the board, not a
//! third repetition), the clocks are kept as pyrimaa's `Game` keeps them, and every fault
//! (illegal move, time loss, crash, hang) ends the game as a loss for the side at fault.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use tusk_engine::notation::turn::without_capture_tokens;
use tusk_engine::{ByColor, Color, Game};

use super::aei_client::{AeiClient, Answer, ClientError};
use super::reason::Reason;
use super::schedule::Opening;
use crate::clock::{seconds_to_duration, Clock, TimeControl};

/// One side of a game: its engine and its time control.
pub struct Player<'a> {
    /// The engine, already started (handshake done, engine options sent).
    pub client: &'a mut AeiClient,
    /// The side's time control, or none (fixed-effort engines).
    pub tc: Option<TimeControl>,
}

/// Settings of the referee that are the same for every game.
#[derive(Clone, Debug)]
pub struct RefereeConfig {
    /// Without a time control, a turn that takes longer than this is a loss on time (a hung
    /// engine must not stop the match).
    pub move_timeout: Duration,
    /// Send `stop` this many seconds before the deadline (roundrobin's `stop_time`).
    pub stop_time: Option<f64>,
    /// Treat an engine's warning about one of its options (`log Warning:`, an option it does
    /// not know and ignores) as a refusal: the run stops before a game is played with it.
    pub strict_options: bool,
}

/// How a game ended.
#[derive(Debug)]
pub struct Outcome {
    /// The winner.
    pub winner: Color,
    /// Why: a natural end, or a fault ([`Reason::Time`] also covers a crash or a hang).
    pub reason: Reason,
    /// A sentence for people: what happened.
    pub detail: String,
    /// The game as played (the illegal move, if any, is not in it).
    pub game: Game,
    /// The rejected move text, when `reason` is [`Reason::Illegal`].
    pub illegal_move: Option<String>,
    /// Per side: whether that engine misbehaved and must not be reused.
    pub faulty: ByColor<bool>,
    /// Per side: what its engine warned about its options before the game (`log Warning:`
    /// texts; only in the first game of a started engine).
    pub option_warnings: ByColor<Vec<String>>,
}

/// The result of [`play_game`].
#[derive(Debug)]
pub enum Played {
    /// The game ended.
    Finished(Box<Outcome>),
    /// The match was cancelled (Ctrl-C or a decided SPRT); the game does not count.
    Aborted,
    /// The engine of `side` answered its options with `log Error: <text>` before the game:
    /// it would not play as configured, and the game does not count.
    OptionsRefused {
        /// The side whose engine refused.
        side: Color,
        /// The engine's words.
        text: String,
    },
}

/// The winner of a game stopped by a turn or game-time limit: the side with more pieces;
/// on equal counts silver (pyrimaa's default).
pub fn limit_winner(game: &Game) -> Color {
    let p = game.position();
    let g = p.occupied_by(Color::Gold).count();
    let s = p.occupied_by(Color::Silver).count();
    if g > s {
        Color::Gold
    } else {
        Color::Silver
    }
}

/// `pieces gold 12, silver 11` for limit details.
fn piece_counts(game: &Game) -> String {
    let p = game.position();
    format!(
        "pieces gold {}, silver {}",
        p.occupied_by(Color::Gold).count(),
        p.occupied_by(Color::Silver).count()
    )
}

/// Why the game loop stopped.
enum Stop {
    /// The match is being cancelled: the game does not count.
    Aborted,
    /// An engine refused its options: the game does not count.
    OptionsRefused(Color, String),
    /// The game ended.
    End {
        /// The winner.
        winner: Color,
        /// Why.
        reason: Reason,
        /// What happened, for people.
        detail: String,
        /// The rejected move of an illegal-move loss.
        illegal_move: Option<String>,
    },
}

impl Stop {
    /// The game ended for `reason` with `winner`.
    fn end(winner: Color, reason: Reason, detail: String) -> Stop {
        Stop::End {
            winner,
            reason,
            detail,
            illegal_move: None,
        }
    }
}

/// One game in progress: the engines, the referee's own game and the clocks.
struct Referee<'a, 'c> {
    clients: ByColor<&'a mut AeiClient>,
    tcs: ByColor<Option<TimeControl>>,
    names: ByColor<&'a str>,
    cfg: &'c RefereeConfig,
    cancel: &'c AtomicBool,
    game: Game,
    clock: Clock,
    start: Instant,
    faulty: ByColor<bool>,
    /// Engines whose input is closed (a `makemove` could not be sent).
    dead: ByColor<bool>,
    /// What each engine warned about its options.
    option_warnings: ByColor<Vec<String>>,
}

/// Plays one game. `opening`, when given, holds the gold and silver setups and the turns
/// after them that the referee plays itself (the engines are not asked, and no clock runs).
/// `names` label the sides in details.
pub fn play_game(
    players: ByColor<Player<'_>>,
    names: ByColor<&str>,
    opening: Option<&Opening>,
    cfg: &RefereeConfig,
    cancel: &AtomicBool,
) -> Played {
    let ByColor([gold, silver]) = players;
    let tcs = ByColor::new(gold.tc, silver.tc);
    let mut referee = Referee {
        clients: ByColor::new(gold.client, silver.client),
        tcs,
        names,
        cfg,
        cancel,
        game: Game::new(),
        clock: Clock::new(tcs),
        start: Instant::now(),
        faulty: ByColor::default(),
        dead: ByColor::default(),
        option_warnings: ByColor::default(),
    };
    let stop = match referee.play_out(opening) {
        Ok(never) => match never {},
        Err(stop) => stop,
    };
    referee.finish(stop)
}

impl Referee<'_, '_> {
    /// `gold (name)`.
    fn who(&self, c: Color) -> String {
        format!("{} ({})", c.name(), self.names[c])
    }

    /// Turns the reason the game loop stopped into the result.
    fn finish(self, stop: Stop) -> Played {
        let (winner, reason, detail, illegal_move) = match stop {
            Stop::End {
                winner,
                reason,
                detail,
                illegal_move,
            } => (winner, reason, detail, illegal_move),
            Stop::Aborted => return Played::Aborted,
            Stop::OptionsRefused(side, text) => return Played::OptionsRefused { side, text },
        };
        // A fault seen while the match is being cancelled is the cancellation itself (the
        // engines were just killed): the game does not count.
        let faults = [Reason::Time, Reason::Illegal, Reason::Limit];
        if faults.contains(&reason) && self.cancel.load(Ordering::SeqCst) {
            return Played::Aborted;
        }
        Played::Finished(Box::new(Outcome {
            winner,
            reason,
            detail,
            game: self.game,
            illegal_move,
            faulty: self.faulty,
            option_warnings: self.option_warnings,
        }))
    }

    /// Plays until the game ends; only ever returns the reason it stopped.
    fn play_out(&mut self, opening: Option<&Opening>) -> Result<std::convert::Infallible, Stop> {
        for c in Color::ALL {
            self.prepare(c)?;
        }
        self.clock = Clock::new(self.tcs);
        self.start = Instant::now();
        loop {
            if let Some(r) = self.game.result() {
                let detail = format!("{} wins by {}", self.who(r.winner), r.reason.name());
                return Err(Stop::end(r.winner, Reason::from_end(r.reason), detail));
            }
            let side = self.game.side_to_move();
            if self.dead[side] {
                self.faulty[side] = true;
                let status = self.clients[side].exit_status().unwrap_or_default();
                let detail = format!("{} exited ({status})", self.who(side));
                return Err(Stop::end(!side, Reason::Time, detail));
            }
            let in_setup = self.game.in_setup();
            // Moves played so far, setups included: the opening's turns come right after the
            // two setups.
            let played = self.game.moves().len();
            let text = match opening {
                Some(o) if in_setup => o.setups[side].clone(),
                Some(o) if played >= 2 && played - 2 < o.turns.len() => o.turns[played - 2].clone(),
                _ => self.ask(side, in_setup)?,
            };
            self.play(side, &text)?;
            if self.game.result().is_none()
                && self.clock.turn_limit_reached(side, self.game.move_number())
            {
                let detail = format!("turn limit reached, {}", piece_counts(&self.game));
                return Err(Stop::end(limit_winner(&self.game), Reason::Limit, detail));
            }
        }
    }

    /// Per game: tc options, newgame, isready (roundrobin's order).
    fn prepare(&mut self, c: Color) -> Result<(), Stop> {
        let tc = self.tcs[c];
        let cl = &mut *self.clients[c];
        cl.drain();
        let mut r: Result<(), ClientError> = Ok(());
        if let Some(tc) = tc {
            for (k, v) in tc.aei_options() {
                r = r.and_then(|_| cl.setoption(k, &v));
            }
        }
        let ready = r
            .and_then(|_| cl.send("newgame"))
            .and_then(|_| cl.isready(self.cancel));
        match ready {
            Ok(warnings) if self.cfg.strict_options && !warnings.is_empty() => {
                Err(Stop::OptionsRefused(c, warnings.join("; ")))
            }
            Ok(warnings) => {
                self.option_warnings[c] = warnings;
                Ok(())
            }
            Err(ClientError::Cancelled) => Err(Stop::Aborted),
            Err(ClientError::OptionRefused(text)) => Err(Stop::OptionsRefused(c, text)),
            Err(e) => {
                self.faulty[c] = true;
                let detail = format!("{} {e} before the game", self.who(c));
                Err(Stop::end(!c, Reason::Time, detail))
            }
        }
    }

    /// Sends the reserves and `moveused` before a timed side's `go`.
    fn send_clock(&mut self, side: Color) -> Result<(), ClientError> {
        if self.tcs[side].is_none() {
            return Ok(());
        }
        for (c, name) in Color::ALL.into_iter().zip(["greserve", "sreserve"]) {
            if let Some(r) = self.clock.aei_reserve(c) {
                self.clients[side].setoption(name, &r.to_string())?;
            }
        }
        self.clients[side].setoption("moveused", "0")
    }

    /// Whether `at` is past the game-time limit of `side`'s time control.
    fn past_game_time(&self, side: Color, at: Instant) -> bool {
        self.tcs[side]
            .filter(|tc| tc.total > 0.0)
            .is_some_and(|tc| at > self.start + seconds_to_duration(tc.total))
    }

    /// The game stopped by its time limit during `side`'s turn.
    fn game_time_up(&self, side: Color) -> Stop {
        let detail = limit_detail(&self.game, &self.who(side));
        Stop::end(limit_winner(&self.game), Reason::Limit, detail)
    }

    /// Asks `side`'s engine for its move against its clock (or the move timeout).
    fn ask(&mut self, side: Color, in_setup: bool) -> Result<String, Stop> {
        let budget = self
            .clock
            .turn_deadline(side, self.start.elapsed().as_secs_f64());
        let sent = self.send_clock(side);
        let move_start = Instant::now();
        let deadline = match budget {
            Some(b) => move_start + seconds_to_duration(b.seconds),
            None => move_start + self.cfg.move_timeout,
        };
        let stop_at = match (budget, self.cfg.stop_time) {
            (Some(b), Some(st)) => Some(move_start + seconds_to_duration(b.seconds - st)),
            _ => None,
        };
        let answer = sent.and_then(|_| self.clients[side].go(Some(deadline), stop_at, self.cancel));
        match answer {
            Ok(Answer::Cancelled) | Err(ClientError::Cancelled) => Err(Stop::Aborted),
            Ok(Answer::Exited) | Err(_) => {
                self.faulty[side] = true;
                std::thread::sleep(Duration::from_millis(20));
                let status = self.clients[side].exit_status().unwrap_or_default();
                let detail = format!("{} exited during its turn ({status})", self.who(side));
                Err(Stop::end(!side, Reason::Time, detail))
            }
            Ok(Answer::Timeout) => {
                self.faulty[side] = true;
                if self.past_game_time(side, Instant::now()) {
                    return Err(self.game_time_up(side));
                }
                let limit = budget.map_or(self.cfg.move_timeout.as_secs_f64(), |b| b.seconds);
                let detail = format!("{} gave no move within {limit:.3} s", self.who(side));
                Err(Stop::end(!side, Reason::Time, detail))
            }
            Ok(Answer::Move(text, at)) => {
                if at > deadline {
                    self.faulty[side] = true;
                    if self.past_game_time(side, at) {
                        return Err(self.game_time_up(side));
                    }
                    let detail = format!("{} answered too late", self.who(side));
                    return Err(Stop::end(!side, Reason::Time, detail));
                }
                let used = at.saturating_duration_since(move_start).as_secs_f64();
                self.clock.charge(side, used, in_setup);
                Ok(text)
            }
        }
    }

    /// Plays `side`'s move `text` on the referee's board and passes it on to both engines.
    fn play(&mut self, side: Color, text: &str) -> Result<(), Stop> {
        if text.trim().eq_ignore_ascii_case("resign") {
            let detail = format!("{} resigned", self.who(side));
            return Err(Stop::end(!side, Reason::Resignation, detail));
        }
        // The referee computes captures itself and ignores the tokens, as pyrimaa does.
        let clean = without_capture_tokens(text);
        if let Err(e) = self.game.play_text(&clean) {
            self.faulty[side] = true;
            let label = self.game.move_label();
            return Err(Stop::End {
                winner: !side,
                reason: Reason::Illegal,
                detail: format!(
                    "{} played an illegal move {label} \"{text}\": {e}",
                    self.who(side)
                ),
                illegal_move: Some(text.to_string()),
            });
        }
        let played = self
            .game
            .move_text(self.game.moves().len() - 1)
            .unwrap_or_else(|| clean.clone());
        for c in Color::ALL {
            if !self.dead[c] && self.clients[c].send(&format!("makemove {played}")).is_err() {
                self.dead[c] = true;
            }
        }
        Ok(())
    }
}

/// Why a game ended at the game-time limit during the turn of `mover` (as named in details),
/// with the piece counts that decide it.
fn limit_detail(game: &Game, mover: &str) -> String {
    format!(
        "game-time limit reached during {mover}'s turn, {}",
        piece_counts(game)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn capture_tokens_are_dropped_and_steps_kept() {
        assert_eq!(without_capture_tokens("rd3w rc3x Ed2n"), "rd3w Ed2n");
        assert_eq!(without_capture_tokens("  Ee2n  Ee3n "), "Ee2n Ee3n");
        assert_eq!(without_capture_tokens("Ra1 Rb1"), "Ra1 Rb1");
    }
}
