//! Plays one game between two started engines. The referee trusts only its own
//! [`tusk_engine::Game`]: every `bestmove` is checked there (legal, changes the board, not a
//! third repetition), the clocks are kept as pyrimaa's `Game` keeps them, and every fault
//! (illegal move, time loss, crash, hang) ends the game as a loss for the side at fault.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use tusk_engine::{Color, EndReason, Game};

use super::aei_client::{AeiClient, Answer, ClientError};
use crate::clock::{seconds_to_duration, Clock, TimeControl};
use tusk_engine::ByColor;

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
}

/// How a game ended.
#[derive(Debug)]
pub struct Outcome {
    /// The winner.
    pub winner: Color,
    /// The AEI controllers' code: `g` goal, `e` elimination, `m` immobilisation (including
    /// "every move would be a third repetition"), `t` time (also a crash or a hang), `i`
    /// illegal move, `r` resignation, `s` turn or game-time limit.
    pub reason: char,
    /// A sentence for people: what happened.
    pub detail: String,
    /// The game as played (the illegal move, if any, is not in it).
    pub game: Game,
    /// The rejected move text, when `reason` is `i`.
    pub illegal_move: Option<String>,
    /// Per side (gold, silver): whether that engine misbehaved and must not be reused.
    pub faulty: [bool; 2],
}

/// The result of [`play_game`].
#[derive(Debug)]
pub enum Played {
    /// The game ended.
    Finished(Box<Outcome>),
    /// The match was cancelled (Ctrl-C or a decided SPRT); the game does not count.
    Aborted,
}

fn idx(c: Color) -> usize {
    c.index()
}

/// The code of a natural end.
pub fn natural_code(r: EndReason) -> char {
    match r {
        EndReason::Goal => 'g',
        EndReason::Elimination => 'e',
        // The rules treat "every move would repeat a third time" as having no legal move.
        EndReason::Immobilization | EndReason::Repetition => 'm',
    }
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

/// Removes capture tokens (`rc3x`): the referee computes captures itself, as pyrimaa does.
fn strip_captures(text: &str) -> String {
    text.split_whitespace()
        .filter(|t| !(t.len() == 4 && t.ends_with('x')))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Plays one game. `setups`, when given, are the gold and silver setups the referee plays
/// itself (the engines are not asked). `names` label the sides in details.
pub fn play_game(
    players: [Player<'_>; 2],
    names: [&str; 2],
    setups: Option<&[String; 2]>,
    cfg: &RefereeConfig,
    cancel: &AtomicBool,
) -> Played {
    let [gold, silver] = players;
    let tcs = [gold.tc, silver.tc];
    let mut clients: [&mut AeiClient; 2] = [gold.client, silver.client];
    let mut game = Game::new();
    let mut faulty = [false; 2];
    let who = |c: Color| format!("{} ({})", c.name(), names[idx(c)]);

    macro_rules! finish {
        ($winner:expr, $reason:expr, $detail:expr, $illegal:expr) => {
            // A fault seen while the match is being cancelled is the cancellation itself
            // (the engines were just killed): the game does not count.
            if matches!($reason, 't' | 'i' | 's') && cancel.load(Ordering::SeqCst) {
                return Played::Aborted;
            }
            return Played::Finished(Box::new(Outcome {
                winner: $winner,
                reason: $reason,
                detail: $detail,
                game,
                illegal_move: $illegal,
                faulty,
            }))
        };
    }

    // Per game: tc options, newgame, isready (roundrobin's order).
    for c in Color::ALL {
        let cl = &mut *clients[idx(c)];
        cl.drain();
        let mut r: Result<(), ClientError> = Ok(());
        if let Some(tc) = tcs[idx(c)] {
            for (k, v) in tc.aei_options() {
                r = r.and_then(|_| cl.setoption(k, &v));
            }
        }
        r = r
            .and_then(|_| cl.send("newgame"))
            .and_then(|_| cl.isready(cancel));
        match r {
            Ok(()) => {}
            Err(ClientError::Cancelled) => return Played::Aborted,
            Err(e) => {
                faulty[idx(c)] = true;
                finish!(!c, 't', format!("{} {e} before the game", who(c)), None);
            }
        }
    }

    let mut clock = Clock::new(ByColor(tcs));
    let start = Instant::now();
    let mut dead = [false; 2];
    loop {
        if let Some(r) = game.result() {
            let detail = format!("{} wins by {}", who(r.winner), r.reason.name());
            finish!(r.winner, natural_code(r.reason), detail, None);
        }
        let side = game.side_to_move();
        let s = idx(side);
        let in_setup = game.in_setup();
        if dead[s] {
            faulty[s] = true;
            let status = clients[s].exit_status().unwrap_or_default();
            finish!(!side, 't', format!("{} exited ({status})", who(side)), None);
        }
        let text = if let (true, Some(setups)) = (in_setup, setups) {
            setups[s].clone()
        } else {
            let budget = clock.turn_deadline(side, start.elapsed().as_secs_f64());
            let mut opts = Vec::new();
            if tcs[s].is_some() {
                for (c, name) in Color::ALL.into_iter().zip(["greserve", "sreserve"]) {
                    if let Some(r) = clock.aei_reserve(c) {
                        opts.push((name, r.to_string()));
                    }
                }
                opts.push(("moveused", "0".to_string()));
            }
            let mut sent: Result<(), ClientError> = Ok(());
            for (k, v) in &opts {
                sent = sent.and_then(|_| clients[s].setoption(k, v));
            }
            let move_start = Instant::now();
            let deadline = match budget {
                Some(b) => move_start + seconds_to_duration(b.seconds),
                None => move_start + cfg.move_timeout,
            };
            let stop_at = match (budget, cfg.stop_time) {
                (Some(b), Some(st)) => Some(move_start + seconds_to_duration(b.seconds - st)),
                _ => None,
            };
            let answer = sent.and_then(|_| clients[s].go(Some(deadline), stop_at, cancel));
            let game_over_at = tcs[s]
                .filter(|tc| tc.total > 0.0)
                .map(|tc| start + seconds_to_duration(tc.total));
            let late = |at: Instant| -> char {
                if game_over_at.is_some_and(|g| at > g) {
                    's'
                } else {
                    't'
                }
            };
            match answer {
                Ok(Answer::Cancelled) | Err(ClientError::Cancelled) => return Played::Aborted,
                Ok(Answer::Exited) | Err(_) => {
                    faulty[s] = true;
                    std::thread::sleep(Duration::from_millis(20));
                    let status = clients[s].exit_status().unwrap_or_default();
                    finish!(
                        !side,
                        't',
                        format!("{} exited during its turn ({status})", who(side)),
                        None
                    );
                }
                Ok(Answer::Timeout) => {
                    faulty[s] = true;
                    let code = late(Instant::now());
                    let limit = budget.map_or(cfg.move_timeout.as_secs_f64(), |b| b.seconds);
                    if code == 's' {
                        finish!(
                            limit_winner(&game),
                            's',
                            limit_detail(&game, &who(side)),
                            None
                        );
                    }
                    finish!(
                        !side,
                        't',
                        format!("{} gave no move within {limit:.3} s", who(side)),
                        None
                    );
                }
                Ok(Answer::Move(text, at)) => {
                    if at > deadline {
                        faulty[s] = true;
                        if late(at) == 's' {
                            finish!(
                                limit_winner(&game),
                                's',
                                limit_detail(&game, &who(side)),
                                None
                            );
                        }
                        finish!(!side, 't', format!("{} answered too late", who(side)), None);
                    }
                    let used = at.saturating_duration_since(move_start).as_secs_f64();
                    clock.charge(side, used, in_setup);
                    text
                }
            }
        };
        if text.trim().eq_ignore_ascii_case("resign") {
            finish!(!side, 'r', format!("{} resigned", who(side)), None);
        }
        let clean = strip_captures(&text);
        if let Err(e) = game.play_text(&clean) {
            faulty[s] = true;
            let label = game.move_label();
            finish!(
                !side,
                'i',
                format!(
                    "{} played an illegal move {label} \"{text}\": {e}",
                    who(side)
                ),
                Some(text)
            );
        }
        let played = game
            .move_text(game.moves().len() - 1)
            .unwrap_or_else(|| clean.clone());
        for c in [0, 1] {
            if !dead[c] && clients[c].send(&format!("makemove {played}")).is_err() {
                dead[c] = true;
            }
        }
        if game.result().is_none() && clock.turn_limit_reached(side, game.move_number()) {
            let w = limit_winner(&game);
            finish!(
                w,
                's',
                format!("turn limit reached, {}", piece_counts(&game)),
                None
            );
        }
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
        assert_eq!(strip_captures("rd3w rc3x Ed2n"), "rd3w Ed2n");
        assert_eq!(strip_captures("  Ee2n  Ee3n "), "Ee2n Ee3n");
        assert_eq!(strip_captures("Ra1 Rb1"), "Ra1 Rb1");
    }

    #[test]
    fn repetition_is_reported_as_immobilisation() {
        assert_eq!(natural_code(EndReason::Repetition), 'm');
        assert_eq!(natural_code(EndReason::Goal), 'g');
        assert_eq!(natural_code(EndReason::Elimination), 'e');
    }
}
